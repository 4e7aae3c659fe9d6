// Once per integration run: the server bundled into one file (esbuild, packages left to node_modules),
// which the harness starts instead of server/index.ts through tsx. A server process then loads one
// module instead of hundreds through tsx's loader: boots take half the time, and the suite boots
// about a hundred servers. The bundle is the same source; tests that start another checkout's server
// (the benchmark's baseline) or count queries still go through tsx.
import path from "node:path";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "../..");

export default async function setup(): Promise<void> {
  // In a folder of the checkout: server/migrate.ts finds prisma/migrations one level up from itself.
  const outfile = path.join(ROOT, ".test-server", "index.mjs");
  await build({
    entryPoints: [path.join(ROOT, "server/index.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    logLevel: "warning",
  });
  process.env.SWITCHBOARD_TEST_SERVER = outfile;
}
