// Bursts: a client that sends many requests without waiting for their answers is slowed, not refused.
// Past its in-flight window its requests wait in the connection's buffer (server/socket/backlog.ts), in
// arrival order, and each is answered; a rate limit may still refuse some, and then nothing refused is
// stored. Only a connection that keeps sending into a full buffer is cut off: what it has in flight is
// answered, what waits in its buffer is dropped (neither run nor answered, so a send there is not
// stored), and a single cut-off lets it reconnect at once. Real
// Socket.IO clients (a browser-like cookie socket, raw agent sockets) against the real server.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Ack, MessageView } from "@switchboard/sdk/contract";
import { BUFFER_FULL_RETRY_MS, EVENT_LIMITS, READ_PAUSE_MS, REFUSALS_BEFORE_PAUSE } from "../../server/services/governance/request-limits";
import {
  closeSockets,
  collect,
  createAgent,
  cutOff,
  dialects,
  emitAck,
  openAgentSocket,
  unwrap,
  type ClientSocket,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

const BURST = 1000;
/**
 * How long a send of a burst may wait for its answer: each is answered in turn, behind the ones before
 * it, so the last waits for the whole burst, which takes a few seconds on a quiet machine and several
 * times that on one busy with the rest of the suite. The tests check that every one is answered, not how fast.
 */
const BURST_ANSWER_MS = 50_000;
// A test sends two bursts at most.
vi.setConfig({ testTimeout: 2 * BURST_ANSWER_MS + 20_000 });

/** `n` sends to `roomId` emitted in one go, none waiting for an answer; resolves with every ack, in send order. */
function pipelined(socket: ClientSocket, roomId: string, prefix: string, n = BURST): Promise<Ack<MessageView>[]> {
  return Promise.all(
    Array.from({ length: n }, (_, i) =>
      emitAck<Ack<MessageView>>(socket, "message:send", { roomId, body: `${prefix} ${i}`, clientMsgId: `${prefix}-${i}` }, BURST_ANSWER_MS),
    ),
  );
}

/** The bodies of the room's text messages, as stored (room:sync, page after page), in seq order. */
async function storedBodies(socket: ClientSocket, roomId: string): Promise<string[]> {
  const bodies: string[] = [];
  for (let afterSeq = 0; ;) {
    const page = unwrap(
      await emitAck<Ack<{ messages: MessageView[]; hasMore: boolean; lastSeq: number }>>(socket, "room:sync", { roomId, afterSeq, limit: 200 }),
    );
    bodies.push(...page.messages.filter((m) => m.kind === "text").map((m) => m.body));
    if (!page.hasMore) return bodies;
    afterSeq = page.lastSeq;
  }
}

/** Asserts that each ok ack's seq is above the one before it: stored in the order sent. */
function expectInOrder(acks: Ack<MessageView>[]): void {
  const seqs = acks.flatMap((a) => (a.ok ? [a.data.seq] : []));
  expect(seqs.every((seq, i) => i === 0 || seq > seqs[i - 1])).toBe(true);
}

describe.each(dialects)("bursts on %s", (dialect) => {
  let server: TestServer;
  let owner: Person;
  let loopGuardMessages: number;

  beforeAll(async () => {
    ({
      server,
      people: { olga: owner },
    } = await startWorkspace(dialect, { people: { olga: "owner" } }));
    await owner.api.workspace.setRateExemption.mutate({ exempt: true });
    // Agents alone in a room would meet the loop guard long before 1,000 sends: its highest setting.
    ({ loopGuardMessages } = await owner.api.workspace.limits.query());
    await owner.api.workspace.setLimits.mutate({ loopGuardMessages: 10_000 });
  });
  afterAll(async () => {
    await owner.api.workspace.setLimits.mutate({ loopGuardMessages });
    closeSockets();
    await server.dispose();
  });

  /** An agent in a room of its own (with the owner), its socket, and what the server told it in `error` events. */
  async function agentInRoom(handle: string, limits?: { messagesPerMinute: number; burst: number }) {
    const agent = await createAgent(owner, handle);
    if (limits) await owner.api.agents.setLimits.mutate({ agentId: agent.id, ...limits });
    const room = await owner.api.rooms.createChannel.mutate({ name: `${handle}-${dialect}`, visibility: "private", memberIds: [agent.id] });
    const socket = await openAgentSocket(server.url, agent.apiKey);
    return { agent, room, socket, errors: collect(socket, "error") };
  }

  it(`stores every one of ${BURST} sends the workspace's owner pipelines on one socket, in order, each acked`, async () => {
    const room = await owner.api.rooms.createChannel.mutate({ name: `owner-burst-${dialect}`, visibility: "private" });
    const socket = await owner.socket({ features: ["message:batch"] });
    const errors = collect(socket, "error");
    const acks = await pipelined(socket, room.id, "owner");
    expect(acks.filter((a) => !a.ok)).toEqual([]);
    expectInOrder(acks);
    expect(await storedBodies(socket, room.id)).toEqual(Array.from({ length: BURST }, (_, i) => `owner ${i}`));
    expect(socket.connected).toBe(true);
    expect(errors).toEqual([]);
  });

  it(`answers every one of ${BURST} sends an agent pipelines: at the highest limits an admin can set all are stored in order; at the defaults what is refused is not stored`, async () => {
    const highest = await agentInRoom("piper", { messagesPerMinute: 10_000, burst: 10_000 });
    const acks = await pipelined(highest.socket, highest.room.id, "piper");
    expect(acks.filter((a) => !a.ok)).toEqual([]);
    expectInOrder(acks);
    expect(await storedBodies(highest.socket, highest.room.id)).toEqual(Array.from({ length: BURST }, (_, i) => `piper ${i}`));
    expect(highest.socket.connected).toBe(true);
    expect(highest.errors).toEqual([]);

    // At the workspace's defaults its rate refuses most: each refusal is answered, is RATE_LIMITED with
    // a wait, and stores nothing; what was accepted is stored in order; the connection is not cut off.
    const defaults = await agentInRoom("trickle");
    const answers = await pipelined(defaults.socket, defaults.room.id, "trickle");
    const refused = answers.filter((a) => !a.ok);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((a) => !a.ok && a.error.code === "RATE_LIMITED" && a.error.retryAfterMs! > 0)).toBe(true);
    expectInOrder(answers);
    const accepted = answers.flatMap((a, i) => (a.ok ? [`trickle ${i}`] : []));
    expect(accepted.length).toBeGreaterThan(0);
    expect(await storedBodies(defaults.socket, defaults.room.id)).toEqual(accepted);
    expect(defaults.socket.connected).toBe(true);
    expect(defaults.errors).toEqual([]);
  });

  it("stops reading, for a while, a socket that sends on while refused: all it sent is answered, in order, and it is not closed", async () => {
    const { socket, errors } = await agentInRoom("insistent");
    const search = (i: number) => emitAck<Ack<unknown[]>>(socket, "directory:search", { text: `insistent ${i}`, limit: 1 });
    // Past the event's limit, then one refusal more than a pause allows.
    const allowed = EVENT_LIMITS["directory:search"].points;
    const answers = await Promise.all(Array.from({ length: allowed + REFUSALS_BEFORE_PAUSE + 1 }, (_, i) => search(i)));
    expect(answers.slice(0, allowed).every((a) => a.ok)).toBe(true);
    expect(answers.slice(allowed).every((a) => !a.ok && a.error.code === "RATE_LIMITED")).toBe(true);
    // The last refusal paused its reading: the next request is read, and answered, only once the pause
    // is over (a lower bound, with room for the last answer's own way to the client).
    const sent = performance.now();
    const next = await search(allowed + REFUSALS_BEFORE_PAUSE + 1);
    expect(performance.now() - sent).toBeGreaterThanOrEqual(READ_PAUSE_MS / 2);
    expect(next.ok ? null : next.error.code).toBe("RATE_LIMITED");
    expect(socket.connected).toBe(true);
    expect(errors).toEqual([]);
  });

  it("cuts off a socket that keeps sending into its full buffer: answers what is in flight, drops (and stores none of) what waited in its buffer, then lets it reconnect at once", async () => {
    const { agent, room, socket } = await agentInRoom("gusher", { messagesPerMinute: 10_000, burst: 10_000 });
    const { told, waits, buffered, refused, closed } = await cutOff(socket, (i) => [
      "message:send",
      { roomId: room.id, body: `buffered ${i}`, clientMsgId: `buffered-${i}` },
    ]);
    expect(refused.every((r) => !r.ok && r.error.code === "RATE_LIMITED" && r.error.retryAfterMs === BUFFER_FULL_RETRY_MS)).toBe(true);
    // A first cut-off: it may reconnect after the buffer's short wait.
    expect(told).toMatchObject({ code: "RATE_LIMITED", event: "flood", retryAfterMs: BUFFER_FULL_RETRY_MS });
    // What it sends now is dropped unread: neither answered nor stored.
    (socket.emit as (...args: unknown[]) => void)("message:send", { roomId: room.id, body: "after the cut-off", clientMsgId: "after" });

    // The waiting tool calls (its window) answer at once (they stop waiting); then the connection closes.
    expect((await Promise.all(waits)).every((a) => a.ok)).toBe(true);
    expect(await closed).toBe("io server disconnect");
    // Every send that waited in the buffer: unanswered when the connection closed, so not run.
    expect((await Promise.all(buffered)).every((b) => b instanceof Error && b.message === "socket has been disconnected")).toBe(true);

    const again = await openAgentSocket(server.url, agent.apiKey);
    expect(await storedBodies(again, room.id)).toEqual([]);
    expect(await emitAck(again, "message:send", { roomId: room.id, body: "sent again", clientMsgId: "buffered-0" })).toMatchObject({ ok: true });
    expect(await storedBodies(again, room.id)).toEqual(["sent again"]);
  });
});
