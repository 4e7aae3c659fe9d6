// Boots the real server as a child process on a free port, on a fresh SQLite file or a fresh
// PostgreSQL schema, and hands out real clients (tRPC over HTTP, socket.io-client) signed in as people.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { encode } from "next-auth/jwt";
import pg from "pg";
import { io as connect, type Socket } from "socket.io-client";
import superjson from "superjson";
import type { AppRouter } from "../../server/trpc/router";
import type { Ack, ClientToServerEvents, ErrorShape, MessageView, ServerToClientEvents } from "@switchboard/sdk/contract";
import { CUT_OFF_REFUSALS, OPENING_IN_FLIGHT } from "../../server/services/governance/request-limits";
import type { QueryCount } from "./fixtures/query-counter";
import { SwitchboardClient, SwitchboardError } from "@switchboard/sdk";
import { sqliteDateTime } from "../../server/sqlite-time";
import { dropSchemaOf } from "./pg-schema";
import { recordServerCpu } from "./server-cpu";

export type Dialect = "sqlite" | "postgresql";
export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const ROOT = path.resolve(import.meta.dirname, "../..");
const SECRET = "integration-test-secret-0123456789";
export const PG_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/**
 * What `node` runs for the `switchboard` command and for `npm run audit:verify`: this run's bundles
 * (global-setup.ts; the CLI's is built as its package's, packages/cli/build.mjs), else, for the audit
 * check, the sources through tsx. `BIN` is the CLI's file, which it writes into clients' configs.
 */
export const BIN = process.env.SWITCHBOARD_TEST_CLI ?? path.join(ROOT, ".test-server", "cli", "main.mjs");
export const CLI: string[] = [BIN];
export const AUDIT_VERIFY: string[] = process.env.SWITCHBOARD_TEST_AUDIT_VERIFY
  ? [process.env.SWITCHBOARD_TEST_AUDIT_VERIFY]
  : ["--import", "tsx", path.join(ROOT, "scripts/audit-verify.ts")];

/** Whether PostgreSQL can be used. Under CI an unreachable PostgreSQL fails the run instead. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    if (process.env.CI === "true") throw new Error(`PostgreSQL at ${PG_URL} is unreachable under CI: ${String(error)}`);
    console.warn(`\n!!! PostgreSQL at ${PG_URL} is unreachable: SKIPPING the PostgreSQL integration suite !!!\n`);
    return false;
  }
}

export const dialects: Dialect[] = ["sqlite", ...((await postgresAvailable()) ? (["postgresql"] as const) : [])];

export interface TestServer {
  url: string;
  dialect: Dialect;
  databaseUrl: string;
  dataDir: string;
  /** The checkout the server runs from (this one, or `root`'s). */
  root: string;
  /** Stops the process (SIGTERM, or SIGKILL with `hard`) without dropping the database. */
  stop(hard?: boolean): Promise<void>;
  /** Starts a process again on the same database. */
  restart(): Promise<void>;
  /** Stops the process and drops its database. */
  dispose(): Promise<void>;
  output(): string;
  /** The running process's pid, if one is running. */
  pid(): number | null;
  /** With `countQueries`: the database statements the process ran, and the rows they returned. */
  queries: QueryCounter;
}

export interface QueryCounter {
  /** Forgets what was counted so far. */
  reset(): Promise<void>;
  /** What was counted since the last reset. */
  read(): Promise<QueryCount>;
}

/**
 * Starts a server process. With `peerOf`, a second process on the same database (for several-process
 * tests); disposing a peer leaves the database to its owner. With `root`, the server of another
 * checkout of the project (the benchmark's baseline).
 */
