// A credential of workspace A is worth nothing in workspace B (issue 31). Two workspaces on one server;
// B holds one of everything, every string of it carrying a canary. A's owner (by session, by socket),
// A's agent (by socket, MCP and A2A) replay every tRPC procedure, socket event, MCP tool, A2A method and
// HTTP route with B's ids, each enumerated from its definition (the app router, the socket handlers,
// the MCP server's tool list, the A2A SDK's JSON-RPC dispatch, the route table in server/app.ts), so a
// new one is covered without a line here. Nothing may read B (no answer holds a canary of B, nor an id
// of B the request did not name), nothing may write it (B's rows are the same after), and the server
// keeps serving.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { JsonRpcTransportHandler } from "@a2a-js/sdk/server";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Ack } from "@switchboard/sdk/contract";
import * as contract from "@switchboard/sdk/contract";
import * as bindings from "@switchboard/sdk/bindings";
import * as files from "@switchboard/sdk/files";
import * as profiles from "@switchboard/sdk/profiles";
import * as questions from "@switchboard/sdk/questions";
import * as reactions from "@switchboard/sdk/reactions";
import * as search from "@switchboard/sdk/search";
import * as turns from "@switchboard/sdk/turns";
import * as work from "@switchboard/sdk/work";
import { TOOL_SPECS } from "@switchboard/sdk/platform-tools";
import { appRouter } from "../../server/trpc/router";
import { registerHandlers } from "../../server/socket/handlers";
import type { AppSocket } from "../../server/socket/requests";
import { HOOK_EVENTS } from "../../server/bridges/claude-code/hooks";
import {
  closeSockets,
  createAgent,
  dialects,
  emitAck,
  openAgentSocket,
  pgClient,
  unwrap,
  waitFor,
  type ClientSocket,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** In every string of B: a name, handle, body, topic or file name of B in any answer to A is a leak. */
const TAG = `cnry${Math.random().toString(36).slice(2, 8)}`;
/** What A's inputs say where they need words: nothing of B. */
const WORD = "isox";

// ---- B's rows: everything reachable from B's workspace id, read straight from the database ----

type Row = Record<string, unknown>;
type Rows = Map<string, Row[]>;

/** Columns that change by themselves (a last use, a heartbeat), and the audit chain's head (a failed sign-in with B's email is audited in B). */
const VOLATILE = /^(lastUsedAt|lastSeenAt|lastActiveAt|seenAt|heartbeatAt|auditSeq|auditHead)$/;
const idColumn = (column: string) => column === "id" || /Id$/.test(column);

interface Reader {
  tables(): Promise<Map<string, string[]>>;
  select(table: string, column: string, values: string[]): Promise<Row[]>;
  close(): Promise<void>;
}

async function reader(server: TestServer): Promise<Reader> {
  if (server.dialect === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(server.databaseUrl.slice("file:".length), { readonly: true });
    return {
      async tables() {
        const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_prisma%'`).all() as {
          name: string;
        }[];
        return new Map(names.map(({ name }) => [name, (db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map((c) => c.name)]));
      },
      async select(table, column, values) {
        return db.prepare(`SELECT * FROM "${table}" WHERE "${column}" IN (${values.map(() => "?").join(",")})`).all(...values) as Row[];
      },
      async close() {
        db.close();
      },
    };
  }
  const client = await pgClient(server);
  return {
    async tables() {
      const { rows } = await client.query<{ table_name: string; column_name: string }>(
        `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name NOT LIKE '_prisma%'`,
      );
      const tables = new Map<string, string[]>();
      for (const r of rows) tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), r.column_name]);
      return tables;
    },
    async select(table, column, values) {
      return (await client.query(`SELECT * FROM "${table}" WHERE "${column}"::text = ANY($1)`, [values])).rows as Row[];
    },
    async close() {
      await client.end();
    },
  };
}

/**
 * Every row of B: starting from B's workspace id, each row that names an id already found (in any
 * column named `id` or `…Id`) is B's, and the ids it holds are followed in turn. A row of another
 * workspace (its own `workspaceId`) is not followed: that would be A's row naming B's id, a leak the
 * comparison shows anyway.
 */
async function rowsOf(server: TestServer, workspaceId: string): Promise<Rows> {
  const db = await reader(server);
  try {
    const tables = await db.tables();
    const found: Rows = new Map();
    const seenRows = new Set<string>();
    const known = new Set<string>([workspaceId]);
    let frontier = [workspaceId];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const [table, columns] of tables) {
        for (const column of columns.filter(idColumn)) {
          for (const row of await db.select(table, column, frontier)) {
            if (typeof row.workspaceId === "string" && row.workspaceId !== workspaceId) continue;
            const key = `${table}:${JSON.stringify(row)}`;
            if (seenRows.has(key)) continue;
            seenRows.add(key);
            found.set(table, [...(found.get(table) ?? []), row]);
            for (const [c, v] of Object.entries(row)) {
              // Short values are placeholders ("" in a rollup's key), not ids.
              if (idColumn(c) && typeof v === "string" && v.length >= 8 && !known.has(v)) {
                known.add(v);
                next.push(v);
              }
            }
          }
        }
      }
      frontier = next;
    }
    return found;
  } finally {
    await db.close();
  }
}

/** B's rows as comparable text, a sorted list per table, without the columns that change by themselves. */
function snapshot(rows: Rows): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [table, list] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
    out[table] = list
      .map((r) =>
        JSON.stringify(Object.fromEntries(Object.entries(r).filter(([c]) => !VOLATILE.test(c))), (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)),
      )
      .sort();
  }
  return out;
}

// ---- ids by kind: what a field of each name plausibly holds ----

