// `npm run build:packages`, the first step of `npm run build`: the packages people install into their
// own projects, built from packages/ into dist/install/, where the server hands them out
// (server/http/install.ts): the SDK (ESM with type declarations, by tsc) as sdk.tgz, and the CLI (one
// bundled file with the SDK inside, by esbuild) as cli.tgz, npm tarballs of the server's version, each
// staged as it will be installed in dist/packages/<name>/ first; and the Python package, a wheel and a
// source distribution that builds it (python.tar.gz), by packages/python/build_wheel.py with Python's
// standard library alone.
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
  await buildPython(install);
  return install;
}

/** The Python package into `install`: its wheel under its own file name (pip needs it), its sdist as python.tar.gz. */
async function buildPython(install) {
  const python = process.env.PYTHON ?? "python3";
  const script = path.join(ROOT, "packages/python/build_wheel.py");
  try {
    await run(python, [script, install]);
    const { stdout } = await run(python, [script, "--sdist", install]);
    renameSync(stdout.trim(), path.join(install, "python.tar.gz"));
  } catch (error) {
    // The server then answers /install/python with 404, saying why; the rest is served as usual.
    console.warn(`warning: the Python package was not built (${python} 3.9 or later is needed): ${error.message}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const install = await buildPackages();
  console.log(`packages built: ${path.relative(ROOT, install)}/ sdk.tgz, cli.tgz, python.tar.gz and the wheel (${Math.round(performance.now() - started)} ms)`);
}
