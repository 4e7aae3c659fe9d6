// The packages the server hands out (server/http/install.ts serves them; the Agents page's commands
// name them): the CLI's and the SDK's npm tarballs, which `npm run build` packs into dist/install/
// (scripts/build-packages.mjs), each under a name that changes with its content.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { checkoutRoot } from "./checkout";
import type { ServedPackage, ServedPackages } from "@switchboard/sdk/contract";
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

/** The package as built now, or null when `npm run build` has not built it. */
export async function builtPackage(pkg: PackageKey): Promise<Built | null> {
  // Read at run time only (Next.js's bundle of the tRPC router is told not to trace these paths).
  const file = path.join(/*turbopackIgnore: true*/ installDir(), PACKAGES[pkg].file);
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
  const name = `${PACKAGES[pkg].name}-${serverVersion()}-${digest.sha256.slice(0, 12)}.tgz`;
  return { file, size: found.size, path: `${INSTALL_PREFIX}/${name}`, version: serverVersion(), sha256: digest.sha256 };
}

/** What the server hands out now (null: not built), for the commands people are given to paste. */
export async function servedPackages(): Promise<ServedPackages> {
  const [cli, sdk] = await Promise.all([builtPackage("cli"), builtPackage("sdk")]);
  const served = (b: Built | null): ServedPackage | null => b && { path: b.path, version: b.version, sha256: b.sha256 };
  return { cli: served(cli), sdk: served(sdk) };
}
