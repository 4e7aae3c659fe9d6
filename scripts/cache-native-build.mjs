// Keeps better-sqlite3's native build where its installer looks first next time. prebuild-install
// cannot download the prebuilt binary here (only the npm registry is reachable), so every `npm ci`
// compiles SQLite from source (~5 minutes on 2 cores). The binary that compile produced is packed
// into prebuild-install's own download cache (~/.npm/_prebuilds, under the name it would have
// downloaded), so the next install on this machine unpacks it in a second. A different Node ABI,
// platform or version is another name: it compiles once again. Run from the repository's root.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

const dir = path.resolve("node_modules/better-sqlite3");
const binary = path.join(dir, "build/Release/better_sqlite3.node");
if (!fs.existsSync(binary)) process.exit(0);
process.chdir(dir); // prebuild-install reads its options relative to the package
const pkg = require(path.join(dir, "package.json"));
const installer = path.dirname(require.resolve("prebuild-install/package.json", { paths: [dir] }));
const rc = require(path.join(installer, "rc"))(pkg);
const util = require(path.join(installer, "util"));
const cached = util.cachedPrebuild(util.getDownloadUrl({ ...rc, pkg }));
if (fs.existsSync(cached)) process.exit(0);
fs.mkdirSync(path.dirname(cached), { recursive: true });
const partial = `${cached}.${process.pid}.tmp`;
execFileSync("tar", ["czf", partial, "build/Release/better_sqlite3.node"]);
fs.renameSync(partial, cached);
console.log(`cached better-sqlite3's native build for the next install: ${cached}`);
