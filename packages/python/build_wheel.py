"""Builds the `switchboard` package with the standard library alone (no pip, no setuptools, no
network), for the server to hand out:

    python3 packages/python/build_wheel.py <out dir>
    python3 packages/python/build_wheel.py --sdist <out dir>

The first writes <out dir>/switchboard-<version>-py3-none-any.whl, the second
<out dir>/switchboard-<version>.tar.gz; each prints the path of what it wrote.

pip installs a wheel only from a path or URL whose last part is the wheel's file name; what it
downloads from any other URL (`pip install <server>/install/python`) it unpacks and builds as a
source distribution. So the sdist this makes builds itself: its pyproject.toml names this very file
as its build backend (PEP 517, `backend-path = ["."]`, no build requirements), and pip turns it
into the same wheel, without an index.

Name, version, Python requirement and dependencies come from pyproject.toml, the package from
src/switchboard/, the description from README.md. The same sources make the same files, byte for
byte with the same Python (entries in a fixed order with a fixed time), so a file's hash changes
only when its content does.
"""

from __future__ import annotations

import base64
import csv
import gzip
import hashlib
import importlib
import io
import os
import re
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

HERE = Path(__file__).resolve().parent
TAG = "py3-none-any"
#: Every wheel entry's time: zip's earliest (the content, not the clock, decides the bytes).
EPOCH = (1980, 1, 1, 0, 0, 0)
#: What the sdist holds besides the package, and pyproject.toml (rewritten: below).
SDIST_FILES = ["README.md", "build_wheel.py", "examples/echo_agent.py"]
#: The sdist's build system: this file, which needs nothing but the standard library.
SDIST_BUILD_SYSTEM = (
    '[build-system]\nrequires = []\nbuild-backend = "build_wheel"\nbackend-path = ["."]\n'
)


def read_project(pyproject: Path) -> Dict[str, Any]:
    """The `[project]` table: by tomllib (Python 3.11+), else the few keys this file uses, read
    plainly."""
    text = pyproject.read_text(encoding="utf-8")
    if sys.version_info < (3, 11):
        return _read_project_plainly(text)
    tomllib = importlib.import_module("tomllib")
    project: Dict[str, Any] = tomllib.loads(text)["project"]
    return project


def _read_project_plainly(text: str) -> Dict[str, Any]:
    section = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if section is None:
        raise SystemExit("pyproject.toml has no [project] table")
    body = section.group(1)
    project: Dict[str, Any] = {}
    for key in ("name", "version", "description", "requires-python", "readme"):
        match = re.search(rf'^{re.escape(key)}\s*=\s*"([^"]*)"', body, re.M)
        if match:
            project[key] = match.group(1)
    deps = re.search(r"^dependencies\s*=\s*\[(.*?)\]", body, re.M | re.S)
    project["dependencies"] = re.findall(r'"([^"]+)"', deps.group(1)) if deps else []
    return project


def record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"sha256={digest}"


def metadata(project: Dict[str, Any]) -> str:
    """The core metadata: the wheel's METADATA, the sdist's PKG-INFO."""
    readme = (HERE / str(project.get("readme", "README.md"))).read_text(encoding="utf-8")
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
    ]
    if project.get("description"):
        lines.append(f"Summary: {project['description']}")
    if project.get("requires-python"):
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {dependency}" for dependency in project.get("dependencies", [])]
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + readme


def package_files() -> List[Tuple[str, bytes]]:
    """(path under src/, content) of the package's files, in a fixed order."""
    package = HERE / "src" / "switchboard"
    return [
        (f"switchboard/{path.relative_to(package).as_posix()}", path.read_bytes())
        for path in sorted(package.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".py", ".typed")
    ]


def _stem(project: Dict[str, Any]) -> str:
    """`<name>-<version>` as file names spell it."""
    return f"{re.sub(r'[-_.]+', '_', project['name']).lower()}-{project['version']}"


def build(out_dir: Path) -> Path:
    """Writes the wheel into `out_dir` and returns its path."""
    project = read_project(HERE / "pyproject.toml")
    dist_info = f"{_stem(project)}.dist-info"
    wheel_meta = (
        "Wheel-Version: 1.0\nGenerator: switchboard build_wheel.py\n"
        f"Root-Is-Purelib: true\nTag: {TAG}\n"
    )
    files = package_files() + [
        (f"{dist_info}/METADATA", metadata(project).encode("utf-8")),
        (f"{dist_info}/WHEEL", wheel_meta.encode("utf-8")),
        (f"{dist_info}/top_level.txt", b"switchboard\n"),
    ]
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for path, data in files:
        writer.writerow([path, record_hash(data), str(len(data))])
    writer.writerow([f"{dist_info}/RECORD", "", ""])
    files.append((f"{dist_info}/RECORD", record.getvalue().encode("utf-8")))

    target = out_dir / f"{_stem(project)}-{TAG}.whl"
    out_dir.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files:
            entry = zipfile.ZipInfo(path, date_time=EPOCH)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            wheel.writestr(entry, data)
    os.replace(partial, target)  # a reader never sees half a wheel
    return target


def build_source(out_dir: Path) -> Path:
    """Writes the sdist (`<name>-<version>.tar.gz`) into `out_dir` and returns its path."""
    project = read_project(HERE / "pyproject.toml")
    pyproject = (HERE / "pyproject.toml").read_text(encoding="utf-8")
    pyproject = re.sub(
        r"^\[build-system\]\s*$.*?(?=^\[)",
        SDIST_BUILD_SYSTEM + "\n",
        pyproject,
        count=1,
        flags=re.M | re.S,
    )
    files = [
        ("PKG-INFO", metadata(project).encode("utf-8")),
        ("pyproject.toml", pyproject.encode("utf-8")),
        *((name, (HERE / name).read_bytes()) for name in SDIST_FILES),
        *((f"src/{path}", data) for path, data in package_files()),
    ]
    target = out_dir / f"{_stem(project)}.tar.gz"
    out_dir.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path, data in files:
            entry = tarfile.TarInfo(f"{_stem(project)}/{path}")
            entry.size, entry.mode, entry.mtime = len(data), 0o644, 0
            tar.addfile(entry, io.BytesIO(data))
    partial.write_bytes(gzip.compress(archive.getvalue(), mtime=0))
    os.replace(partial, target)
    return target


# ---- PEP 517: the sdist's build backend (pip calls these in the unpacked sdist) ----


def get_requires_for_build_wheel(config_settings: Optional[Mapping[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Mapping[str, Any]] = None) -> List[str]:
    return []


def build_wheel(
    wheel_directory: str,
    config_settings: Optional[Mapping[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    return build(Path(wheel_directory)).name


def build_sdist(sdist_directory: str, config_settings: Optional[Mapping[str, Any]] = None) -> str:
    return build_source(Path(sdist_directory)).name


def main(argv: List[str]) -> int:
    args = argv[1:]
    source = args[:1] == ["--sdist"]
    if source:
        args = args[1:]
    if len(args) != 1:
        print(f"usage: {argv[0]} [--sdist] <out dir>", file=sys.stderr)
        return 2
    out_dir = Path(args[0]).resolve()
    print(build_source(out_dir) if source else build(out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