export async function startTestServer(
  dialect: Dialect,
  env: Record<string, string> = {},
  opts: { peerOf?: TestServer; root?: string; countQueries?: boolean } = {},
): Promise<TestServer> {
  const owner = !opts.peerOf;
  const dir = opts.peerOf?.dataDir ?? mkdtempSync(path.join(tmpdir(), "switchboard-it-"));
  const schema = `it_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const databaseUrl = opts.peerOf?.databaseUrl ?? (dialect === "sqlite" ? `file:${path.join(dir, "db.sqlite")}` : withSchema(PG_URL, schema));
  let child: ChildProcess | null = null;
  let log = "";
  let url = "";

  async function launch(port = 0): Promise<void> {
    // SWITCHBOARD_SERVER_CPU_PROF=<dir>: keep each server process's V8 CPU profile there (bench analysis).
    const prof = process.env.SWITCHBOARD_SERVER_CPU_PROF;
    const profile = prof ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(prof)}`] : [];
    const counter = opts.countQueries ? ["--import", "./tests/integration/fixtures/query-counter.ts"] : [];
    // The integration run's bundle of this checkout's server (global-setup.ts), else its source.
    const bundle = opts.root ? undefined : process.env.SWITCHBOARD_TEST_SERVER;
    const tsx = !bundle || opts.countQueries ? ["--import", "tsx"] : [];
    child = spawn(process.execPath, [...profile, ...tsx, ...counter, bundle ?? "server/index.ts"], {
      cwd: opts.root ?? ROOT,
      env: {
        ...process.env,
        NODE_ENV: "test",
        SWITCHBOARD_API_ONLY: "1",
        DATABASE_URL: databaseUrl,
        DATA_DIR: dir,
        AUTH_SECRET: SECRET,
        SEED_DEMO: "false",
        PORT: String(port),
        HOST: "127.0.0.1",
        ...env,
      },
      stdio: opts.countQueries ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
    });
    // This launch's own output says when it is up (after a restart the log holds the last one's too),
    // once: the log keeps growing after that line.
    const from = log.length;
    let ready = false;
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 60_000);
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        const match = /running at (http:\/\/[^\s]+)/.exec(log.slice(from));
        if (match && !ready) {
          ready = true;
          clearTimeout(timer);
          recordServerCpu(child!.pid, "ready");
          resolve(match[1]);
        }
      };
      child!.stdout!.on("data", onData);
      child!.stderr!.on("data", (c: Buffer) => (log += c.toString()));
      const launched = child!;
      launched.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}:\n${log}`));
        if (child === launched) child = null; // it ended by itself: nothing is running
      });
    });
  }

  async function stop(hard = false): Promise<void> {
    const proc = child;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    recordServerCpu(proc.pid, "stopping");
    proc.kill(hard ? "SIGKILL" : "SIGTERM");
    await exited;
    child = null;
  }

  await launch();
  const server: TestServer = {
    dialect,
    databaseUrl,
    dataDir: dir,
    root: opts.root ?? ROOT,
    get url() {
      return url;
    },
    stop,
    async restart() {
      await stop();
      await launch(Number(new URL(url).port));
    },
    async dispose() {
      await stop();
      if (!owner) return;
      if (dialect === "postgresql") await dropPgSchema(schema);
      rmSync(dir, { recursive: true, force: true });
    },
    output: () => log,
    pid: () => (child as ChildProcess | null)?.pid ?? null,
    queries: {
      reset: async () => void (await askCounter(child, "queries:reset")),
      read: () => askCounter(child, "queries:read"),
    },
  };
  return server;
}

/**
 * The periodic passes a test of them waits for (a remote A2A agent's bridge started or stopped, an
 * expired status cleared) every 100 ms instead of the server's 2 s. Only for such tests: each pass costs
 * an idle server about 2 ms of CPU, and the suite's servers idle most of their lives.
 */
export const FAST_PASSES = { STATUS_SWEEP_MS: "100", A2A_HOST_PASS_MS: "100" };

/** Two server processes on one PostgreSQL database, sharing fan-out through Redis under a key prefix of their own. */
export async function startTwoProcesses(env: Record<string, string> = {}): Promise<[TestServer, TestServer]> {
  const shared = {
    REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    REDIS_KEY_PREFIX: `sb-test-${Math.random().toString(36).slice(2)}`,
    ...env,
  };
  const a = await startTestServer("postgresql", shared);
  return [a, await startTestServer("postgresql", shared, { peerOf: a })];
}

let counterRequests = 0;

/** Asks a server started with `countQueries` for its counts (and, on reset, to start again). */
function askCounter(child: ChildProcess | null, type: "queries:reset" | "queries:read"): Promise<QueryCount> {
  if (!child?.send) return Promise.reject(new Error("this server was not started with countQueries"));
  const id = ++counterRequests;
  return new Promise((resolve) => {
    const onMessage = (message: { type?: string; id?: number; count?: QueryCount }) => {
      if (message?.type !== "queries" || message.id !== id) return;
      child.off("message", onMessage);
      resolve(message.count!);
    };
    child.on("message", onMessage);
    child.send!({ type, id });
  });
}

/** Drops a test's PostgreSQL schema and everything in it. */
export const dropPgSchema = (schema: string): Promise<void> => dropSchemaOf(withSchema(PG_URL, schema));

export function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set("schema", schema);
  return u.toString();
}

export type Api = ReturnType<typeof apiClient>;

export function apiClient(baseUrl: string, cookie?: string, headers: Record<string, string> = {}) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/api/trpc`, transformer: superjson, headers: () => ({ ...headers, ...(cookie ? { cookie } : {}) }) })],
  });
}