/** A field's kind, from its name (camelCase or snake_case, singular or plural); null: not an id. */
function kindOf(key: string): string | null {
  const k = key.replace(/_/g, "").toLowerCase();
  if (k === "clientmsgid" || k === "reportid" || k === "clientid") return null;
  const kinds: [RegExp, string][] = [
    [/^(room|roomid|rooms|roomids)$/, "room"],
    [/^(message|messageid|messageids|threadrootid|threadid|causeid|inreplyto|rootmessageid)$/, "message"],
    [
      /^(participant|participants|participantid|participantids|memberid|memberids|members|agentid|agentids|ownerid|actorid|subjectid|waitingfor|onbehalfof|requesterid|callerid)$/,
      "participant",
    ],
    [/^(connectionid)$/, "connection"],
    [/^(questionid)$/, "question"],
    [/^(fileid|fileids)$/, "file"],
    [/^(tokenid)$/, "token"],
    [/^(keyid)$/, "apikey"],
    [/^(inviteid)$/, "invite"],
    [/^(bindingid)$/, "binding"],
    [/^(budgetid)$/, "budget"],
    [/^(turnid)$/, "turn"],
    [/^(taskid|taskids)$/, "task"],
    [/^(sessionid)$/, "session"],
    [/^(contextid)$/, "context"],
  ];
  for (const [re, kind] of kinds) if (re.test(k)) return kind;
  return /^(id|ids)$/.test(k) || /ids?$/.test(k) ? "any" : null;
}

/** Where B's ids of each kind are: [table, column]. */
const KIND_COLUMNS: Record<string, [string, string][]> = {
  room: [["Room", "id"]],
  message: [["Message", "id"]],
  participant: [["Participant", "id"]],
  connection: [["Connection", "id"]],
  question: [["Question", "id"]],
  file: [["StoredFile", "id"]],
  token: [
    ["AccessToken", "id"],
    ["OnboardingToken", "id"],
  ],
  apikey: [["ApiKey", "id"]],
  invite: [["Invite", "id"]],
  binding: [["RuntimeBinding", "id"]],
  budget: [["Budget", "id"]],
  turn: [["Turn", "id"]],
  task: [
    ["WorkTask", "id"],
    ["A2aTask", "id"],
    ["UsageRecord", "taskId"],
  ],
  session: [
    ["WorkTask", "sessionId"],
    ["RuntimeBinding", "sessionId"],
  ],
  context: [["A2aContext", "id"]],
};

// ---- inputs from a JSON Schema (zod's own, converted; MCP's tool list) ----

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  format?: string;
};

const today = new Date().toISOString().slice(0, 10);
const STRING_TRIES = [WORD, "isox1", "a-b", today, "aGVsbG8=", "generic", "2026-01-01T00:00:00.000Z", "https://example.test/isox", "isox.example.test", "x"];

/** A 1×1 PNG: an image wherever one is asked for (an avatar). */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

function stringFor(s: Schema, key: string): string {
  if (/emoji/i.test(key)) return "👍";
  if (key === "contentBase64") return PNG;
  if (s.format === "email") return `${WORD}@example.test`;
  if (s.format === "uri" || s.format === "url") return `http://127.0.0.1:9/${WORD}`;
  if (s.format === "date-time") return new Date().toISOString();
  if (/^(from|since)$/i.test(key)) return today;
  if (/^(to|until)$/i.test(key)) return today;
  const fits = (v: string) => (!s.pattern || new RegExp(s.pattern).test(v)) && v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity);
  const hit = STRING_TRIES.find(fits) ?? STRING_TRIES.map((t) => t.padEnd(s.minLength ?? 0, "x")).find(fits);
  return hit ?? WORD.padEnd(s.minLength ?? 0, "x");
}

function numberFor(s: Schema, key: string, integer: boolean): number {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 0.5) : undefined);
  // Waits as short as allowed; rates and limits as high (a low one would slow A's own later calls).
  if (/timeout|wait|seconds|ttl|lease/i.test(key)) return min ?? 0;
  if (/minute|burst|limit|max/i.test(key)) return s.maximum ?? 1000;
  return Math.min(Math.max(1, min ?? 1), s.maximum ?? Infinity);
}

interface Filler {
  /** The id for a field of this name in this variant. */
  id(key: string): string;
  /** Optional fields too (else only the required ones, and every id). */
  all: boolean;
  /** Which branch of a union. */
  branch: number;
}

/** Whether a schema holds an id-like field anywhere. */
function holdsIds(s: Schema | undefined, key = ""): boolean {
  if (!s) return false;
  if (kindOf(key) && (typeOf(s) === "string" || typeOf(s) === "array")) return true;
  return (
    Object.entries(s.properties ?? {}).some(([k, v]) => holdsIds(v, k)) ||
    holdsIds(s.items, key) ||
    [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])].some((b) => holdsIds(b, key))
  );
}

function typeOf(s: Schema): string | undefined {
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== "null") : s.type;
  return t ?? (s.properties ? "object" : undefined);
}

function valueFor(s: Schema, key: string, f: Filler): unknown {
  const branches = s.anyOf ?? s.oneOf;
  if (branches) {
    const real = branches.filter((b) => b.type !== "null");
    return valueFor(real[f.branch % real.length] ?? branches[0], key, f);
  }
  if (s.allOf) return valueFor(s.allOf[0], key, f);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.default !== undefined && s.enum.includes(s.default) ? s.default : s.enum[0];
  const kind = kindOf(key);
  switch (typeOf(s)) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        if (f.all || s.required?.includes(k) || holdsIds(v, k)) out[k] = valueFor(v, k, f);
      }
      return out;
    }
    case "array":
      // Items told apart (options' values are distinct): the words of each after the first end in its index.
      return Array.from({ length: Math.max(1, s.minItems ?? 0) }, (_, i) =>
        distinct(valueFor(s.items ?? { type: "string" }, kind ? key.replace(/s$/, "") : key, f), kind ? "" : i ? String(i) : ""),
      );
    case "string":
      return kind ? f.id(key) : stringFor(s, key);
    case "integer":
      return numberFor(s, key, true);
    case "number":
      return numberFor(s, key, false);
    case "boolean":
      return s.default ?? true;
    case "null":
      return null;
    default:
      // Anything (an answer, a date taken as text): words, or a date for a time's field.
      return kind ? f.id(key) : /^(from|to|since|until)$/i.test(key) ? new Date() : WORD;
  }
}

/** `value` with `suffix` on each of its words (not on its ids). */
function distinct(value: unknown, suffix: string, key = ""): unknown {
  if (!suffix || kindOf(key)) return value;
  if (typeof value === "string") return value.startsWith(WORD) ? `${value}${suffix}` : value;
  if (Array.isArray(value)) return value.map((v) => distinct(v, suffix, key));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, distinct(v, suffix, k)]));
  return value;
}

