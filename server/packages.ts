// The packages the server hands out (server/http/install.ts serves them; the Agents page's commands
// name them), which `npm run build` builds into dist/install/ (scripts/build-packages.mjs): the CLI's
// and the SDK's npm tarballs, each under a name that changes with its content, and the Python package
// (its source distribution for `pip install <server>/install/python`, and its wheel).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { checkoutRoot } from "./checkout";
import type { ServedPackage, ServedPackages, ServedPythonPackage } from "@switchboard/sdk/contract";
import { env } from "./env";

export const INSTALL_PREFIX = "/install";

export const PACKAGES = {
  cli: { file: "cli.tgz", name: "switchboard-cli" },
  sdk: { file: "sdk.tgz", name: "switchboard-sdk" },
} as const;
export type PackageKey = keyof typeof PACKAGES;

/** The server's version, which its packages carry. */
let version: string | undefined;
function serverVersion(): string {
  version ??= (JSON.parse(readFileSync(/*turbopackIgnore: true*/ path.join(checkoutRoot(), "package.json"), "utf8")) as { version: string }).version;
  return version;
}

export interface Built extends ServedPackage {
  file: string;
  size: number;
}

const installDir = () => env.INSTALL_DIR ?? path.join(/*turbopackIgnore: true*/ checkoutRoot(), "dist/install");

/** Each file's digest, kept while the file is unchanged (by size and modification time). */
const digests = new Map<string, { key: string; sha256: string }>();

/** A built file: its size and sha256 (kept while the file is unchanged), or null when it is not there. */
export async function builtFile(name: string): Promise<{ file: string; size: number; sha256: string } | null> {
  // Read at run time only (Next.js's bundle of the tRPC router is told not to trace these paths).
  const file = path.join(/*turbopackIgnore: true*/ installDir(), name);
  const found = await stat(/*turbopackIgnore: true*/ file).catch(() => null);
  if (!found?.isFile()) return null;
  const key = `${found.size}:${found.mtimeMs}`;
  let digest = digests.get(file);
  if (digest?.key !== key) {
    digest = {
      key,
      sha256: createHash("sha256")
        .update(await readFile(/*turbopackIgnore: true*/ file))
        .digest("hex"),
    };
    digests.set(file, digest);
  }
  return { file, size: found.size, sha256: digest.sha256 };
}

/** The npm package as built now, or null when `npm run build` has not built it. */
export async function builtPackage(pkg: PackageKey): Promise<Built | null> {
  const built = await builtFile(PACKAGES[pkg].file);
  if (!built) return null;
  const name = `${PACKAGES[pkg].name}-${serverVersion()}-${built.sha256.slice(0, 12)}.tgz`;
  return { ...built, path: `${INSTALL_PREFIX}/${name}`, version: serverVersion() };
}

/** The Python package's source distribution, which `pip install <server>/install/python` builds. */
export const PYTHON_SDIST = "python.tar.gz";
export const PYTHON_PATH = `${INSTALL_PREFIX}/python`;
/** The wheel's file name, which pip needs as the URL's last part to take it as a wheel. */
const WHEEL = /^switchboard-([0-9][\w.]*)-py3-none-any\.whl$/;

/** The Python package as built now (its wheel's file name, when built too), or null. */
export async function builtPython(): Promise<(ServedPythonPackage & { file: string; size: number }) | null> {
  const [sdist, names] = await Promise.all([builtFile(PYTHON_SDIST), readdir(/*turbopackIgnore: true*/ installDir()).catch(() => [] as string[])]);
  if (!sdist) return null;
  const wheel = names.find((name) => WHEEL.test(name)) ?? null;
  const version = wheel ? WHEEL.exec(wheel)![1] : serverVersion();
  return { ...sdist, path: PYTHON_PATH, version, wheel: wheel && `${INSTALL_PREFIX}/${wheel}` };
}

/** Whether `name` is the wheel's file name (the one served). */
export const isWheelName = (name: string) => WHEEL.test(name);

/** What the server hands out now (null: not built), for the commands people are given to paste. */
export async function servedPackages(): Promise<ServedPackages> {
  const [cli, sdk, python] = await Promise.all([builtPackage("cli"), builtPackage("sdk"), builtPython()]);
  const served = (b: Built | null): ServedPackage | null => b && { path: b.path, version: b.version, sha256: b.sha256 };
  return { cli: served(cli), sdk: served(sdk), python: python && { path: python.path, version: python.version, sha256: python.sha256, wheel: python.wheel } };
}
