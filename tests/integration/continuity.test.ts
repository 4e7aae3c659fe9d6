// Continuity with real processes: agents killed and restarted, the server killed under load, and two
// server processes sharing fan-out through Redis.
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SwitchboardClient, type MessageView } from "@switchboard/sdk";
import type { Ack, ReplayPage } from "@switchboard/sdk/contract";
import {
  apiClient,
  closeSockets,
  collect,
  collectMessages,
  createAgent,
  dialects,
  openAgentSocket,
  openSocket,
  queryDb,
  sentinel,
  signUpPerson,
  waitFor,
  type ClientSocket,
  type Person,
  type TestServer,
  liftMessageRates,
  startTwoProcesses,
  startAgentProcess,
} from "./harness";
import { startWorkspace } from "./factories";

const work = mkdtempSync(path.join(tmpdir(), "switchboard-continuity-"));
const children = new Set<ChildProcess>();

function startAgent(
  server: TestServer,
  apiKey: string,
  files: { log: string; cursors?: string },
  delayMs = 0,
  opts: { reply?: boolean } = {},
): Promise<ChildProcess> {
  const env = {
    SWITCHBOARD_URL: server.url,
    SWITCHBOARD_API_KEY: apiKey,
    LOG_FILE: files.log,
    CURSOR_FILE: files.cursors ?? "",
    HANDLER_DELAY_MS: String(delayMs),
    REPLY: opts.reply ? "1" : "",
  };
  return startAgentProcess("recording-agent", env, children);
}

async function kill(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
  children.delete(child);
}

/**
 * A file cursor is written right after the handler returns, so a SIGKILL can fall between the handler's
 * effect (its log line) and the cursor write: that one message, the last the first run logged, is handled
 * again. Drops that single repeat at the kill boundary; anything else repeated or missing stays visible.
 */
function withoutKillRepeat(log: number[], firstRun: number): number[] {
  return firstRun > 0 && log[firstRun] === log[firstRun - 1] ? [...log.slice(0, firstRun), ...log.slice(firstRun + 1)] : log;
}

/** The log's entries as "seq body", in the order the handler saw them. */
function logged(file: string): { seq: number; body: string }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [, seq, ...body] = line.split(" ");
      return { seq: Number(seq), body: body.join(" ") };
    });
}

afterAll(async () => {
  await Promise.all([...children].map((c) => kill(c)));
  rmSync(work, { recursive: true, force: true });
});

