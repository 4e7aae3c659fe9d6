// `npm run build:packages`, the first step of `npm run build`: the packages people install into their
// own projects, built from packages/ and packed as npm tarballs into dist/install/, where the server
// hands them out (server/http/install.ts): the SDK (ESM with type declarations, by tsc) as sdk.tgz, and
// the CLI (one bundled file with the SDK inside, by esbuild) as cli.tgz. Each package is staged, as it
// will be installed, in dist/packages/<name>/ first. Both carry the server's version.
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { cliBuildOptions } from "../packages/cli/build.mjs";

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What a package's tarball holds besides its build. */
const SHIPPED = ["package.json", "README.md"];

/**
 * Builds and packs both packages under `out` (default dist/): staged in out/packages/{sdk,cli}, packed
 * into out/install/{sdk,cli}.tgz. Nothing is written anywhere else, so two builds into two folders can
 * run side by side (the integration tests build their own while `npm test` builds the app's).
 */
export async function buildPackages(out = path.join(ROOT, "dist")) {
  const stage = (name) => path.join(out, "packages", name);
  const install = path.join(out, "install");
  for (const dir of [stage("sdk"), stage("cli"), install]) rmSync(dir, { recursive: true, force: true });
  await Promise.all([
    run(
      process.execPath,
      [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "packages/sdk/tsconfig.build.json", "--outDir", path.join(stage("sdk"), "dist")],
      {
        cwd: ROOT,
      },
    ),
    build(cliBuildOptions(path.join(stage("cli"), "dist/switchboard.mjs"))),
  ]);
  for (const name of ["sdk", "cli"]) for (const file of SHIPPED) copyFileSync(path.join(ROOT, "packages", name, file), path.join(stage(name), file));
  mkdirSync(install, { recursive: true });
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", install, stage("sdk"), stage("cli")], { cwd: out });
  for (const { name, filename } of JSON.parse(stdout)) {
    renameSync(path.join(install, filename), path.join(install, name === "@switchboard/sdk" ? "sdk.tgz" : "cli.tgz"));
  }
  return install;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const install = await buildPackages();
  console.log(`packages built: ${path.relative(ROOT, install)}/sdk.tgz and cli.tgz (${Math.round(performance.now() - started)} ms)`);
}
