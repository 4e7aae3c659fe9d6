// The clients this server hands out, versioned with it: the `switchboard` command (cli) and the
// TypeScript SDK (sdk), npm tarballs that `npm run build` packs into dist/install/
// (scripts/build-packages.mjs). So on any machine that reaches the server, with no clone and no
// registry: `npx -y --package=<url>/install/switchboard-cli-<version>-<hash>.tgz switchboard connect …`
// and `npm install <url>/install/switchboard-sdk-<version>-<hash>.tgz`.
//
//   GET /install                   what is served, as JSON: each package's versioned path and sha256
//   GET /install/cli.tgz           the current build (sdk.tgz likewise)
//   GET /install/<versioned name>  the same file under a name that changes with its content
//
// The commands the server hands out name the versioned file: npx keeps what it installed from a URL
// and runs it again for the same URL without looking whether the file changed, so a new build of the
// server must hand out a new URL for people to get the new CLI.
import { createHash } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { CHECKOUT_ROOT } from "../checkout";
import { env } from "../env";
import { AppError, ERROR_CODES, toErrorShape } from "../errors";

export const INSTALL_PREFIX = "/install";

const PACKAGES = {
  cli: { file: "cli.tgz", name: "switchboard-cli" },
  sdk: { file: "sdk.tgz", name: "switchboard-sdk" },
} as const;
type PackageKey = keyof typeof PACKAGES;

/** The server's version, which its packages carry. */
const VERSION = (JSON.parse(readFileSync(path.join(CHECKOUT_ROOT, "package.json"), "utf8")) as { version: string }).version;

export interface ServedPackage {
  /** The path of the file under a name that changes with its content. */
  path: string;
  version: string;
  sha256: string;
}

interface Built extends ServedPackage {
  file: string;
  size: number;
}

const installDir = () => env.INSTALL_DIR ?? path.join(CHECKOUT_ROOT, "dist/install");

/** Each file's digest, kept while the file is unchanged (by size and modification time). */
const digests = new Map<string, { key: string; sha256: string }>();

/** The package as built now, or null when `npm run build` has not built it. */
async function built(pkg: PackageKey): Promise<Built | null> {
  const file = path.join(installDir(), PACKAGES[pkg].file);
  const found = await stat(file).catch(() => null);
  if (!found?.isFile()) return null;
  const key = `${found.size}:${found.mtimeMs}`;
  let digest = digests.get(file);
  if (digest?.key !== key) {
    digest = {
      key,
      sha256: createHash("sha256")
        .update(await readFile(file))
        .digest("hex"),
    };
    digests.set(file, digest);
  }
  const name = `${PACKAGES[pkg].name}-${VERSION}-${digest.sha256.slice(0, 12)}.tgz`;
  return { file, size: found.size, path: `${INSTALL_PREFIX}/${name}`, version: VERSION, sha256: digest.sha256 };
}

/** What the server hands out now (null: not built), for the commands people are given to paste. */
export async function servedPackages(): Promise<Record<PackageKey, ServedPackage | null>> {
  const [cli, sdk] = await Promise.all([built("cli"), built("sdk")]);
  const served = (b: Built | null): ServedPackage | null => b && { path: b.path, version: b.version, sha256: b.sha256 };
  return { cli: served(cli), sdk: served(sdk) };
}

/** Answers a request under INSTALL_PREFIX. */
export async function serveInstall(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const pathname = new URL(req.url ?? "/", "http://x").pathname;
  if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, "Use GET");
  if (pathname === INSTALL_PREFIX || pathname === `${INSTALL_PREFIX}/`) {
    res.setHeader("Content-Type", "application/json");
    res.setHeader("Cache-Control", "no-cache");
    return void res.end(JSON.stringify({ ok: true, data: await servedPackages() }));
  }
  const name = pathname.slice(INSTALL_PREFIX.length + 1);
  const pkg = (Object.keys(PACKAGES) as PackageKey[]).find((key) => name === PACKAGES[key].file || name.startsWith(`${PACKAGES[key].name}-`));
  if (!pkg) return refuse(res, `Nothing to install at ${pathname}: GET ${INSTALL_PREFIX} lists what there is`);
  const current = await built(pkg);
  if (!current) return refuse(res, `${pathname} is built by \`npm run build\` (or \`npm run build:packages\`), not yet run for this server`);
  const versioned = name !== PACKAGES[pkg].file;
  if (versioned && `${INSTALL_PREFIX}/${name}` !== current.path) {
    return refuse(res, `${pathname} is not served: this server's build of it is ${current.path}`);
  }

  const etag = `"${current.sha256.slice(0, 32)}"`;
  res.setHeader("ETag", etag);
  // A versioned name's content never changes; the plain name's changes with every build.
  res.setHeader("Cache-Control", versioned ? "public, max-age=31536000, immutable" : "no-cache");
  if (req.headers["if-none-match"] === etag) {
    res.statusCode = 304;
    return void res.end();
  }
  res.setHeader("Content-Type", "application/gzip");
  res.setHeader("Content-Length", current.size);
  res.setHeader("Content-Disposition", `attachment; filename="${path.basename(current.path)}"`);
  if (req.method === "HEAD") return void res.end();
  const stream = createReadStream(current.file);
  stream.on("error", () => res.destroy());
  stream.pipe(res);
}

/** NOT_FOUND, as the server's other HTTP endpoints answer it. */
function refuse(res: ServerResponse, message: string): void {
  res.statusCode = ERROR_CODES.NOT_FOUND.status;
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify({ ok: false, error: toErrorShape(new AppError("NOT_FOUND", message)) }));
}
