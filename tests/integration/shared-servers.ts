// One server per dialect per test worker, shared by the files that need nothing of a server but a
// workspace of their own (factories.ts): a deployment holds many workspaces (WORKSPACE_SIGNUP=open), so
// each file signs its owner up into a new one, and its people, agents and rooms are its own. A file
// that restarts or stops its server, reads its output, or gives it an environment of its own starts its
// own server instead. Files in a worker run one after another, so a shared server serves one file at a
// time; both workers' servers run side by side.
//
// Booting a server costs more CPU than most files' tests do (the bundle's load, Prisma's query compiler
// warming up, PostgreSQL's migrations): the suite started 87 for 41 files. The servers outlive the files
// that use them, so each is written down when it starts and stopped at the end of the run (stopShared).
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { Dialect, TestServer } from "./harness";
import { dropSchemaOf } from "./pg-schema";
import { recordServerCpu } from "./server-cpu";
import { runFile } from "./test-run";

/** Where the run writes down its shared servers: one JSON record a line. */
function recordFile(): string {
  const file = runFile("shared-servers");
  if (!file) throw new Error("shared servers are for integration runs (tests/integration/global-setup.ts)");
  return file;
}

/**
 * What a shared server runs with. Its workspaces' people connect from one address (the loopback), so the
 * limits per client address, which are tested on servers of their own, would add up over every file the
 * server serves: lifted here.
 */
const SHARED_ENV = {
  WORKSPACE_SIGNUP: "open",
  SIGNUPS_PER_ADDRESS_PER_HOUR: "100000",
  SIGNINS_PER_ADDRESS_PER_10_MINUTES: "100000",
  REGISTRATIONS_PER_ADDRESS_PER_HOUR: "100000",
  FAILED_HANDSHAKES_PER_ADDRESS_PER_10_MINUTES: "100000",
};

interface SharedServerRecord {
  pid: number;
  dialect: Dialect;
  databaseUrl: string;
  dataDir: string;
}

const servers = new Map<Dialect, Promise<TestServer>>();

/** This worker's shared server of `dialect`, started on first use (again if it died). */
export async function sharedServer(dialect: Dialect): Promise<TestServer> {
  // Written down before anything is awaited: two calls at once (a file's two workspaces started
  // together) share the one server that starts.
  let entry = servers.get(dialect);
  if (!entry) servers.set(dialect, (entry = startShared(dialect)));
  const running = await entry.catch(() => null);
  if (running?.pid()) return shareable(running);
  if (servers.get(dialect) === entry) {
    if (running) console.error(`The shared ${dialect} server stopped; starting another. Its output:\n${running.output().slice(-4000)}`);
    servers.set(dialect, startShared(dialect));
  }
  return shareable(await servers.get(dialect)!);
}

async function startShared(dialect: Dialect): Promise<TestServer> {
  // Imported here: the run's global setup and teardown use this module without the harness (which connects to PostgreSQL as it loads).
  const { startTestServer } = await import("./harness");
  const server = await startTestServer(dialect, SHARED_ENV);
  const pid = server.pid()!;
  const record: SharedServerRecord = { pid, dialect, databaseUrl: server.databaseUrl, dataDir: server.dataDir };
  const file = recordFile();
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(record)}\n`);
  // Should the run end without the teardown (a worker killed), the server goes with its worker.
  process.once("exit", () => {
    try {
      process.kill(pid);
    } catch {
      // already gone
    }
  });
  return server;
}

/** The server as a file sees it: disposing of it leaves it running for the next file; it cannot be stopped or restarted. */
function shareable(server: TestServer): TestServer {
  const refuse = () => Promise.reject(new Error("a shared server is not stopped or restarted: start the file's own (startWorkspace's ownServer)"));
  return {
    dialect: server.dialect,
    databaseUrl: server.databaseUrl,
    dataDir: server.dataDir,
    root: server.root,
    url: server.url,
    queries: server.queries,
    output: server.output,
    pid: server.pid,
    stop: refuse,
    restart: refuse,
    dispose: async () => {},
  };
}

/** Stops every shared server this integration run started and drops their databases (its teardown; none outside a run). */
export async function stopShared(): Promise<void> {
  const file = runFile("shared-servers");
  if (!file || !existsSync(file)) return;
  const records = readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SharedServerRecord);
  rmSync(file, { force: true });
  await Promise.all(records.map(stopOne));
}

async function stopOne({ pid, dialect, databaseUrl, dataDir }: SharedServerRecord): Promise<void> {
  recordServerCpu(pid, "stopping");
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // already gone
  }
  for (let waited = 0; existsSync(`/proc/${pid}`) && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  if (existsSync(`/proc/${pid}`)) process.kill(pid, "SIGKILL");
  if (dialect === "postgresql") await dropSchemaOf(databaseUrl);
  rmSync(dataDir, { recursive: true, force: true });
}
