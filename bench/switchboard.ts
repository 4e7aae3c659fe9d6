// Switchboard-side setup and the catch-up workload (W4), on a real server process from the
// integration harness (API-only mode, fresh SQLite file or PostgreSQL schema).
import { io, type Socket } from "socket.io-client";
import { SwitchboardClient } from "@switchboard/sdk/client";
import type { MessageView, ReplayPage } from "@switchboard/sdk/contract";
import { createAgent, openSocket, signUpPerson, type ClientSocket, type Person, type TestServer } from "../tests/integration/harness";
import type { FanoutTarget } from "./workloads";
import { runScript } from "./child";
import { round } from "./stats";

type Ack<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

export async function sendAcked(socket: ClientSocket, roomId: string, clientMsgId: string, text: string): Promise<MessageView> {
  const reply = (await socket.timeout(60_000).emitWithAck("message:send", { roomId, body: text, clientMsgId })) as Ack<MessageView>;
  if (!reply.ok) throw new Error(`message:send failed: ${reply.error.code} ${reply.error.message}`);
  return reply.data;
}

/** Runs `fn` over `items` with at most `limit` at once. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

export interface FanoutRoom {
  owner: Person;
  roomId: string;
  sender: ClientSocket;
  receivers: ClientSocket[];
  target: FanoutTarget;
  setupMs: number;
}

/**
 * The address the i-th person of a crowd signs up from: each their own, as people on their own
 * machines (the bench's servers trust one proxy hop, so per-address sign-up limits see them apart).
 */
export const crowdAddress = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/** The environment the bench's servers run with: production mode, behind one (pretend) proxy hop. */
export const BENCH_SERVER_ENV = { NODE_ENV: "production", TRUST_PROXY: "1" };

/** An owner and `n` people in one private room; every person connected with a browser socket. */
/**
 * `n` people in one private channel, connected, and its owner to send. `opts.batch` (default true):
 * the receivers take messages committed together as one `message:batch` event, as the browser and the
 * SDK do; false: one `message:new` each, as a bare Socket.IO client (the Python example) gets them.
 */
export async function fanoutRoom(server: TestServer, n: number, opts: { batch?: boolean } = {}): Promise<FanoutRoom> {
  const t0 = performance.now();
  const owner = await signUpPerson(server, { handle: "owner" });
  // The owner sends the load: exempt from the people's message rate (servers before it had none).
  await owner.api.workspace.setRateExemption.mutate({ exempt: true }).catch(() => undefined);
  const { token } = await owner.api.workspace.createInvite.mutate({ maxUses: 1000 });
  const people = await pool(
    Array.from({ length: n }, (_, i) => `reader${String(i).padStart(3, "0")}`),
    4,
    (handle, i) => signUpPerson(server, { handle, inviteToken: token, address: crowdAddress(i) }),
  );
  const room = await owner.api.rooms.createChannel.mutate({ name: "bench-fanout", visibility: "private", memberIds: people.map((p) => p.participantId) });
  const features = opts.batch === false ? [] : ["message:batch"];
  const receivers = await pool(people, 8, (p) => p.socket({ features }));
  const sender = await owner.socket({ features: ["message:batch"] });
  return {
    owner,
    roomId: room.id,
    sender,
    receivers,
    setupMs: round(performance.now() - t0, 0),
    target: {
      receivers: receivers as unknown as Socket[],
      send: async (clientMsgId, text) => void (await sendAcked(sender, room.id, clientMsgId, text)),
    },
  };
}

export interface FillResult {
  method: "api" | "bulk";
  messages: number;
  sockets: number;
  windowPerSocket: number;
  elapsedMs: number;
  msgsPerS: number;
  /** Bulk only: the chunked inserts alone (no process start, no API send). */
  bulkMessages?: number;
  bulkMs?: number;
}