/** A session cookie exactly as Auth.js issues it at sign-in. */
export async function sessionCookie(accountId: string): Promise<string> {
  const name = "authjs.session-token";
  const token = await encode({ token: { sub: accountId }, secret: SECRET, salt: name });
  return `${name}=${token}`;
}

export interface Person {
  api: Api;
  cookie: string;
  participantId: string;
  handle: string;
  /** What they sign in with (password: "correct horse battery"). */
  email: string;
  /** A browser-like socket; `features`: what it asks for in the handshake (the browser asks for `message:batch`). */
  socket(opts?: { features?: string[] }): Promise<ClientSocket>;
}

let counter = 0;

/**
 * Signs a person up (first one creates the workspace) and signs them in. `address`: the client address
 * the sign-up comes from, for a server started with TRUST_PROXY=1 (many people, each from their own
 * machine, as the benchmark's crowds are; per-address limits would otherwise stop them).
 */
export async function signUpPerson(
  server: TestServer,
  opts: { handle?: string; email?: string; inviteToken?: string; address?: string } = {},
): Promise<Person> {
  const handle = opts.handle ?? `person${++counter}`;
  // An email is one account in the whole deployment, and a shared server holds many workspaces (handles are per workspace).
  const email = opts.email ?? `${handle}.${randomUUID().slice(0, 8)}@example.test`;
  const anonymous = apiClient(server.url, undefined, opts.address ? { "x-forwarded-for": opts.address } : {});
  await anonymous.workspace.signUp.mutate({
    email,
    password: "correct horse battery",
    displayName: handle[0].toUpperCase() + handle.slice(1),
    handle,
    inviteToken: opts.inviteToken,
    workspaceName: "Integration",
  });
  const accountId = await accountIdFor(server, email);
  const cookie = await sessionCookie(accountId);
  const api = apiClient(server.url, cookie);
  const me = await api.workspace.me.query();
  if (!me) throw new Error("signed-up person has no session");
  return { api, cookie, participantId: me.me.id, handle, email, socket: (o) => openSocket(server.url, cookie, o) };
}

/** The account id for an email, read from the server's own database (tests only). */
async function accountIdFor(server: TestServer, email: string): Promise<string> {
  const rows = await queryDb<{ id: string }>(server, `SELECT id FROM "Account" WHERE email = $1`, [email]);
  return rows[0].id;
}