describe.each(dialects)("continuity on %s", (dialect) => {
  let server: TestServer;
  let ana: Person;

  beforeAll(async () => {
    ({
      server,
      people: { ana },
    } = await startWorkspace(dialect, { people: { ana: "owner" }, liftRates: true, ownServer: true /* stopped and restarted */ }));
  });
  afterEach(() => closeSockets());
  afterAll(() => server.dispose());

  async function roomWithAgent(name: string, handle: string) {
    const agent = await createAgent(ana, handle);
    const room = await ana.api.rooms.createChannel.mutate({ name, visibility: "private", memberIds: [agent.id] });
    await ana.api.agents.setDeliveryMode.mutate({ roomId: room.id, mode: "all", participantId: agent.id });
    return { agent, room };
  }

  it("an agent killed mid-stream and restarted with its cursor file gets every message exactly once, in order", async () => {
    const { agent, room } = await roomWithAgent(`crash-${dialect}`, "crashy");
    const files = { log: path.join(work, `crash-${dialect}.log`), cursors: path.join(work, `crash-${dialect}.json`) };
    let child = await startAgent(server, agent.apiKey, files, 3);
    const socket = await ana.socket();
    const sent: number[] = [];
    const sendSome = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const ack = (await socket.timeout(10_000).emitWithAck("message:send", { roomId: room.id, body: `m${sent.length}`, clientMsgId: randomUUID() })) as {
          ok: boolean;
          data: MessageView;
        };
        sent.push(ack.data.seq);
      }
    };
    const sending = sendSome(150);
    await waitFor(() => logged(files.log).length >= 40, 20_000, "agent progress");
    await kill(child); // mid-stream, mid-handler most likely
    const firstRun = logged(files.log).length;
    await sending;
    await sendSome(30); // while it is down
    child = await startAgent(server, agent.apiKey, files, 0);
    await waitFor(() => logged(files.log).length >= sent.length, 20_000, "agent catch-up");
    const last = await sentinel(ana, room.id, (marker) => logged(files.log).some((e) => e.seq === marker.seq)); // nothing more arrives before it
    expect(
      withoutKillRepeat(
        logged(files.log).map((e) => e.seq),
        firstRun,
      ),
    ).toEqual([...sent, last.seq]);
    await kill(child, "SIGTERM");
  });

  it.each([
    ["its cursor file", true],
    ["memory cursors only", false],
  ])(
    "an agent that replies to every message, killed mid-burst and restarted with %s, handles every message in order and posts each reply once",
    async (_, withFile) => {
      await ana.api.workspace.setLimits.mutate({ agentMessagesPerMinute: 10_000, agentBurst: 1000, loopGuardMessages: 10_000 });
      const name = `talk-${withFile ? "file" : "memory"}-${dialect}`;
      const { agent, room } = await roomWithAgent(name, withFile ? "talker" : "chatter");
      const files = { log: path.join(work, `${name}.log`), cursors: withFile ? path.join(work, `${name}.json`) : undefined };
      let child = await startAgent(server, agent.apiKey, files, 5, { reply: true });
      const socket = await ana.socket();
      const sent: { seq: number; body: string }[] = [];
      const send = async (body: string) => {
        const ack = (await socket.timeout(10_000).emitWithAck("message:send", { roomId: room.id, body, clientMsgId: randomUUID() })) as Ack<MessageView>;
        if (!ack.ok) throw new Error(ack.error.message);
        sent.push({ seq: ack.data.seq, body });
      };
      // A burst faster than the agent answers: messages wait behind its handler, its replies land after them.
      const burst = (async () => {
        for (let i = 0; i < 60; i++) await send(`m${i}`);
      })();
      await waitFor(() => logged(files.log).length >= 10, 20_000, "agent answering");
      await kill(child); // mid-burst: handled, unhandled and answered messages interleave
      const firstRun = logged(files.log).length;
      await burst;
      child = await startAgent(server, agent.apiKey, files, 0, { reply: true });
      // Nothing new arrives to reveal a gap: what it had not handled must come from replay alone. Then a
      // last message, which per-room order hands it after everything before.
      await waitFor(() => logged(files.log).length >= firstRun + 1 && logged(files.log).at(-1)!.body === "m59", 20_000, "replay");
      await send("last");
      await waitFor(() => logged(files.log).at(-1)?.body === "last", 20_000, "the last message");
      await kill(child, "SIGTERM");

      const seqs = sent.map((m) => m.seq);
      const log = logged(files.log).map((e) => e.seq);
      if (withFile)
        expect(withoutKillRepeat(log, firstRun)).toEqual(seqs); // handled once, in order
      else {
        // Memory cursors: what was handled but not yet acked to the server is handled again, in order.
        const [before, after] = [log.slice(0, firstRun), log.slice(firstRun)];
        expect(before).toEqual(seqs.slice(0, before.length));
        const from = seqs.indexOf(after[0]);
        expect(from).toBeGreaterThanOrEqual(0);
        expect(from).toBeLessThanOrEqual(before.length);
        expect(after).toEqual(seqs.slice(from));
      }
      // Each message answered once, in order: a message handled again re-sent its reply with the same id.
      const replies = await queryDb<{ body: string }>(server, `SELECT "body" FROM "Message" WHERE "roomId" = $1 AND "authorId" = $2 ORDER BY "seq"`, [
        room.id,
        agent.id,
      ]);
      expect(replies.map((r) => r.body)).toEqual(sent.map((m) => `re ${m.body}`));
    },
  );

  it("a raw-socket agent that answers every message and never acks is replayed all of them when it reconnects", async () => {
    const { agent, room } = await roomWithAgent(`raw-talk-${dialect}`, "rawtalker");
    const answer = (bot: ClientSocket) =>
      bot.on("message:new", ({ message }) => {
        if (message.kind !== "text" || message.author.id === agent.id) return;
        bot.emit("message:send", { roomId: room.id, body: `re ${message.body}`, clientMsgId: `re-${message.id}` }, () => {});
      });
    const bot = await openAgentSocket(server.url, agent.apiKey, {}, answer);
    const ana$ = collectMessages(await ana.socket());
    const bodies = Array.from({ length: 10 }, (_, i) => `q${i}`);
    for (const body of bodies) await ana.api.messages.send.mutate({ roomId: room.id, body, clientMsgId: randomUUID() });
    await waitFor(() => ana$.seen.filter((e) => e.message.author.id === agent.id).length === 10, 10_000, "ten answers");
    bot.disconnect();

    const pages: ReplayPage[] = [];
    await openAgentSocket(server.url, agent.apiKey, {}, (again) =>
      again.on("room:replay", (page, ack) => {
        pages.push(page);
        ack({ ok: true });
      }),
    );
    const { lastSeq } = await ana.api.rooms.get.query({ roomId: room.id });
    await waitFor(() => pages.some((p) => p.roomId === room.id && p.throughSeq === lastSeq), 10_000, "replay to the end");
    const replayed = pages.flatMap((p) => p.messages).filter((m) => m.kind === "text" && m.author.id !== agent.id);
    expect(replayed.map((m) => m.body)).toEqual(bodies);
  });

  it("an agent restarted with no local state resumes from its server cursor", async () => {
    const { agent, room } = await roomWithAgent(`stateless-${dialect}`, "amnesiac");
    const log = path.join(work, `stateless-${dialect}.log`);
    const send = (body: string) => ana.api.messages.send.mutate({ roomId: room.id, body, clientMsgId: randomUUID() });
    let child = await startAgent(server, agent.apiKey, { log });
    for (let i = 0; i < 20; i++) await send(`before ${i}`);
    await waitFor(() => logged(log).length === 20, 10_000, "first run");
    await kill(child, "SIGTERM"); // a clean stop acks its cursor to the server
    for (let i = 0; i < 20; i++) await send(`after ${i}`);
    child = await startAgent(server, agent.apiKey, { log });
    await waitFor(() => logged(log).length >= 40, 10_000, "replay from the server cursor");
    await sentinel(ana, room.id, (marker) => logged(log).some((e) => e.seq === marker.seq)); // nothing more arrives before it
    expect(logged(log).map((e) => e.body)).toEqual([
      ...Array.from({ length: 20 }, (_, i) => `before ${i}`),
      ...Array.from({ length: 20 }, (_, i) => `after ${i}`),
      "sentinel",
    ]);

    // Killed hard, it may not have acked its last messages: the replay starts right after the
    // server's cursor, so what it sees again is exactly what the server had not been told.
    for (let i = 0; i < 10; i++) await send(`burst ${i}`);
    await waitFor(() => logged(log).length >= 51, 10_000, "burst");
    await kill(child);
    const [{ deliveredSeq }] = await queryDb<{ deliveredSeq: number }>(
      server,
      `SELECT "deliveredSeq" FROM "RoomMember" WHERE "roomId" = $1 AND "participantId" = $2`,
      [room.id, agent.id],
    );
    const before = logged(log).length;
    child = await startAgent(server, agent.apiKey, { log });
    await send("after the crash");
    await waitFor(() => logged(log).some((e) => e.body === "after the crash"), 10_000, "after crash");
    const replayed = logged(log).slice(before);
    const all = await ana.api.messages.sync.query({ roomId: room.id, afterSeq: deliveredSeq, limit: 100 });
    expect(replayed.map((e) => e.body)).toEqual(all.messages.filter((m) => m.kind === "text").map((m) => m.body));
    await kill(child, "SIGTERM");
  });

  it("an agent closed while its replay page is being handled leaves the rest of the page to its next run", async () => {
    const { agent, room } = await roomWithAgent(`closing-${dialect}`, `closer-${dialect}`);
    for (let i = 0; i < 5; i++) await ana.api.messages.send.mutate({ roomId: room.id, body: `missed ${i}`, clientMsgId: randomUUID() });
    // The first run handles one message of the page, then closes (in-memory cursors: only the server remembers).
    const first = new SwitchboardClient({ url: server.url, apiKey: agent.apiKey });
    const firstRun: string[] = [];
    let closing: Promise<void> | undefined;
    first.onMessage(async (message) => {
      if (message.roomId !== room.id || message.kind !== "text") return;
      firstRun.push(message.body);
      closing ??= first.close();
    });
    await first.connect();
    await waitFor(() => closing !== undefined, 10_000, "the first message handled");
    await closing;
    expect(firstRun).toEqual(["missed 0"]);

    const second = new SwitchboardClient({ url: server.url, apiKey: agent.apiKey });
    const secondRun: string[] = [];
    second.onMessage(async (message) => void (message.roomId === room.id && message.kind === "text" && secondRun.push(message.body)));
    await second.connect();
    await waitFor(() => secondRun.length >= 4, 10_000, `the rest of the page replayed (got ${JSON.stringify(secondRun)})`);
    expect(secondRun).toEqual(["missed 1", "missed 2", "missed 3", "missed 4"]);
    await second.close();
  });

  it("loses no acked message and duplicates none when the server is killed under load", async () => {
    // Two agents alone in a room: lift the rate limit and the loop guard, which would (rightly) slow them.
    await ana.api.workspace.setLimits.mutate({ agentMessagesPerMinute: 10_000, agentBurst: 1000, loopGuardMessages: 10_000 });
    const { agent: receiver, room } = await roomWithAgent(`sigkill-${dialect}`, "steady");
    const sender = await createAgent(ana, "firehose");
    await ana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [sender.id] });
    const files = { log: path.join(work, `sigkill-${dialect}.log`), cursors: path.join(work, `sigkill-${dialect}.json`) };
    const child = await startAgent(server, receiver.apiKey, files);
    const client = new SwitchboardClient({
      url: server.url,
      apiKey: sender.apiKey,
      sendAttempts: 60,
      reconnectDelayMs: { min: 100, max: 1000 },
      requestTimeoutMs: 3000,
    });
    await client.connect();

    const acked: MessageView[] = [];
    let next = 0;
    const worker = async () => {
      while (next < 200) {
        const i = next++;
        acked.push(await client.send(room.id, `load ${i}`));
      }
    };
    const load = Promise.all(Array.from({ length: 4 }, worker));
    await waitFor(() => acked.length >= 60, 30_000, "load underway");
    await server.stop(true); // SIGKILL
    await waitFor(() => !client.connected, 10_000, "the sender cut off"); // it retries through the outage
    await server.restart();
    await load;
    await client.close();

    const stored = await queryDb<{ n: number }>(server, `SELECT COUNT(*) AS n FROM "Message" WHERE "roomId" = $1 AND "kind" = 'text'`, [room.id]);
    expect(Number(stored[0].n)).toBe(200);
    expect(new Set(acked.map((m) => m.id)).size).toBe(200);
    await waitFor(() => logged(files.log).length >= 200, 30_000, "receiver caught up");
    const last = await sentinel(ana, room.id, (marker) => logged(files.log).some((e) => e.seq === marker.seq)); // nothing more arrives before it
    const seen = logged(files.log).map((e) => e.seq);
    expect(seen).toEqual([...acked.map((m) => m.seq)].sort((a, b) => a - b).concat(last.seq));
    await kill(child, "SIGTERM");
  });
});

