// Builds the `switchboard` command into one file, dist/switchboard.mjs, with the SDK and every package it
// uses inside: the CLI's tarball then installs with nothing to look up on a registry, and `npx` starts it
// in a moment. `buildCli` is also what the integration tests bundle the CLI with.
import { fileURLToPath } from "node:url";
import path from "node:path";
import { build } from "esbuild";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** esbuild's options for the CLI bundle: `outfile` where it goes. */
export function cliBuildOptions(outfile) {
  return {
    entryPoints: [path.join(HERE, "src/bin.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // The repository's tsconfig maps @switchboard/sdk to the SDK's sources.
    tsconfig: path.join(HERE, "../../tsconfig.json"),
    // Optional native speed-ups of ws, absent unless installed.
    external: ["bufferutil", "utf-8-validate"],
    // Bundled CommonJS packages require Node's modules.
    banner: {
      js: `#!/usr/bin/env node\nimport { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);`,
    },
    legalComments: "linked",
    logLevel: "warning",
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build(cliBuildOptions(path.join(HERE, "dist/switchboard.mjs")));
}