/** Reads (or, to simulate time passing or tampering, writes) the server's database directly. `$1`-style parameters. */
export async function queryDb<T>(server: TestServer, sql: string, params: unknown[] = []): Promise<T[]> {
  if (server.dialect === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const writes = !/^\s*select/i.test(sql);
    const db = new Database(server.databaseUrl.slice("file:".length), { readonly: !writes });
    try {
      const statement = db.prepare(sql.replace(/\$\d+/g, "?"));
      if (writes) {
        statement.run(...params);
        return [];
      }
      return statement.all(...params) as T[];
    } finally {
      db.close();
    }
  }
  const client = await pgClient(server);
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A connection to the server's PostgreSQL schema; the caller ends it. */
export async function pgClient(server: TestServer): Promise<pg.Client> {
  const u = new URL(server.databaseUrl);
  const schema = u.searchParams.get("schema")!;
  u.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: u.toString(), options: `-c search_path="${schema}"` });
  await client.connect();
  return client;
}

/**
 * Inserts rows straight into a table of the server's database, 500 per statement, in one transaction:
 * bulk fixtures (a room of thousands of members) that the API would take minutes to build. Every row
 * has the same columns; Dates are stored as each database stores a Prisma DateTime.
 */
export async function insertRows(server: TestServer, table: string, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  const value = (v: unknown) => (v instanceof Date ? sqlDate(server.dialect, v) : v);
  const chunks: unknown[][][] = [];
  for (let i = 0; i < rows.length; i += 500) chunks.push(rows.slice(i, i + 500).map((r) => columns.map((c) => value(r[c]))));
  const statement = (n: number, numbered: boolean) => {
    let k = 0;
    const tuple = () => `(${columns.map(() => (numbered ? `$${++k}` : "?")).join(",")})`;
    return `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(",")}) VALUES ${Array.from({ length: n }, tuple).join(",")}`;
  };
  if (server.dialect === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(server.databaseUrl.slice("file:".length), { timeout: 10_000 });
    try {
      db.transaction(() => {
        for (const chunk of chunks) db.prepare(statement(chunk.length, false)).run(...chunk.flat());
      })();
    } finally {
      db.close();
    }
    return;
  }
  const client = await pgClient(server);
  try {
    await client.query("BEGIN");
    for (const chunk of chunks) await client.query(statement(chunk.length, true), chunk.flat());
    await client.query("COMMIT");
  } finally {
    await client.end();
  }
}

const openSockets = new Set<ClientSocket>();

