// The clients this server hands out, versioned with it: the `switchboard` command (cli) and the
// TypeScript SDK (sdk), npm tarballs, and the Python package, which `npm run build` builds into
// dist/install/ (scripts/build-packages.mjs). So on any machine that reaches the server, with no clone
// and no registry: `npx -y --package=<url>/install/switchboard-cli-<version>-<hash>.tgz switchboard
// connect …`, `npm install <url>/install/switchboard-sdk-<version>-<hash>.tgz`, and
// `pip install <url>/install/python`.
//
//   GET /install                   what is served, as JSON: each package's path and sha256
//   GET /install/cli.tgz           the current build (sdk.tgz likewise)
//   GET /install/<versioned name>  the same file under a name that changes with its content
//   GET /install/python            the Python package's source distribution, which pip builds into
//                                  the wheel with no index (pip takes a wheel only by its file name)
//   GET /install/switchboard-<version>-py3-none-any.whl   the wheel itself
//
// The commands the server hands out name the versioned file: npx keeps what it installed from a URL
// and runs it again for the same URL without looking whether the file changed, so a new build of the
// server must hand out a new URL for people to get the new CLI.
import { createReadStream } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { AppError, ERROR_CODES, toErrorShape } from "../errors";
import { builtFile, builtPackage, builtPython, INSTALL_PREFIX, isWheelName, PACKAGES, PYTHON_PATH, servedPackages, type PackageKey } from "../packages";

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
  const found = await fileFor(name);
  if (typeof found === "string") return refuse(res, found);
  const { current, versioned, type } = found;

  const etag = `"${current.sha256.slice(0, 32)}"`;
  res.setHeader("ETag", etag);
  // A versioned name's content never changes; the plain name's changes with every build.
  res.setHeader("Cache-Control", versioned ? "public, max-age=31536000, immutable" : "no-cache");
  if (req.headers["if-none-match"] === etag) {
    res.statusCode = 304;
    return void res.end();
  }
  res.setHeader("Content-Type", type);
  res.setHeader("Content-Length", current.size);
  res.setHeader("Content-Disposition", `attachment; filename="${current.downloadAs}"`);
  if (req.method === "HEAD") return void res.end();
  const stream = createReadStream(current.file);
  stream.on("error", () => res.destroy());
  stream.pipe(res);
}

interface Found {
  current: { file: string; size: number; sha256: string; downloadAs: string };
  /** Served under a name that changes with its content (cached for good), or under a plain one. */
  versioned: boolean;
  type: string;
}

const NOT_BUILT = (what: string) => `${what} is built by \`npm run build\` (or \`npm run build:packages\`), not yet run for this server`;

/** The file a name under INSTALL_PREFIX stands for, or why there is none. */
async function fileFor(name: string): Promise<Found | string> {
  if (`${INSTALL_PREFIX}/${name}` === PYTHON_PATH || isWheelName(name)) {
    const python = await builtPython();
    if (!python) return NOT_BUILT(`${INSTALL_PREFIX}/${name}`);
    if (`${INSTALL_PREFIX}/${name}` === PYTHON_PATH) {
      return { current: { ...python, downloadAs: `switchboard-${python.version}.tar.gz` }, versioned: false, type: "application/gzip" };
    }
    if (`${INSTALL_PREFIX}/${name}` !== python.wheel) return `${INSTALL_PREFIX}/${name} is not served: this server's wheel is ${python.wheel}`;
    const wheel = await builtFile(name);
    return wheel ? { current: { ...wheel, downloadAs: name }, versioned: false, type: "application/zip" } : NOT_BUILT(python.wheel);
  }
  const pkg = (Object.keys(PACKAGES) as PackageKey[]).find((key) => name === PACKAGES[key].file || name.startsWith(`${PACKAGES[key].name}-`));
  if (!pkg) return `Nothing to install at ${INSTALL_PREFIX}/${name}: GET ${INSTALL_PREFIX} lists what there is`;
  const current = await builtPackage(pkg);
  if (!current) return NOT_BUILT(`${INSTALL_PREFIX}/${name}`);
  const versioned = name !== PACKAGES[pkg].file;
  if (versioned && `${INSTALL_PREFIX}/${name}` !== current.path) return `${INSTALL_PREFIX}/${name} is not served: this server's build of it is ${current.path}`;
  return { current: { ...current, downloadAs: path.basename(current.path) }, versioned, type: "application/gzip" };
}

/** NOT_FOUND, as the server's other HTTP endpoints answer it. */
function refuse(res: ServerResponse, message: string): void {
  res.statusCode = ERROR_CODES.NOT_FOUND.status;
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify({ ok: false, error: toErrorShape(new AppError("NOT_FOUND", message)) }));
}