/** The id-like field names a schema holds. */
function idKeys(s: Schema | undefined, key = "", out = new Set<string>()): Set<string> {
  if (!s) return out;
  if (kindOf(key) && typeOf(s) !== "object") out.add(key);
  for (const [k, v] of Object.entries(s.properties ?? {})) idKeys(v, k, out);
  if (s.items) idKeys(s.items, key, out);
  for (const b of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) idKeys(b, key, out);
  return out;
}

function branchCount(s: Schema | undefined): number {
  if (!s) return 1;
  const own = (s.anyOf ?? s.oneOf ?? []).filter((b) => b.type !== "null").length;
  return Math.max(1, own, ...Object.values(s.properties ?? {}).map(branchCount));
}

const jsonSchemaOf = (schema: z.ZodType): Schema => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Schema;

// ---- what each call is checked for ----

interface Outcome {
  transport: string;
  target: string;
  input: unknown;
  /** "OK", or the error's code. */
  code: string;
  text: string;
  /** A refusal of a malformed input, on the way to one the target takes: not compared with the control. */
  shaping?: boolean;
}

/** A leak in one answer: a canary of B, or an id of B the request did not name. */
function leakIn(outcome: Outcome, bIds: Set<string>): string | null {
  const asked = JSON.stringify(outcome.input) ?? "";
  // What the request itself named (a handle in a URL) may be said back.
  let text = outcome.text;
  for (const said of asked.match(new RegExp(`[\\w.-]*${TAG}[\\w.-]*`, "g")) ?? []) text = text.split(said).join("");
  if (text.includes(TAG)) {
    const at = text.indexOf(TAG);
    return `a canary of B: …${text.slice(Math.max(0, at - 120), at + 60)}…`;
  }
  for (const id of text.match(/[A-Za-z0-9_-]{8,}/g) ?? []) {
    if (bIds.has(id) && !asked.includes(id))
      return `the id ${id} of B, not named by the request: …${text.slice(Math.max(0, text.indexOf(id) - 120), text.indexOf(id) + 60)}…`;
  }
  return null;
}

/** Runs `jobs` with at most `width` at once. */
async function pool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]();
      }
    }),
  );
  return out;
}

// ---- each transport's surface, from its definition ----

type ProcedureDef = { _def: { type: "query" | "mutation" | "subscription"; inputs: z.ZodType[] } };

/** Every tRPC procedure: the app router's flat record of them. */
function trpcProcedures(): { name: string; type: string; schema?: Schema }[] {
  const procedures = (appRouter._def as unknown as { procedures: Record<string, ProcedureDef> }).procedures;
  return Object.entries(procedures).map(([name, p]) => ({
    name,
    type: p._def.type,
    schema: p._def.inputs.length ? jsonSchemaOf(p._def.inputs.length > 1 ? p._def.inputs.reduce((a, b) => z.intersection(a, b)) : p._def.inputs[0]) : undefined,
  }));
}

/**
 * Every socket event the server answers (registered on a stand-in socket), each with its payload
 * schema: the SDK's schema that server/socket/handlers.ts names beside it.
 */