describe.runIf(dialects.includes("postgresql"))("two server processes with Redis", () => {
  let a: TestServer;
  let b: TestServer;
  let ana: Person;

  beforeAll(async () => {
    [a, b] = await startTwoProcesses();
    ana = await signUpPerson(a, { handle: "ana" });
    await liftMessageRates(ana);
  });
  afterAll(async () => {
    closeSockets();
    await b.dispose();
    await a.dispose();
  });

  it("delivers a sender's messages on one process to receivers on both, in the same order", async () => {
    const ben = await signUpPerson(b, { handle: "ben", inviteToken: (await ana.api.workspace.createInvite.mutate({})).token });
    const agent = await createAgent(ana, "twin");
    const room = await ana.api.rooms.createChannel.mutate({ name: "shared", visibility: "private", memberIds: [ben.participantId, agent.id] });
    await ana.api.agents.setDeliveryMode.mutate({ roomId: room.id, mode: "all", participantId: agent.id });

    const onA = collect(await ana.socket(), "message:new");
    const benOnB = await openSocket(b.url, ben.cookie);
    const onB = collect(benOnB, "message:new");
    // A socket taking batches (as the browser does) on the other process: batches cross Redis too.
    const batchedOnB = collectMessages(await openSocket(b.url, ben.cookie, { features: ["message:batch"] }));
    const agentOnB = new SwitchboardClient({ url: b.url, apiKey: agent.apiKey });
    const agentSeen: number[] = [];
    agentOnB.onMessage((m) => void (m.kind === "text" && agentSeen.push(m.seq)));
    await agentOnB.connect();

    const sender = await ana.socket();
    const seqs: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; i < 25; i++) {
          const ack = (await sender.timeout(10_000).emitWithAck("message:send", { roomId: room.id, body: `w${w}-${i}`, clientMsgId: randomUUID() })) as {
            data: MessageView;
          };
          seqs.push(ack.data.seq);
        }
      }),
    );
    seqs.sort((x, y) => x - y);
    const texts = (events: typeof onA) => events.filter((e) => e.message.kind === "text").map((e) => e.seq);
    await waitFor(
      () => texts(onA).length === 100 && texts(onB).length === 100 && texts(batchedOnB.seen).length === 100 && agentSeen.length === 100,
      20_000,
      "fan-out on both processes",
    );
    expect(texts(onB).sort((x, y) => x - y)).toEqual(seqs);
    expect(texts(batchedOnB.seen)).toEqual(seqs); // in order as they came, batched or not
    expect(texts(onA).sort((x, y) => x - y)).toEqual(seqs);
    expect(agentSeen).toEqual(seqs); // the SDK hands them over in seq order
    await agentOnB.close();
  });

  it("keeps a room's seqs contiguous with writers on both processes and members joining and leaving meanwhile", async () => {
    const invite = (await ana.api.workspace.createInvite.mutate({ maxUses: 10 })).token;
    const ben = await signUpPerson(b, { handle: "bex", inviteToken: invite });
    const cy = await signUpPerson(b, { handle: "cy", inviteToken: invite });
    const room = await ana.api.rooms.createChannel.mutate({ name: "busy-both", visibility: "public", memberIds: [ben.participantId] });
    const [onA, onB] = await Promise.all([ana.socket(), openSocket(b.url, ben.cookie)]);
    const acks: MessageView[] = [];
    const writer = (socket: typeof onA, tag: string) =>
      Promise.all(
        Array.from({ length: 4 }, async (_, w) => {
          for (let i = 0; i < 25; i++) {
            const r = (await socket
              .timeout(10_000)
              .emitWithAck("message:send", { roomId: room.id, body: `${tag}${w}-${i}`, clientMsgId: randomUUID() })) as Ack<MessageView>;
            if (!r.ok) throw new Error(`${tag}: ${r.error.code} ${r.error.message}`);
            acks.push(r.data);
          }
        }),
      );
    // Someone joins and leaves while both write: each appends an event, so each moves the room under a batch in flight.
    const churn = (async () => {
      for (let i = 0; i < 3; i++) {
        await cy.api.rooms.join.mutate({ roomId: room.id });
        await cy.api.rooms.leave.mutate({ roomId: room.id });
      }
    })();
    await Promise.all([writer(onA, "a"), writer(onB, "b"), churn]);

    const stored = await queryDb<{ seq: number; clientMsgId: string; kind: string }>(
      a,
      `SELECT "seq", "clientMsgId", "kind" FROM "Message" WHERE "roomId" = $1 ORDER BY "seq"`,
      [room.id],
    );
    const { lastSeq } = await ana.api.rooms.get.query({ roomId: room.id });
    expect(stored.map((m) => Number(m.seq))).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
    expect(stored.filter((m) => m.kind === "text")).toHaveLength(200);
    // Every ack names the seq its message was stored at, and no two share one.
    const bySeq = new Map(stored.map((m) => [Number(m.seq), m.clientMsgId]));
    expect(acks.every((m) => bySeq.get(m.seq) === m.clientMsgId)).toBe(true);
    expect(new Set(acks.map((m) => m.seq)).size).toBe(200);
  });

  it("suspends an agent sending under load on the other process: nothing commits after the suspension, and it is cut off everywhere", async () => {
    const owner = ana;
    const agent = await createAgent(owner, "chatterbox");
    await owner.api.workspace.setLimits.mutate({ agentMessagesPerMinute: 10_000, agentBurst: 1000, loopGuardMessages: 10_000 });
    const room = await owner.api.rooms.createChannel.mutate({ name: "noisy", visibility: "private", memberIds: [agent.id] });
    // The agent holds sockets on both processes and floods from the one on B.
    const [onA, onB] = await Promise.all([openAgentSocket(a.url, agent.apiKey), openAgentSocket(b.url, agent.apiKey)]);
    const cut = (s: typeof onA) => new Promise<number>((resolve) => s.once("disconnect", () => resolve(performance.now())));
    const [cutA, cutB] = [cut(onA), cut(onB)];
    let acked = 0;
    let refused = "";
    const flood = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!refused && onB.connected) {
          const r = (await onB
            .timeout(5000)
            .emitWithAck("message:send", { roomId: room.id, body: "spam", clientMsgId: randomUUID() })
            .catch(() => ({ ok: false, error: { code: "DISCONNECTED" } }))) as Ack<MessageView>;
          if (r.ok) acked++;
          else refused = r.error.code;
        }
      }),
    );
    await waitFor(() => acked >= 50, 20_000, "flood underway");
    const start = performance.now();
    await owner.api.agents.suspend.mutate({ agentId: agent.id }); // on process A
    const committed = await queryDb<{ n: number }>(a, `SELECT COUNT(*) AS n FROM "Message" WHERE "authorId" = $1`, [agent.id]);
    const [doneA, doneB] = await Promise.all([cutA, cutB]);
    await flood;
    const cutOffMs = Math.max(doneA, doneB) - start;
    console.log(`kill switch: ${acked} messages acked before; all sockets cut ${cutOffMs.toFixed(0)} ms after the request`);
    expect(cutOffMs).toBeLessThan(1000);
    // Every send the agent made went into B's queue for the room as B received it (before its socket
    // was cut); a message sent on B now queues behind them, so once it is stored each of them has been
    // stored or refused.
    await apiClient(b.url, owner.cookie).messages.send.mutate({ roomId: room.id, body: "sentinel", clientMsgId: randomUUID() });
    const later = await queryDb<{ n: number }>(a, `SELECT COUNT(*) AS n FROM "Message" WHERE "authorId" = $1`, [agent.id]);
    expect(Number(later[0].n)).toBe(Number(committed[0].n));
    expect(Number(later[0].n)).toBeGreaterThanOrEqual(acked);
  });
});