export async function openSocket(baseUrl: string, cookie?: string, opts: { features?: string[] } = {}): Promise<ClientSocket> {
  const socket: ClientSocket = connect(baseUrl, {
    path: "/socket.io",
    transports: ["websocket"],
    extraHeaders: cookie ? { cookie } : {},
    reconnection: false,
    ...(opts.features ? { auth: { features: opts.features } } : {}),
  });
  openSockets.add(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("session:ready", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

export function closeSockets(): void {
  for (const s of openSockets) s.disconnect();
  openSockets.clear();
}

/** An ack's data; an error ack throws, with its code on the error. */
export const unwrap = <T>(reply: Ack<T>): T => {
  if (!reply.ok) throw Object.assign(new Error(`${reply.error.code}: ${reply.error.message}`), { code: reply.error.code });
  return reply.data;
};

/** Emits an acked event and resolves with the ack. */
export function emitAck<T>(socket: ClientSocket, event: string, payload: unknown, timeoutMs = 15_000): Promise<T> {
  return (socket.timeout(timeoutMs).emitWithAck as (e: string, p: unknown) => Promise<T>)(event, payload);
}

/** Collects every event of one name, for later assertions. */
export function collect<E extends keyof ServerToClientEvents>(socket: ClientSocket, event: E) {
  const seen: Parameters<ServerToClientEvents[E]>[0][] = [];
  (socket.on as (e: string, fn: (p: never) => void) => void)(event, (p: never) => seen.push(p));
  return seen;
}

/**
 * Every new message a socket receives (or an SDK client's socket: what the server pushed, before the
 * SDK's queues), as `message:new` or within a `message:batch`, in arrival order; `batches` keeps each
 * batch event as it came.
 */
export function collectMessages(source: ClientSocket | SwitchboardClient) {
  const seen: { roomId: string; seq: number; message: MessageView }[] = [];
  const batches: { roomId: string; seq: number; messages: MessageView[] }[] = [];
  const on = source.on.bind(source) as <E extends "message:new" | "message:batch">(event: E, fn: ServerToClientEvents[E]) => void;
  on("message:new", (p) => seen.push(p));
  on("message:batch", (p) => {
    batches.push(p);
    for (const message of p.messages) seen.push({ roomId: p.roomId, seq: message.seq, message });
  });
  return { seen, batches };
}

/**
 * For asserting that something did NOT happen, without a fixed sleep: `who` sends a marker message to
 * `roomId` after whatever must not come, and this waits until `arrived(marker)` holds. A server process
 * fans a message out before it answers the send, and a socket receives what is emitted to it in order,
 * so a socket that has the marker has everything the process emitted to it before the marker was sent,
 * from any room. An SDK handler (or an agent's log) gets a room's messages in seq order, so there the
 * marker vouches for its own room only.
 */
export async function sentinel(who: Person, roomId: string, arrived: (marker: MessageView) => boolean, body = "sentinel"): Promise<MessageView> {
  const marker = await who.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID() });
  await waitFor(() => arrived(marker), 10_000, `the sentinel "${body}"`);
  return marker;
}

export interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end with `stdin` (none: closed at once), collecting what it printed. */
export function runProcess(command: string, args: string[], opts: { cwd: string; env: Record<string, string>; stdin?: string }): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
    // A command that exits without reading its input closes the pipe first (EPIPE): its output and exit
    // code are what the caller asserts, so that is no error of the run.
    child.stdin!.on("error", () => {});
    child.stdin!.end(opts.stdin ?? "");
  });
}

/** Polls `check` (after `refresh`, when given) until it holds. */
export async function waitFor(check: () => boolean, ms = 10_000, what = "condition", refresh?: () => Promise<void>): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    await refresh?.();
    if (check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, refresh ? 100 : 20));
  }
}

/** The app error code of a failed tRPC call. */
export async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCClientError) return (error.data as { app?: { code: string } })?.app?.code ?? "NO_CODE";
    if (error instanceof SwitchboardError) return error.code;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** mulberry32: a seeded generator with a 2^32 period (an LCG in doubles repeats after ~10,000 draws). */
export function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A time as Prisma stores a DateTime on each database (SQLite: ISO text), for raw SQL to compare. */
export function sqlDate(dialect: Dialect, at: Date): Date | string {
  return dialect === "sqlite" ? sqliteDateTime(at) : at;
}

/**
 * Lifts the workspace's message rates (people's and agents') out of a test's way, for tests that send
 * loads on purpose; the tests of the rates themselves set their own.
 */
export async function liftMessageRates(owner: Person): Promise<void> {
  await owner.api.workspace.setLimits.mutate({ peopleMessagesPerMinute: 10_000, peopleBurst: 10_000, agentMessagesPerMinute: 10_000, agentBurst: 10_000 });
}

/** A person creates an agent they own; returns its id and API key. */
export async function createAgent(owner: Person, handle: string, extra: { framework?: string; capabilities?: string[] } = {}) {
  const { agent, apiKey } = await owner.api.agents.create.mutate({
    handle,
    displayName: handle[0].toUpperCase() + handle.slice(1),
    description: `${handle} for tests`,
    framework: extra.framework ?? "script",
    capabilities: extra.capabilities ?? [],
  });
  return { id: agent.id, apiKey, agent };
}

const openClients = new Set<SwitchboardClient>();

/** A person creates an agent and connects it with the SDK; `closeAgentClients` closes them all. */
export async function connectedAgent(server: TestServer, owner: Person, handle: string, extra: { framework?: string; capabilities?: string[] } = {}) {
  const made = await createAgent(owner, handle, extra);
  const client = new SwitchboardClient({ url: server.url, apiKey: made.apiKey, reconnectDelayMs: { min: 50, max: 500 } });
  openClients.add(client);
  await client.connect();
  return { ...made, client };
}