function socketEvents(): { name: string; schema?: Schema }[] {
  const names: string[] = [];
  const standIn = {
    data: {},
    on: (event: string) => void names.push(event),
    onAny: () => {},
    eventNames: () => names.filter((n) => n !== "disconnect"),
    emit: () => {},
    disconnect: () => {},
  };
  registerHandlers(standIn as unknown as AppSocket);
  const source = readFileSync(path.join(ROOT, "server/socket/handlers.ts"), "utf8");
  const schemaNames = new Map([...source.matchAll(/on\("([a-z:]+)",\s*(\w+)/g)].map((m) => [m[1], m[2]]));
  const exported: Record<string, unknown> = { ...contract, ...bindings, ...files, ...profiles, ...questions, ...reactions, ...search, ...turns, ...work };
  return names
    .filter((n) => n !== "disconnect" && n !== "tool:call") // tool:call: once per tool, below
    .map((name) => {
      const ident = schemaNames.get(name);
      if (ident === "noInput") return { name, schema: { type: "object", properties: {} } };
      const schema = ident ? exported[ident] : undefined;
      if (!(schema instanceof z.ZodType)) throw new Error(`socket event ${name}: its payload schema (${ident}) is not found among the SDK's exports`);
      return { name, schema: jsonSchemaOf(schema) };
    });
}

/** The JSON-RPC methods the A2A SDK dispatches (current and v0.3), read from its own dispatch. */
function a2aMethods(): string[] {
  const source = [JsonRpcTransportHandler.prototype.handle, LegacyJsonRpcTransportHandler.prototype.handle].map(String).join("\n");
  const names = [...source.matchAll(/(?:case|method ===) "([A-Za-z/]+)"/g)].map((m) => m[1]);
  return [...new Set(names)].filter((n) => /^[A-Z]|\//.test(n));
}

/**
 * The HTTP routes of server/app.ts's table: each `url === X` and `url.startsWith(X)`, X a literal, a
 * constant or a template starting with one (a constant's value is read where it is defined).
 */
function httpRoutes(): string[] {
  const source = readFileSync(path.join(ROOT, "server/app.ts"), "utf8");
  const table = source.slice(source.indexOf('httpServer.on("request"'), source.indexOf("const closeLimits"));
  const sources = [...readdirSync(path.join(ROOT, "server"), { recursive: true, encoding: "utf8" }).map((f) => path.join("server", f))]
    .concat(readdirSync(path.join(ROOT, "packages/sdk/src")).map((f) => path.join("packages/sdk/src", f)))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => readFileSync(path.join(ROOT, f), "utf8"))
    .join("\n");
  const constant = (name: string) => new RegExp(`const ${name} = "([^"]+)"`).exec(sources)?.[1] ?? name;
  const routes = [...table.matchAll(/url(?: ===|\.startsWith\()\s*(?:"([^"]+)"|`\$\{(\w+)\}|(\w+))/g)].map((m) => m[1] ?? constant(m[2] ?? m[3]));
  return [...new Set(routes)];
}

/** What the replay found: each a list of what went wrong, empty when nothing did. */
interface Found {
  leaks: string[];
  changes: string[];
  overheard: string[];
  oracles: string[];
  unreached: string[];
  connected: boolean;
}

// ---- the test ----

// Both dialects: the stores have SQL of their own per dialect (messages, search), where a workspace's filter could be missed.
// One database: the transports and services are the same code on both, and the policy matrix (both
// databases) covers what each dialect's own SQL reads (history, sync, search, files) for another
// workspace's actor. On a loaded machine, filling B and replaying every target takes a while.
describe.each(dialects.slice(0, 1))("workspace isolation on %s", (dialect) => {
  let server: TestServer;
  let aOwner: Person;
  let aAgentKey: string;
  let aToken: string;
  let aServedHandle: string;
  let aRoom: string;
  const b: {
    workspaceId: string;
    owner: Person;
    member: Person;
    agent: { id: string; apiKey: string; handle: string };
    agentSocket: ClientSocket;
    publicRoom: string;
  } = {} as never;
  const clients: Client[] = [];
  let found: Found;

  beforeAll(async () => {
    const a = await startWorkspace(dialect, { people: { aowner: "owner" }, liftRates: true });
    server = a.server;
    aOwner = a.people.aowner;
    const bw = await startWorkspace(dialect, {
      people: { [`own-${TAG}`]: "owner", [`mem-${TAG}`]: "member" } as Record<string, "owner" | "member">,
      liftRates: true,
    });
    b.owner = bw.people[`own-${TAG}`];
    b.member = bw.people[`mem-${TAG}`];
    b.workspaceId = (await b.owner.api.workspace.me.query())!.workspace.id;
    await fillB(server);

    const aAgent = await createAgent(aOwner, "aagent");
    aAgentKey = aAgent.apiKey;
    aServedHandle = "aagent";
    aRoom = (await aOwner.api.rooms.createChannel.mutate({ name: "a-room", visibility: "public", memberIds: [aAgent.id] })).id;
    await aOwner.api.agents.setA2aServed.mutate({ agentId: aAgent.id, served: true });
    aToken = (await aOwner.api.tokens.create.mutate({ name: "isolation", scope: "write" })).token;
    found = await replayAll();
  }, 300_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    closeSockets();
    await server?.dispose();
  });

  /** One of everything in B, every string of it with the canary. */
  async function fillB(server: TestServer) {
    const { owner, member } = b;
    await owner.api.workspace.updateSettings.mutate({ name: `Workspace ${TAG}` });
    await owner.api.profile.update.mutate({ displayName: `Owner ${TAG}` });
    const agent = await createAgent(owner, `agent-${TAG}`, { capabilities: [`cap-${TAG}`] });
    b.agent = { id: agent.id, apiKey: agent.apiKey, handle: `agent-${TAG}` };
    const socket = await openAgentSocket(server.url, agent.apiKey);
    b.agentSocket = socket;
    const pub = await owner.api.rooms.createChannel.mutate({
      name: `pub-${TAG}`,
      topic: `topic ${TAG}`,
      visibility: "public",
      memberIds: [member.participantId, agent.id],
    });
    const priv = await owner.api.rooms.createChannel.mutate({ name: `priv-${TAG}`, topic: `secret ${TAG}`, visibility: "private", memberIds: [agent.id] });
    b.publicRoom = pub.id;
    const send = (roomId: string, body: string, extra: Record<string, unknown> = {}) =>
      owner.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID(), ...extra });
    const root = await send(pub.id, `root ${TAG} @${member.handle} @agent-${TAG}`);
    await member.api.messages.send.mutate({ roomId: pub.id, body: `reply ${TAG}`, clientMsgId: randomUUID(), threadRootId: root.id });
    await send(priv.id, `private ${TAG}`);
    const dm = await owner.api.rooms.openDirect.mutate({ participantIds: [member.participantId] });
    await send(dm.id, `dm ${TAG}`);
    await member.api.messages.react.mutate({ messageId: root.id, emoji: "👍" });
    await owner.api.messages.pin.mutate({ messageId: root.id });
    const uploaded = await fetch(`${server.url}/api/files?roomId=${pub.id}&name=file-${TAG}.txt`, {
      method: "POST",
      headers: { authorization: `Bearer ${agent.apiKey}` },
      body: `file body ${TAG}`,
    });
    const file = ((await uploaded.json()) as { data: { id: string } }).data;
    unwrap(await emitAck<Ack<unknown>>(socket, "message:send", { roomId: pub.id, body: `attached ${TAG}`, clientMsgId: randomUUID(), fileIds: [file.id] }));
    await owner.api.questions.ask.mutate({ roomId: pub.id, clientMsgId: randomUUID(), prompt: `question ${TAG}?`, kind: "text", audience: { type: "room" } });
    // Names a client chooses (a session, a task) are ids A may name too, so they carry no canary.
    const sessionId = `session-${randomUUID()}`;
    unwrap(await emitAck<Ack<unknown>>(socket, "work:status", { state: "working", text: `status ${TAG}`, ttlSec: 600 }));
    unwrap(
      await emitAck<Ack<unknown>>(socket, "work:tasks", {
        sessionId,
        roomId: pub.id,
        tasks: [{ key: `k-${TAG}`, title: `task ${TAG}`, status: "in_progress" }],
      }),
    );
    unwrap(
      await emitAck<Ack<unknown>>(socket, "work:files", { sessionId, roomId: pub.id, files: [{ path: `src/${TAG}.ts`, operation: "edit", linesAdded: 3 }] }),
    );
    unwrap(await emitAck<Ack<unknown>>(socket, "work:link", { sessionId, roomId: pub.id, kind: "branch", value: `branch-${TAG}` }));
    unwrap(await emitAck<Ack<unknown>>(socket, "binding:claim", { roomId: pub.id, runtime: "generic", holder: `holder-${TAG}` }));
    unwrap(await emitAck<Ack<unknown>>(socket, "turn:start", { messageId: root.id }));
    unwrap(
      await emitAck<Ack<unknown>>(socket, "usage:report", {
        reportId: randomUUID(),
        model: `model-${TAG}`,
        inputTokens: 10,
        outputTokens: 5,
        roomId: pub.id,
        messageId: root.id,
        taskId: `usage-task-${randomUUID()}`,
      }),
    );
    await owner.api.usage.setPrice.mutate({ model: `model-${TAG}`, inputPerMTok: 1, outputPerMTok: 2 });
    await owner.api.usage.setBudget.mutate({ subjectType: "agent", subjectId: agent.id, period: "day", unit: "usd", amount: 100 });
    // Connection requests left pending: the agents ask their owners.
    await owner.api.agents.setConsentPolicy.mutate({ agentId: agent.id, policy: "ask" });
    const other = await createAgent(member, `other-${TAG}`);
    await member.api.connections.request.mutate({ participantId: agent.id, message: `connect ${TAG}` });
    unwrap(await emitAck<Ack<unknown>>(socket, "connection:request", { participantId: other.id, message: `agent asks ${TAG}` }));
    await owner.api.agents.createOnboardingToken.mutate({ label: `onboarding ${TAG}`, roomId: pub.id });
    await owner.api.workspace.createInvite.mutate({ role: "member" });
    await owner.api.tokens.create.mutate({ name: `token ${TAG}`, scope: "read" });
    // An A2A task of B: B's owner asks B's agent, served over A2A.
    await owner.api.agents.setA2aServed.mutate({ agentId: agent.id, served: true });
    const ownerToken = (await owner.api.tokens.create.mutate({ name: `a2a ${TAG}`, scope: "write" })).token;
    const sent = await a2aCall(server, `agent-${TAG}`, ownerToken, "SendMessage", {
      message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: `a2a ask ${TAG}` }] },
      configuration: { returnImmediately: true },
    });
    expect(sent.text, "B's A2A task").toContain('"task"');
  }

  async function a2aCall(server: TestServer, handle: string, credential: string, method: string, params: unknown): Promise<Outcome> {
    const res = await fetch(`${server.url}/a2a/${handle}`, {
      method: "POST",
      headers: { authorization: `Bearer ${credential}`, "content-type": "application/json", "A2A-Version": /\//.test(method) ? "0.3" : "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(1500),
    });
    // A stream (a send or a subscription that was let through) is read for as long as it lasts, or until the timeout.
    const text = await res.text().catch((error: Error) => `(stream cut: ${error.name})`);
    const code = /"error"/.test(text) ? (/"code":\s*"?(-?\w+)/.exec(text)?.[1] ?? "ERROR") : res.ok ? "OK" : String(res.status);
    return { transport: "a2a", target: method, input: { handle, params }, code, text };
  }

  /** Replays every target as A with B's ids (and, as the control, ids nobody has), and says what it found. */
  async function replayAll(): Promise<Found> {
    const started = Date.now();
    const before = await rowsOf(server, b.workspaceId);
    /** The ids of B's rows (not what a client names, a session or a task, which A may name as well). */
    const bIds = new Set([...before.values()].flat().flatMap((r) => (typeof r.id === "string" ? [r.id] : [])));
    // The check sees B's data where it is: in what B's owner reads.
    const own = JSON.stringify(await b.owner.api.messages.history.query({ roomId: b.publicRoom, limit: 50 }));
    expect(leakIn({ transport: "trpc", target: "", input: null, code: "OK", text: own }, bIds), "B's own read, checked").not.toBeNull();
    // Sanity: the fill reached every kind of thing the calls pick ids from.
    const idsOf = (kind: string) => [
      ...new Set(
        (KIND_COLUMNS[kind] ?? []).flatMap(([t, c]) =>
          (before.get(t) ?? []).map((r) => r[c]).filter((v): v is string => typeof v === "string" && v.length > 0),
        ),
      ),
    ];
    for (const kind of Object.keys(KIND_COLUMNS)) expect(idsOf(kind).length, `B has a ${kind}`).toBeGreaterThan(0);
    const allIds = [
      ...new Set(
        [...before.values()]
          .flat()
          .map((r) => r.id)
          .filter((v): v is string => typeof v === "string"),
      ),
    ];
    const candidates = (key: string) => {
      const kind = kindOf(key)!;
      return kind === "any" ? allIds : idsOf(kind);
    };
    /** The inputs for one target: one per B id of the likeliest kind (at most `cap`), each union branch too. */
    const inputsFor = (schema: Schema | undefined, all: boolean, cap = 12, made?: () => string): unknown[] => {
      if (!schema) return [undefined];
      const keys = [...idKeys(schema)];
      const n = made ? cap : Math.min(cap, Math.max(1, branchCount(schema), ...keys.map((k) => candidates(k).length)));
      return Array.from({ length: n }, (_, i) =>
        valueFor(schema, "", {
          all,
          branch: i,
          id: (key) => {
            if (made) return made();
            const list = candidates(key);
            return list[i % list.length] ?? "none";
          },
        }),
      );
    };

    const outcomes: Outcome[] = [];
    const controls: Outcome[] = [];
    /** Calls a target with its inputs (all fields first; required fields and ids only when that is refused as malformed). */
    async function replay(schema: Schema | undefined, call: (input: unknown) => Promise<Outcome>, cap?: number, width = 4) {
      const malformed = (o: Outcome) => o.code === "INVALID_PAYLOAD" || o.code === "BAD_REQUEST";
      // An optional field that another rules out ("body (or text), once"), named by the refusal, is left
      // out of every input, until the first input is taken (or the refusal names no field left to drop).
      const dropped = new Set<string>();
      const strip = (input: unknown): unknown => {
        if (!input || typeof input !== "object" || Array.isArray(input)) return input;
        const out = Object.fromEntries(Object.entries(input).filter(([k]) => !dropped.has(k)));
        if (out.args && typeof out.args === "object") out.args = strip(out.args);
        return out;
      };
      const shaping: Outcome[] = [];
      let all = true;
      const inputs = inputsFor(schema, all, cap);
      let first = await call(strip(inputs[0]));
      for (let tries = 0; tries < 4; tries++) {
        const field = malformed(first) ? /"message":"([\w]+)[.:]/.exec(first.text)?.[1] : undefined;
        if (!field || dropped.has(field) || !JSON.stringify(inputs[0]).includes(`"${field}":`)) break;
        shaping.push(first);
        dropped.add(field);
        first = await call(strip(inputs[0]));
      }
      let results = [
        first,
        ...(await pool(
          inputs.slice(1).map((input) => () => call(strip(input))),
          width,
        )),
      ];
      if (schema && results.every(malformed)) {
        shaping.push(...results);
        all = false;
        results = await pool(
          inputsFor(schema, all, cap).map((input) => () => call(strip(input))),
          width,
        );
      }
      outcomes.push(...shaping.map((o) => ({ ...o, shaping: true })), ...results);
      // The control: the same inputs with ids nobody has. B's ids must be answered as these are.
      if (!schema || idKeys(schema).size === 0) return;
      const made = inputsFor(schema, all, branchCount(schema), () => randomUUID());
      controls.push(
        ...(await pool(
          made.map((input) => () => call(strip(input))),
          width,
        )),
      );
    }

    // tRPC, as A's owner (session cookie).
    const procedures = trpcProcedures();
    for (const p of procedures) {
      if (p.type === "subscription") continue;
      await replay(p.schema, async (input) => {
        const body = input === undefined ? undefined : JSON.stringify(superjson.serialize(input));
        const query = p.type === "query";
        const url = `${server.url}/api/trpc/${p.name}${query && body ? `?input=${encodeURIComponent(body)}` : ""}`;
        const res = await fetch(url, {
          method: query ? "GET" : "POST",
          headers: { cookie: aOwner.cookie, "content-type": "application/json" },
          body: query ? undefined : body,
        });
        const text = await res.text();
        const code = res.ok ? "OK" : (/"app":\{"code":"(\w+)"/.exec(text)?.[1] ?? String(res.status));
        return { transport: "trpc", target: p.name, input, code, text };
      });
    }

    // Socket events, as A's owner and as A's agent; tool:call once per tool.
    const personSocket = await aOwner.socket();
    const agentSocket = await openAgentSocket(server.url, aAgentKey);
    // Everything the server pushes to A's sockets, from now on.
    const heard = { person: [] as string[], agent: [] as string[] };
    personSocket.onAny((event: string, ...args: unknown[]) => heard.person.push(JSON.stringify([event, ...args.filter((a) => typeof a !== "function")])));
    agentSocket.onAny((event: string, ...args: unknown[]) => heard.agent.push(JSON.stringify([event, ...args.filter((a) => typeof a !== "function")])));
    const events = socketEvents();
    const toolSchemas = Object.entries(TOOL_SPECS).map(([name, spec]) => ({ name, schema: jsonSchemaOf((spec as { input: z.ZodType }).input) }));
    for (const [who, socket] of [
      ["person", personSocket],
      ["agent", agentSocket],
    ] as const) {
      const emit = (event: string, target: string) => async (input: unknown) => {
        const reply = await emitAck<Ack<unknown>>(socket, event, input);
        return { transport: `socket(${who})`, target, input, code: reply.ok ? "OK" : reply.error.code, text: JSON.stringify(reply) };
      };
      for (const e of events) await replay(e.schema, emit(e.name, e.name), 8, 8);
      for (const t of toolSchemas) {
        const run = emit("tool:call", `tool:call ${t.name}`);
        await replay(t.schema, (args) => run({ name: t.name, args }), 8, 8);
      }
    }

    // MCP, as A's agent: the tools the server lists, with the schemas it gives.
    const mcp = new Client({ name: "isolation", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL("/api/mcp", server.url), { requestInit: { headers: { Authorization: `Bearer ${aAgentKey}` } } }),
    );
    clients.push(mcp);
    const { tools } = await mcp.listTools();
    for (const t of tools) {
      await replay(t.inputSchema as Schema, async (args) => {
        const result = await mcp.callTool({ name: t.name, arguments: args as Record<string, unknown> });
        const error = (result.structuredContent as { error?: { code?: string } } | undefined)?.error;
        return { transport: "mcp", target: t.name, input: args, code: result.isError ? (error?.code ?? "ERROR") : "OK", text: JSON.stringify(result) };
      });
    }

    // A2A: every method, to A's own served agent with B's tasks and contexts (by A's owner), and to
    // B's agent by its handle (by A's agent).
    const methods = a2aMethods();
    const taskIds = idsOf("task");
    const contextIds = idsOf("context");
    const a2aParams = (method: string, taskId: string, contextId: string) => {
      const legacy = method.includes("/");
      const message = legacy
        ? { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text: WORD }], taskId, contextId }
        : { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: WORD }], taskId, contextId };
      return {
        id: taskId,
        name: `tasks/${taskId}`,
        taskId,
        contextId,
        parent: `tasks/${taskId}`,
        pushNotificationConfigId: taskId,
        message,
        configuration: legacy ? { blocking: false } : { returnImmediately: true },
        pushNotificationConfig: { id: taskId, url: `http://127.0.0.1:9/${WORD}` },
      };
    };
    for (const method of methods) {
      for (let i = 0; i < Math.max(taskIds.length, contextIds.length); i++) {
        const params = a2aParams(method, taskIds[i % taskIds.length], contextIds[i % contextIds.length]);
        outcomes.push({ ...(await a2aCall(server, aServedHandle, aToken, method, params)), target: `${method} (A's agent)` });
        outcomes.push({ ...(await a2aCall(server, b.agent.handle, aAgentKey, method, params)), target: `${method} (B's agent)` });
      }
      const made = a2aParams(method, randomUUID(), randomUUID());
      controls.push({ ...(await a2aCall(server, aServedHandle, aToken, method, made)), target: `${method} (A's agent)` });
      controls.push({ ...(await a2aCall(server, `nobody-${WORD}`, aAgentKey, method, made)), target: `${method} (B's agent)` });
    }

    // HTTP: each route of server/app.ts's table, with B's ids where it takes one.
    const routes = httpRoutes();
    const http = async (target: string, url: string, init: RequestInit & { credential?: string } = {}): Promise<Outcome> => {
      const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
      if (init.credential?.startsWith("authjs")) headers.cookie = init.credential;
      else if (init.credential) headers.authorization = `Bearer ${init.credential}`;
      const res = await fetch(`${server.url}${url}`, { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(5000) });
      const text = `${res.status} ${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${await res.text()}`;
      const code = res.ok ? "OK" : (/"code":"(\w+)"/.exec(text)?.[1] ?? String(res.status));
      return { transport: "http", target, input: { url, body: init.body }, code, text };
    };
    const credentials = [
      ["session", aOwner.cookie],
      ["agent key", aAgentKey],
      ["access token", aToken],
    ] as const;
    /** A card is for discovery: without a bearer credential (a session is none there) anyone gets the card served under a handle. */
    const bearers = credentials.filter(([name]) => name !== "session");
    /** What a probe names: B's things, or (the control) things nobody has. */
    interface Named {
      ids(kind: string): string[];
      files: Row[];
      agentHandle: string;
      email: string;
    }
    const ofB: Named = { ids: idsOf, files: before.get("StoredFile") ?? [], agentHandle: b.agent.handle, email: b.owner.email };
    const nobody = randomUUID();
    const ofNobody: Named = {
      ids: () => [nobody],
      files: [{ id: randomUUID(), name: `${WORD}.txt` }],
      agentHandle: `nobody-${WORD}`,
      email: `nobody-${randomUUID()}@example.test`,
    };
    const probes: Record<string, (named: Named) => Promise<Outcome[]>> = {
      "/api/trpc/": async () => [], // every procedure, above
      "/api/mcp": async () => [], // every tool, above
      "/socket.io": async () => [], // every event, above
      "/healthz": async () => [await http("GET /healthz", "/healthz")],
      "/install": async () => [await http("GET /install", "/install"), await http("GET /install/", "/install/")],
      "/api/v1/agents/register": async (named) =>
        Promise.all(
          named.ids("token").map((token) =>
            http("POST /api/v1/agents/register", "/api/v1/agents/register", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ onboardingToken: token, handle: "isoxreg", displayName: WORD }),
            }),
          ),
        ),
      "/api/v1/tokens": async (named) => [
        await http("POST /api/v1/tokens", "/api/v1/tokens", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: named.email, password: WORD, name: WORD, scope: "write" }),
        }),
      ],
      "/a2a/": async (named) =>
        Promise.all(
          bearers.flatMap(([name, credential]) => [
            http(`GET B's agent card (${name})`, `/a2a/${named.agentHandle}/.well-known/agent-card.json`, { credential, headers: { "A2A-Version": "1.0" } }),
            http(`GET B's agent card, v0.3 (${name})`, `/a2a/${named.agentHandle}/.well-known/agent.json`, { credential }),
            http(`POST B's agent (${name})`, `/a2a/${named.agentHandle}`, {
              credential,
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: named.ids("task")[0] } }),
            }),
          ]),
        ),
      // One after another, as Claude Code sends them: two reports of one task at once race (a 500 on PostgreSQL).
      "/api/hooks/claude-code": async (named) =>
        pool(
          HOOK_EVENTS.flatMap((event) =>
            named.ids("session").map(
              (sessionId) => () =>
                http(`POST /api/hooks/claude-code ${event}`, "/api/hooks/claude-code", {
                  credential: aAgentKey,
                  method: "POST",
                  headers: { "content-type": "application/json" },
                  body: JSON.stringify({
                    session_id: sessionId,
                    hook_event_name: event,
                    cwd: "/tmp",
                    prompt: WORD,
                    message: WORD,
                    tool_name: "Edit",
                    tool_input: { file_path: `/tmp/${WORD}.ts`, old_string: "a", new_string: "b" },
                    tool_response: {},
                    task_id: `${WORD}-task`,
                    task_subject: WORD,
                  }),
                }),
            ),
          ),
          1,
        ),
      "/api/files": async (named) => {
        const out: Promise<Outcome>[] = [];
        for (const [name, credential] of credentials) {
          for (const f of named.files) {
            out.push(http(`GET /api/files/<id>/<name> (${name})`, `/api/files/${String(f.id)}/${encodeURIComponent(String(f.name))}`, { credential }));
            out.push(http(`HEAD /api/files/<id> (${name})`, `/api/files/${String(f.id)}`, { credential, method: "HEAD" }));
          }
          for (const roomId of named.ids("room"))
            out.push(http(`POST /api/files?roomId= (${name})`, `/api/files?roomId=${roomId}&name=${WORD}.txt`, { credential, method: "POST", body: WORD }));
        }
        return Promise.all(out);
      },
    };
    const unprobed = routes.filter((r) => !Object.hasOwn(probes, r));
    expect(unprobed, "routes of server/app.ts this test has no probe for: add one").toEqual([]);
    for (const route of routes) {
      outcomes.push(...(await probes[route](ofB)));
      controls.push(...(await probes[route](ofNobody)));
    }

    // (1) Nothing of B in any answer, and no answer to B's ids that ids nobody has do not get too (which
    // would tell A that B's thing exists).
    const codesOf = (list: Outcome[]) => {
      const by = new Map<string, Set<string>>();
      for (const o of list)
        if (o.code !== "RATE_LIMITED" && !o.shaping) by.set(`${o.transport} ${o.target}`, (by.get(`${o.transport} ${o.target}`) ?? new Set()).add(o.code));
      return by;
    };
    const controlCodes = codesOf(controls);
    const oracles = [...codesOf(outcomes)].flatMap(([target, codes]) => {
      const control = controlCodes.get(target);
      const told = control ? [...codes].filter((c) => !control.has(c)) : [];
      if (told.length === 0) return [];
      const example = outcomes.find((o) => `${o.transport} ${o.target}` === target && o.code === told[0])!;
      return [
        `${target}: ${told.join(", ")} for B's ids, ${[...(control ?? [])].join(", ")} for ids nobody has; e.g. ${JSON.stringify(example.input)?.slice(0, 300)} -> ${example.text.slice(0, 300)}`,
      ];
    });
    const leaks = [...outcomes, ...controls].flatMap((o) => {
      const leak = leakIn(o, bIds);
      return leak ? [`${o.transport} ${o.target} ${JSON.stringify(o.input)?.slice(0, 300)} -> ${o.code}: ${leak}`] : [];
    });
    // (2) B unchanged.
    const after = await rowsOf(server, b.workspaceId);
    const was = snapshot(before);
    const now = snapshot(after);
    // A failed sign-in with the email of B's owner (POST /api/v1/tokens) is written to B's audit log, as it should be.
    const expectedChange = (table: string, row: string) => table === "AuditEvent" && row.includes('"action":"auth.signin_failed"');
    const changes: string[] = [];
    for (const table of new Set([...Object.keys(was), ...Object.keys(now)])) {
      const old = new Set(was[table] ?? []);
      const fresh = new Set(now[table] ?? []);
      for (const r of fresh) if (!old.has(r) && !expectedChange(table, r)) changes.push(`${table} + ${r.slice(0, 400)}`);
      for (const r of old) if (!fresh.has(r)) changes.push(`${table} - ${r.slice(0, 400)}`);
    }
    // (3) Still serving, A and B alike; and what B does now reaches none of A's sockets (a message, a work
    // status, a profile status, a new public channel, an agent coming online).
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await b.owner.api.messages.history.query({ roomId: b.publicRoom, limit: 50 })).messages.length).toBeGreaterThan(0);
    await b.member.api.messages.send.mutate({ roomId: b.publicRoom, body: `late ${TAG} @agent-${TAG}`, clientMsgId: randomUUID() });
    unwrap(await emitAck<Ack<unknown>>(b.agentSocket, "work:status", { state: "working", text: `late status ${TAG}`, ttlSec: 600 }));
    await b.owner.api.profile.setStatus.mutate({ statusEmoji: "👍", statusText: `late ${TAG}` });
    await b.owner.api.rooms.createChannel.mutate({ name: `late-${TAG}`, visibility: "public", topic: `late ${TAG}` });
    await openAgentSocket(server.url, b.agent.apiKey);
    const marker = await aOwner.api.messages.send.mutate({ roomId: aRoom, body: `still here @aagent`, clientMsgId: randomUUID() });
    // A socket that has the marker has everything the server emitted to it before (harness.ts, `sentinel`).
    await waitFor(() => heard.person.some((h) => h.includes(marker.id)) && heard.agent.some((h) => h.includes(marker.id)), 10_000, "the marker on A's sockets");
    const overheard = [...heard.person.map((h) => `person: ${h}`), ...heard.agent.map((h) => `agent: ${h}`)].flatMap((h) => {
      const leak = leakIn({ transport: "push", target: "", input: null, code: "", text: h }, bIds);
      return leak ? [`${h.slice(0, 200)}: ${leak}`] : [];
    });
    // The comparison of B's rows sees a write: B's own, just now.
    expect(snapshot(await rowsOf(server, b.workspaceId)), "B's own writes show in the comparison").not.toEqual(now);

    // What was covered, and how each was answered.
    const byTransport = new Map<string, Map<string, Map<string, number>>>();
    for (const o of outcomes) {
      const transport = o.transport.replace(/\(.*\)/, "");
      const targets = byTransport.get(transport) ?? new Map<string, Map<string, number>>();
      byTransport.set(transport, targets);
      const codes = targets.get(o.target) ?? new Map<string, number>();
      targets.set(o.target, codes);
      codes.set(o.code, (codes.get(o.code) ?? 0) + 1);
    }
    const answers = new Map<string, number>();
    for (const o of outcomes) answers.set(o.code, (answers.get(o.code) ?? 0) + 1);
    const names = (transport: string) => [...(byTransport.get(transport)?.keys() ?? [])].sort().join(", ");
    const lines = [
      `workspace isolation (${dialect}, ${((Date.now() - started) / 1000).toFixed(1)} s, ${outcomes.length} calls and ${controls.length} controls): ` +
        [
          `tRPC ${byTransport.get("trpc")?.size ?? 0} procedures`,
          `socket ${events.length} events + tool:call × ${toolSchemas.length} tools`,
          `MCP ${tools.length} tools`,
          `A2A ${methods.length} methods`,
          `HTTP ${routes.length} routes (${byTransport.get("http")?.size ?? 0} kinds of request)`,
        ].join(", "),
      `  tRPC: ${names("trpc")}`,
      `  socket (as A's owner and as A's agent): ${names("socket")}`,
      `  MCP (as A's agent): ${names("mcp")}`,
      `  A2A: ${methods.join(", ")}`,
      `  HTTP: ${routes.join(", ")}; ${names("http")}`,
      `  answered: ${[...answers]
        .sort(([, x], [, y]) => y - x)
        .map(([code, n]) => `${code} ×${n}`)
        .join(", ")}`,
    ];
    // Targets no input made here got past validation: their service was never asked.
    const unreached = [...byTransport].flatMap(([transport, targets]) =>
      [...targets]
        .filter(([target]) =>
          outcomes
            .filter((o) => o.transport.startsWith(transport) && o.target === target && !o.shaping)
            .every((o) => o.code === "INVALID_PAYLOAD" || o.code === "BAD_REQUEST"),
        )
        .map(([target]) => {
          const o = outcomes.filter((x) => x.transport.startsWith(transport) && x.target === target).at(-1)!;
          return `${transport} ${target}: ${JSON.stringify(o.input)?.slice(0, 300)} -> ${o.text.slice(0, 300)}`;
        }),
    );
    console.log([...lines, ...(unreached.length ? ["  never past validation:", ...unreached.map((u) => `    ${u}`)] : [])].join("\n"));
    return { leaks, changes, overheard, oracles, unreached, connected: personSocket.connected && agentSocket.connected };
  }

  it("finds nothing of B in any answer to A, on any transport", () => {
    expect(found.leaks, "answers to A that hold something of B").toEqual([]);
  });

  it("leaves B's rows as they were", () => {
    expect(found.changes, "B's rows that A's calls changed").toEqual([]);
  });

  it("pushes nothing of B to A's sockets", () => {
    expect(found.overheard, "events pushed to A's sockets that hold something of B").toEqual([]);
  });

  it("answers B's ids as it answers ids nobody has (nothing tells A they exist)", () => {
    expect(found.oracles, "answers that tell B's ids from ids nobody has").toEqual([]);
  });

  it("gets every target past validation, and keeps serving", () => {
    expect(found.unreached, "targets that no input made here gets past validation: teach valueFor their fields").toEqual([]);
    expect(found.connected, "A's sockets still connected").toBe(true);
  });
});
