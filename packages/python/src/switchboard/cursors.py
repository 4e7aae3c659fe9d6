"""Where an agent keeps its per-room cursors: the highest seq its handler has finished.

With a persisted store a restarted agent resumes exactly where it stopped; with none it resumes
from the server's delivered cursor (so a message handled in the last ~100 ms before a crash is
handled again, and its replies, derived from it, are answered with what was stored the first time).
The file's format is the TypeScript SDK's (`{"<roomId>": seq}`), so either SDK can read it.
"""

from __future__ import annotations

import json
import os
from typing import Dict, Optional, Protocol, Union


class CursorStore(Protocol):
    def get(self, room_id: str) -> Optional[int]:
        """The room's cursor, or None when this store has none."""
        ...

    def set(self, room_id: str, seq: int) -> None:
        """Records the room's cursor (only ever moved forward by the client)."""
        ...

    def flush(self) -> None:
        """Makes what `set` recorded durable (a file store writes through at once)."""
        ...


class MemoryCursorStore:
    """The default: cursors live as long as the process."""

    def __init__(self) -> None:
        self._cursors: Dict[str, int] = {}

    def get(self, room_id: str) -> Optional[int]:
        return self._cursors.get(room_id)

    def set(self, room_id: str, seq: int) -> None:
        self._cursors[room_id] = seq

    def flush(self) -> None:
        pass


class FileCursorStore:
    """A JSON file, replaced atomically (written beside it, then renamed over it) on every change,
    so a crash at any moment leaves either the old cursors or the new ones, never a torn file."""

    def __init__(self, path: Union[str, "os.PathLike[str]"]) -> None:
        self.path = os.fspath(path)
        directory = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(directory, exist_ok=True)
        self._cursors = _read(self.path)

    def get(self, room_id: str) -> Optional[int]:
        return self._cursors.get(room_id)

    def set(self, room_id: str, seq: int) -> None:
        if self._cursors.get(room_id, -1) >= seq:
            return
        self._cursors[room_id] = seq
        tmp = f"{self.path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self._cursors, f)
        os.replace(tmp, self.path)

    def flush(self) -> None:
        pass  # written through by set()


def _read(path: str) -> Dict[str, int]:
    try:
        with open(path, encoding="utf-8") as f:
            parsed = json.load(f)
    except (OSError, ValueError):
        return {}  # no file yet (first run) or unreadable: start from the server's cursors
    if not isinstance(parsed, dict):
        return {}
    return {k: v for k, v in parsed.items() if isinstance(v, int) and not isinstance(v, bool)}