export async function closeAgentClients(): Promise<void> {
  const closing = [...openClients];
  openClients.clear();
  await Promise.all(closing.map((c) => c.close()));
}

/**
 * Connects a raw socket with an API key (no SDK), for protocol-level tests. `listen` attaches listeners
 * before the connection opens, for what arrives right after `session:ready` (replay pages).
 */
export async function openAgentSocket(
  baseUrl: string,
  apiKey: string,
  auth: Record<string, unknown> = {},
  listen?: (socket: ClientSocket) => void,
): Promise<ClientSocket> {
  const socket: ClientSocket = connect(baseUrl, {
    path: "/socket.io",
    transports: ["websocket"],
    reconnection: false,
    auth: { apiKey, protocol: 1, ...auth },
  });
  listen?.(socket);
  openSockets.add(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("session:ready", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

/** SOCKET_BUFFER_REQUESTS's default: how many requests wait in a connection's buffer. */
export const SOCKET_BUFFER = 1000;

/**
 * Has the server cut off an agent's `socket` for sending into its full buffer, as a flooding client
 * would, without racing the server: OPENING_IN_FLIGHT tool calls that wait fill its in-flight window,
 * `admit(i)` makes the SOCKET_BUFFER requests that then fill its buffer, and CUT_OFF_REFUSALS + 1
 * `room:list` requests are refused into the full buffer, the last of them tipping it over. Resolves
 * once the server has said so (`error` event `flood`), with the answers still to come: the waits', and
 * `buffered`, each buffered request's answer, or the client's error when the connection closed before
 * one came (the server drops them, neither run nor answered).
 */
export async function cutOff(socket: ClientSocket, admit: (i: number) => [event: string, payload: unknown]) {
  const told = new Promise<ErrorShape & { event: string }>((resolve) => (socket.once as (e: string, fn: (p: never) => void) => void)("error", resolve));
  const closed = new Promise<string>((resolve) => socket.once("disconnect", resolve));
  const waits = Array.from({ length: OPENING_IN_FLIGHT }, () =>
    emitAck<Ack<unknown>>(socket, "tool:call", { name: "wait_for_messages", args: { timeout_seconds: 50 } }),
  );
  const buffered = Array.from({ length: SOCKET_BUFFER }, (_, i) => emitAck<Ack<unknown>>(socket, ...admit(i)).catch((error: Error) => error));
  const refused = await Promise.all(Array.from({ length: CUT_OFF_REFUSALS + 1 }, () => emitAck<Ack<unknown>>(socket, "room:list", {})));
  return { told: await told, waits, buffered, refused, closed };
}

/**
 * Starts an agent process from `tests/integration/fixtures/<fixture>.ts` (or, for a name ending in
 * ".ts", that script of the checkout, e.g. "examples/claude-agent.ts") with `env` added; resolves once
 * its stdout shows `ready` (default "agent ready"). The child is added to `children` (the caller kills
 * what is left).
 */
export function startAgentProcess(
  fixture: string,
  env: Record<string, string>,
  children: Set<ChildProcess>,
  opts: { ready?: string } = {},
): Promise<ChildProcess> {
  const script = fixture.endsWith(".ts") ? fixture : `tests/integration/fixtures/${fixture}.ts`;
  const ready = opts.ready ?? "agent ready";
  // This run's bundle of it (global-setup.ts), else its source through tsx.
  const bundle = process.env.SWITCHBOARD_TEST_AGENTS ? path.join(process.env.SWITCHBOARD_TEST_AGENTS, script.replace(/\.ts$/, ".mjs")) : null;
  const child = spawn(process.execPath, bundle && existsSync(bundle) ? [bundle] : ["--import", "tsx", script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes(ready)) resolve(child);
    });
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    child.once("exit", (code) => reject(new Error(`agent exited (${code}): ${out}`)));
  });
}
