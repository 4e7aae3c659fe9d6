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
import { createReadStream } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { AppError, ERROR_CODES, toErrorShape } from "../errors";
import { builtPackage, INSTALL_PREFIX, PACKAGES, servedPackages, type PackageKey } from "../packages";

export { INSTALL_PREFIX };

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
  const current = await builtPackage(pkg);
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
