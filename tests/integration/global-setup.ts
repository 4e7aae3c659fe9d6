// Once per integration run: the server, the CLI, the audit check and the agent processes bundled
// into one file each (esbuild), which tests start with plain `node` instead of through tsx. A process
// then loads one module instead of hundreds through tsx's loader and Node's package resolution: a
// server boots in a third of tsx's time (the suite boots over a hundred), a CLI run or an agent start
// in a fraction. The bundles are the same source; tests that start another checkout's server (the
// benchmark's baseline) or count queries still go through tsx, and so do the commands the CLI writes
// into clients' configs.
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { build, type BuildOptions } from "esbuild";
import { cliBuildOptions } from "../../packages/cli/build.mjs";
import { buildPackages } from "../../scripts/build-packages.mjs";
import { stopShared } from "./shared-servers";
import { beginRun, runFile } from "./test-run";

const ROOT = path.resolve(import.meta.dirname, "../..");
// In a folder of the checkout, at the depth of the sources: server/migrate.ts finds prisma/migrations
// one level up from itself.
const OUT = path.join(ROOT, ".test-server");

const common: BuildOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Packages are bundled too, but those that load files of their own at run time (a native addon,
  // Prisma's engine, Next.js's compiler) or are optional and absent.
  external: ["better-sqlite3", "@prisma/*", "next", "next/*", "@next/env", "pg-native", "bufferutil", "utf-8-validate"],
  // Bundled CommonJS packages require Node's modules.
  banner: { js: `import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);` },
  tsconfig: path.join(ROOT, "tsconfig.json"),
  logLevel: "warning",
};

/** The agent processes tests start (harness.ts's startAgentProcess): fixtures' and examples' `*-agent.ts`. */
const agentScripts = ["tests/integration/fixtures", "examples"].flatMap((dir) =>
  readdirSync(path.join(ROOT, dir))
    .filter((name) => name.endsWith("-agent.ts"))
    .map((name) => path.join(ROOT, dir, name)),
);

export default async function setup(): Promise<() => Promise<void>> {
  beginRun();
  const server = path.join(OUT, "index.mjs");
  const cli = path.join(OUT, "cli", "main.mjs");
  const auditVerify = path.join(OUT, "audit-verify.mjs");
  const agents = path.join(OUT, "agents");
  await Promise.all([
    build({ ...common, entryPoints: [path.join(ROOT, "server/index.ts")], outfile: server }),
    build(cliBuildOptions(cli)),
    // The packages the server hands out at /install/, packed as `npm run build` packs them.
    buildPackages(OUT),
    build({ ...common, entryPoints: [path.join(ROOT, "scripts/audit-verify.ts")], outfile: auditVerify }),
    // Their packages stay in node_modules: the runtimes' SDKs find their CLIs beside themselves.
    build({ ...common, external: undefined, packages: "external", entryPoints: agentScripts, outbase: ROOT, outdir: agents, outExtension: { ".js": ".mjs" } }),
  ]);
  process.env.SWITCHBOARD_TEST_SERVER = server;
  process.env.SWITCHBOARD_TEST_CLI = cli;
  process.env.INSTALL_DIR = path.join(OUT, "install");
  process.env.SWITCHBOARD_TEST_AUDIT_VERIFY = auditVerify;
  process.env.SWITCHBOARD_TEST_AGENTS = agents;
  return async () => {
    await stopShared();
    rmSync(path.dirname(runFile("shared-servers")!), { recursive: true, force: true });
  };
}