/** Stores `n` messages in a room through the socket API from `sockets` in parallel. Returns clientMsgIds in seq order. */
export async function fill(
  sockets: ClientSocket[],
  roomId: string,
  n: number,
  prefix: string,
  windowPerSocket = 8,
): Promise<{ result: FillResult; idsBySeq: string[] }> {
  const t0 = performance.now();
  const acks: { seq: number; id: string }[] = [];
  let next = 0;
  await Promise.all(
    sockets.flatMap((socket) =>
      Array.from({ length: windowPerSocket }, async () => {
        while (next < n) {
          const i = next++;
          const id = `${prefix}-${i}`;
          const m = await sendAcked(socket, roomId, id, `${prefix} stored while the agent was away #${i}`);
          acks.push({ seq: m.seq, id });
        }
      }),
    ),
  );
  const elapsedMs = performance.now() - t0;
  acks.sort((a, b) => a.seq - b.seq);
  return {
    result: {
      method: "api",
      messages: n,
      sockets: sockets.length,
      windowPerSocket,
      elapsedMs: round(elapsedMs, 0),
      msgsPerS: round((n * 1000) / elapsedMs, 1),
    },
    idsBySeq: acks.map((a) => a.id),
  };
}

export interface CatchUpResult {
  missed: number;
  client: "sdk" | "raw-socket";
  ms: number;
  received: number;
  pages: number | null;
  inOrder: boolean;
  noGap: boolean;
  noDuplicate: boolean;
  allPresent: boolean;
  ok: boolean;
}

/** Checks what an agent received against what was stored: contiguous seqs, no duplicate, every text in order. */
function verify(received: MessageView[], idsBySeq: string[], lastSeq: number) {
  let inOrder = true;
  let noDuplicate = true;
  let noGap = true;
  const seen = new Set<number>();
  for (let i = 0; i < received.length; i++) {
    const seq = received[i].seq;
    if (seen.has(seq)) noDuplicate = false;
    seen.add(seq);
    if (i > 0 && seq <= received[i - 1].seq) inOrder = false;
    if (i > 0 && seq !== received[i - 1].seq + 1) noGap = false;
  }
  if (received.length && received[received.length - 1].seq !== lastSeq) noGap = false;
  const texts = received.filter((m) => m.kind === "text").map((m) => m.clientMsgId);
  const allPresent = texts.length === idsBySeq.length && texts.every((id, i) => id === idsBySeq[i]);
  return { inOrder, noGap, noDuplicate, allPresent, ok: inOrder && noGap && noDuplicate && allPresent };
}

