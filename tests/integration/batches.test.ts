// New messages committed together reach a socket that asked for the `message:batch` feature as one
// event, and every other socket as one `message:new` each: the same messages, in the same order.
import { randomUUID } from "node:crypto";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ack, MessageView } from "@switchboard/sdk/contract";
import {
  closeAgentClients,
  closeSockets,
  collectMessages,
  connectedAgent,
  createAgent,
  dialects,
  emitAck,
  openAgentSocket,
  openSocket,
  sentinel,
  waitFor,
  type ClientSocket,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

/**
 * `n` sends from `socket` all in flight at once, so the server stores them in batches. Returns the acks
 * in seq order. At most 64 from a new socket (its opening window, server/services/governance/request-limits.ts).
 */
async function burst(socket: ClientSocket, roomId: string, n: number, body = (i: number) => `burst ${i}`): Promise<MessageView[]> {
  const acks = await Promise.all(
    Array.from({ length: n }, (_, i) => emitAck<Ack<MessageView>>(socket, "message:send", { roomId, body: body(i), clientMsgId: randomUUID() })),
  );
  return acks
    .map((a) => {
      if (!a.ok) throw new Error(`send refused: ${a.error.code}`);
      return a.data;
    })
    .sort((a, b) => a.seq - b.seq);
}

describe.each(dialects)("message batches on %s", (dialect) => {
  let server: TestServer;
  let ana: Person;
  let ben: Person;

  beforeAll(async () => {
    ({
      server,
      people: { ana, ben },
    } = await startWorkspace(dialect, { people: { ana: "owner", ben: "member" }, liftRates: true }));
  });
  afterAll(async () => {
    closeSockets();
    await closeAgentClients();
    await server.dispose();
  });

  it("turns on only the features a client asks for and this server knows", async () => {
    const readyOf = async (features?: unknown) => {
      const s: ClientSocket = io(server.url, {
        path: "/socket.io",
        transports: ["websocket"],
        reconnection: false,
        extraHeaders: { cookie: ben.cookie },
        auth: features === undefined ? {} : { features },
      });
      try {
        return await new Promise<{ features: string[] } | { error: string }>((resolve) => {
          s.once("session:ready", (p) => resolve({ features: p.features }));
          s.once("connect_error", (e: Error & { data?: { code: string } }) => resolve({ error: e.data?.code ?? e.message }));
        });
      } finally {
        s.disconnect();
      }
    };
    expect(await readyOf()).toEqual({ features: [] });
    expect(await readyOf(["message:batch"])).toEqual({ features: ["message:batch"] });
    expect(await readyOf(["message:batch", "from-the-future"])).toEqual({ features: ["message:batch"] });
    expect(await readyOf("message:batch")).toEqual({ error: "INVALID_PAYLOAD" });
    expect(await readyOf([42])).toEqual({ error: "INVALID_PAYLOAD" });
    expect(await readyOf(Array.from({ length: 100 }, (_, i) => `f${i}`))).toEqual({ error: "INVALID_PAYLOAD" });
    expect(await readyOf(["message:batch"])).toEqual({ features: ["message:batch"] }); // refusals broke nothing
  });

  it("sends a batch to sockets that take batches and each message to the others, the same messages in the same order", async () => {
    const agent = await createAgent(ana, "scribe");
    const room = await ana.api.rooms.createChannel.mutate({ name: "busy", visibility: "private", memberIds: [ben.participantId, agent.id] });
    // The agent stays in `mentions` mode: what mentions it comes to it on its own, never in a batch.
    const [batching, single, agentSocket, sender] = await Promise.all([
      openSocket(server.url, ben.cookie, { features: ["message:batch"] }),
      ben.socket(),
      openAgentSocket(server.url, agent.apiKey, { features: ["message:batch"] }),
      ana.socket(),
    ]);
    const byBatch = collectMessages(batching);
    const bySingle = collectMessages(single);
    const toAgent = collectMessages(agentSocket);

    const stored = await burst(sender, room.id, 60, (i) => (i % 10 === 0 ? `@scribe look at ${i}` : `burst ${i}`));
    const seqs = stored.map((m) => m.seq);
    const texts = (seen: { roomId: string; seq: number }[]) => seen.filter((e) => e.roomId === room.id && seqs.includes(e.seq)).map((e) => e.seq);
    await waitFor(() => texts(byBatch.seen).length >= 60 && texts(bySingle.seen).length >= 60, 15_000, "both sockets to get the burst");

    // Exactly once each, in seq order, as stored.
    expect(texts(byBatch.seen)).toEqual(seqs);
    expect(texts(bySingle.seen)).toEqual(seqs);
    const bodies = new Map(stored.map((m) => [m.seq, m.body]));
    for (const e of byBatch.seen.filter((x) => seqs.includes(x.seq))) expect(e.message.body).toBe(bodies.get(e.seq));

    // Sixty sends in flight at once were stored in fewer commits than sends: batches happened, and
    // each is consecutive seqs in order, named by its last one.
    expect(byBatch.batches.length).toBeGreaterThan(0);
    for (const b of byBatch.batches) {
      expect(b.messages.length).toBeGreaterThan(1);
      expect(b.messages.map((m) => m.seq)).toEqual(b.messages.map((_, i) => b.messages[0].seq + i));
      expect(b.seq).toBe(b.messages[b.messages.length - 1].seq);
      expect(b.messages.every((m) => m.roomId === b.roomId)).toBe(true);
    }
    expect(bySingle.batches).toEqual([]);

    // The agent in `mentions` mode got the six messages that mention it, one event each, and nothing
    // else of the burst: a last mention comes after all of it.
    const last = await sentinel(ana, room.id, (marker) => toAgent.seen.some((e) => e.message.id === marker.id), "@scribe sentinel");
    expect(toAgent.seen.filter((e) => e.roomId === room.id).map((e) => e.seq)).toEqual([
      ...stored.filter((m) => m.body.startsWith("@scribe")).map((m) => m.seq),
      last.seq,
    ]);
    expect(toAgent.batches).toEqual([]);
  });

  it("hands an SDK agent in `all` mode every message of a burst once, in order", async () => {
    const reader = await connectedAgent(server, ana, "reader");
    const room = await ana.api.rooms.createChannel.mutate({ name: "firehose", visibility: "private", memberIds: [reader.id] });
    await ana.api.agents.setDeliveryMode.mutate({ roomId: room.id, mode: "all", participantId: reader.id });
    const handled: number[] = [];
    reader.client.onMessage((m) => {
      if (m.roomId === room.id && m.kind === "text") handled.push(m.seq);
    });
    const sender = await ana.socket();
    const stored = await burst(sender, room.id, 60);
    await waitFor(() => handled.length >= 60, 15_000, "the SDK handler to get the burst");
    // Nothing more may follow: the SDK hands a room's messages over in seq order, so a later one comes last.
    const last = await sentinel(ana, room.id, (marker) => handled.includes(marker.seq));
    expect(handled).toEqual([...stored.map((m) => m.seq), last.seq]);
  });
});