async function waitUntil(check: () => boolean, ms: number, what: string): Promise<void> {
  const until = performance.now() + ms;
  while (!check()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** An agent connects with the SDK (memory cursors) and is replayed what it missed. */
export async function catchUpWithSdk(url: string, apiKey: string, idsBySeq: string[], lastSeq: number): Promise<CatchUpResult> {
  const client = new SwitchboardClient({ url, apiKey });
  const received: MessageView[] = [];
  let texts = 0;
  let doneAt = 0;
  client.onMessage((m) => {
    received.push(m);
    if (m.kind === "text" && ++texts === idsBySeq.length) doneAt = performance.now();
  });
  const t0 = performance.now();
  await client.connect();
  await waitUntil(() => doneAt > 0, 120_000, "SDK catch-up");
  await new Promise((r) => setTimeout(r, 300)); // anything extra would show up now
  await client.close();
  return { missed: idsBySeq.length, client: "sdk", ms: round(doneAt - t0, 1), received: received.length, pages: null, ...verify(received, idsBySeq, lastSeq) };
}

/** The same with a bare socket.io-client that acks each `room:replay` page: the protocol's own cost. */
export async function catchUpWithRawSocket(url: string, apiKey: string, idsBySeq: string[], lastSeq: number): Promise<CatchUpResult> {
  const received: MessageView[] = [];
  let texts = 0;
  let pages = 0;
  let doneAt = 0;
  const t0 = performance.now();
  const socket = io(url, { path: "/socket.io", transports: ["websocket"], reconnection: false, auth: { apiKey, protocol: 1 } });
  socket.on("room:replay", (page: ReplayPage, ack: (r: { ok: true }) => void) => {
    pages++;
    for (const m of page.messages) {
      received.push(m);
      if (m.kind === "text" && ++texts === idsBySeq.length) doneAt = performance.now();
    }
    ack({ ok: true });
  });
  await waitUntil(() => doneAt > 0, 120_000, "raw catch-up");
  await new Promise((r) => setTimeout(r, 300));
  socket.disconnect();
  return { missed: idsBySeq.length, client: "raw-socket", ms: round(doneAt - t0, 1), received: received.length, pages, ...verify(received, idsBySeq, lastSeq) };
}

export interface CatchUpCase {
  roomId: string;
  agentId: string;
  fill: FillResult;
  sdk: CatchUpResult;
  raw: CatchUpResult;
}

/**
 * Stores `n` messages: `n - 1` in bulk (bench/fill.ts, straight into the database in chunks), then one
 * through the API, whose seq proves the server carries on from the bulk's last seq.
 */
async function bulkFill(server: TestServer, owner: Person, roomId: string, n: number, prefix: string): Promise<{ result: FillResult; idsBySeq: string[] }> {
  const t0 = performance.now();
  const bulk = await runScript<{ messages: number; ms: number; firstSeq: number }>(
    "bench/fill.ts",
    {
      DATABASE_URL: server.databaseUrl,
      BENCH_ROOM: roomId,
      BENCH_HANDLE: "owner",
      BENCH_N: String(n - 1),
      BENCH_PREFIX: prefix,
    },
    { root: server.root },
  ); // the server's own checkout: its schema, its Prisma client
  const socket = await openSocket(server.url, owner.cookie);
  const lastId = `${prefix}-${n - 1}`;
  const last = await sendAcked(socket, roomId, lastId, `${prefix} stored while the agent was away #${n - 1}`);
  socket.disconnect();
  if (last.seq !== bulk.firstSeq + n - 1) throw new Error(`bulk fill broke the room's seq: API send got ${last.seq}, expected ${bulk.firstSeq + n - 1}`);
  const elapsedMs = performance.now() - t0;
  return {
    result: {
      method: "bulk",
      messages: n,
      sockets: 1,
      windowPerSocket: 1,
      elapsedMs: round(elapsedMs, 0),
      msgsPerS: round((n * 1000) / elapsedMs, 1),
      bulkMessages: bulk.messages,
      bulkMs: bulk.ms,
    },
    idsBySeq: Array.from({ length: n }, (_, i) => `${prefix}-${i}`),
  };
}

/** A room with two offline agents in mode `all`; `n` messages are stored; each agent then catches up alone. */
export async function catchUpCase(server: TestServer, owner: Person, n: number, how: { method: "api" | "bulk"; sockets: number }): Promise<CatchUpCase> {
  const sdkAgent = await createAgent(owner, `catchup${n}sdk`);
  const rawAgent = await createAgent(owner, `catchup${n}raw`);
  const room = await owner.api.rooms.createChannel.mutate({ name: `catchup-${n}`, visibility: "private", memberIds: [sdkAgent.id, rawAgent.id] });
  for (const a of [sdkAgent, rawAgent]) await owner.api.agents.setDeliveryMode.mutate({ roomId: room.id, mode: "all", participantId: a.id });
  const prefix = `fill${n}`;
  let filled: { result: FillResult; idsBySeq: string[] };
  if (how.method === "bulk") filled = await bulkFill(server, owner, room.id, n, prefix);
  else {
    const sockets = await Promise.all(Array.from({ length: how.sockets }, () => openSocket(server.url, owner.cookie)));
    filled = await fill(sockets, room.id, n, prefix);
    for (const s of sockets) s.disconnect();
  }
  const { lastSeq } = await owner.api.rooms.get.query({ roomId: room.id });
  const sdk = await catchUpWithSdk(server.url, sdkAgent.apiKey, filled.idsBySeq, lastSeq);
  const raw = await catchUpWithRawSocket(server.url, rawAgent.apiKey, filled.idsBySeq, lastSeq);
  return { roomId: room.id, agentId: sdkAgent.id, fill: filled.result, sdk, raw };
}
