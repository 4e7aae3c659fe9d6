import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeUnreached, type Ack, type MessageView, type SentMessageView } from "@switchboard/sdk/contract";
import { closeSockets, collect, createAgent, dialects, emitAck, errorCode, openAgentSocket, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

/** Four sends in flight from `socket` at all times until stopped: batches follow one another in the room. */
function keepBusy(socket: Awaited<ReturnType<Person["socket"]>>, roomId: string) {
  let flooding = true;
  const done = Promise.all(
    Array.from({ length: 4 }, async () => {
      while (flooding) {
        const r = await emitAck<Ack<MessageView>>(socket, "message:send", { roomId, body: "busy", clientMsgId: randomUUID() });
        if (!r.ok) throw new Error(`flood refused: ${r.error.code}`);
      }
    }),
  );
  return {
    async stop() {
      flooding = false;
      await done;
    },
  };
}

describe.each(dialects)("messages on %s", (dialect) => {
  let server: TestServer;
  let ana: Person;
  let ben: Person;
  let cy: Person;
  let roomId: string;

  beforeAll(async () => {
    ({
      server,
      people: { ana, ben, cy },
    } = await startWorkspace(dialect, { people: { ana: "owner", ben: "member", cy: "member" }, liftRates: true }));
    const room = await ana.api.rooms.createChannel.mutate({ name: "launch", visibility: "private", memberIds: [ben.participantId] });
    roomId = room.id;
  });
  afterAll(async () => {
    closeSockets();
    await server.dispose();
  });

  it("acks a socket send after commit with the stored message, and fans it out in seq order", async () => {
    const [a, b] = await Promise.all([ana.socket(), ben.socket()]);
    const seenByBen = collect(b, "message:new");
    const sent: MessageView[] = [];
    for (let i = 0; i < 5; i++) {
      const ack = await emitAck<Ack<MessageView>>(a, "message:send", { roomId, body: `hello ${i}`, clientMsgId: randomUUID() });
      expect(ack.ok).toBe(true);
      if (ack.ok) sent.push(ack.data);
    }
    // tRPC sends take the same path.
    sent.push(await ben.api.messages.send.mutate({ roomId, body: "from tRPC", clientMsgId: randomUUID() }));
    const seqs = sent.map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
    await waitFor(() => seenByBen.filter((e) => e.roomId === roomId && e.message.kind === "text").length >= 6, 10_000, "fan-out");
    const texts = seenByBen.filter((e) => e.message.kind === "text").map((e) => [e.seq, e.message.body]);
    expect(texts).toEqual(sent.map((m) => [m.seq, m.body]));
    expect(sent[0].author).toMatchObject({ handle: "ana", kind: "human" });
  });

  it("tells the sender whom its mentions will not reach now: not in the room, suspended, or an agent not connected", async () => {
    const room = await ana.api.rooms.createChannel.mutate({ name: `reach-${dialect}`, visibility: "private", memberIds: [ben.participantId] });
    const [awake, asleep, stopped] = await Promise.all([
      createAgent(ana, `awake-${dialect}`),
      createAgent(ana, `asleep-${dialect}`),
      createAgent(ana, `stopped-${dialect}`),
    ]);
    await ana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [awake.id, asleep.id, stopped.id] });
    await ana.api.agents.suspend.mutate({ agentId: stopped.id, reason: "test" });
    await openAgentSocket(server.url, awake.apiKey);
    const socket = await ana.socket();
    const body = `@ben @cy @awake-${dialect} @asleep-${dialect} @stopped-${dialect} @nobody-here and \`@cy\` in code`;
    const sent = await emitAck<Ack<SentMessageView>>(socket, "message:send", { roomId: room.id, body, clientMsgId: randomUUID() });
    expect(sent.ok).toBe(true);
    if (!sent.ok) return;
    // Ben (a member) and the connected agent are reached; an unknown handle is plain text.
    expect(sent.data.unreached?.map((u) => [u.handle, u.reason])).toEqual([
      [`asleep-${dialect}`, "offline"],
      ["cy", "not_a_member"],
      [`stopped-${dialect}`, "suspended"],
    ]);
    expect(describeUnreached(sent.data.unreached!)).toContain("@cy (not in this room)");
    // Everyone else sees the message as it is: what reached nobody is for its author alone.
    const seen = (await ben.api.messages.history.query({ roomId: room.id })).messages.find((m) => m.id === sent.data.id);
    expect(seen).not.toHaveProperty("unreached");
    // A message that mentions nobody it cannot reach says nothing more.
    const plain = await emitAck<Ack<SentMessageView>>(socket, "message:send", { roomId: room.id, body: "@ben hi", clientMsgId: randomUUID() });
    expect(plain.ok && plain.data.unreached).toBeUndefined();
  });

  it("stores one sender's messages in the order sent, even without waiting for acks", async () => {
    const a = await ana.socket();
    const acks = await Promise.all(
      Array.from({ length: 20 }, (_, i) => emitAck<Ack<MessageView>>(a, "message:send", { roomId, body: `burst ${i}`, clientMsgId: randomUUID() })),
    );
    const seqs = acks.map((r) => (r.ok ? r.data.seq : -1));
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
  });

  it("returns the original message for a repeated clientMsgId, even sent 5 times at once", async () => {
    const a = await ana.socket();
    const clientMsgId = randomUUID();
    const acks = await Promise.all(Array.from({ length: 5 }, () => emitAck<Ack<MessageView>>(a, "message:send", { roomId, body: "once", clientMsgId })));
    const ids = new Set(acks.map((r) => (r.ok ? r.data.id : r.error.code)));
    expect(ids.size).toBe(1);
    const again = await ana.api.messages.send.mutate({ roomId, body: "once", clientMsgId });
    expect(ids.has(again.id)).toBe(true);
    const { messages } = await ana.api.messages.sync.query({ roomId, afterSeq: 0, limit: 1000 });
    expect(messages.filter((m) => m.clientMsgId === clientMsgId)).toHaveLength(1);
  });

  it("never skips or repeats a seq under concurrent writers", async () => {
    const before = (await ana.api.rooms.get.query({ roomId })).lastSeq;
    const writers = [ana, ben];
    const sockets = await Promise.all([ana.socket(), ana.socket(), ben.socket(), ben.socket()]);
    await Promise.all(
      sockets.map((s, w) =>
        Promise.all(
          Array.from({ length: 15 }, (_, i) =>
            emitAck<Ack<MessageView>>(s, "message:send", { roomId, body: `w${w} m${i} ${writers[w % 2].handle}`, clientMsgId: randomUUID() }),
          ),
        ),
      ),
    );
    const { messages } = await ana.api.messages.sync.query({ roomId, afterSeq: before, limit: 1000 });
    expect(messages).toHaveLength(60);
    expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: 60 }, (_, i) => before + 1 + i));
  });

  it("acks every send of a batch with exactly the message stored, mentions and threads included", async () => {
    const [a, b] = await Promise.all([ana.socket(), ben.socket()]);
    const root = await ana.api.messages.send.mutate({ roomId, body: "batch root", clientMsgId: randomUUID() });
    // Two senders, no waiting: the server stores these in a few batches.
    const acks = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const [socket, body] = i % 2 ? [b, `@ana batch ${i}`] : [a, `batch ${i} for @ben and @cy`];
        return emitAck<Ack<MessageView>>(socket, "message:send", {
          roomId,
          body,
          clientMsgId: randomUUID(),
          ...(i % 5 === 0 ? { threadRootId: root.id } : {}),
        });
      }),
    );
    const sent = acks.map((r) => (r.ok ? r.data : null));
    expect(sent.every(Boolean)).toBe(true);
    const { messages } = await ana.api.messages.sync.query({ roomId, afterSeq: root.seq, limit: 100 });
    const stored = new Map(messages.map((m) => [m.id, m]));
    // The stored message, and for its author alone, whom its mentions did not reach.
    for (const m of sent) {
      const { unreached: _unreached, ...message } = m as SentMessageView;
      expect(message).toEqual(stored.get(m!.id));
    }
    expect(sent[1]!.mentions).toEqual([ana.participantId]);
    expect(sent[2]!.mentions).toEqual([ben.participantId]); // cy is not in the room: plain text
    expect((sent[2] as SentMessageView).unreached).toEqual([{ participantId: cy.participantId, handle: "cy", reason: "not_a_member" }]);
    expect((await ana.api.messages.thread.query({ messageId: root.id })).root.replyCount).toBe(8);
  });

  it("settles each send of a batch on its own: refusals do not hold back or gap the others", async () => {
    const [a, c] = await Promise.all([ana.socket(), cy.socket()]);
    const other = await ana.api.rooms.createChannel.mutate({ name: `elsewhere-${dialect}`, visibility: "public" });
    const foreignRoot = await ana.api.messages.send.mutate({ roomId: other.id, body: "not here", clientMsgId: randomUUID() });
    const before = (await ana.api.rooms.get.query({ roomId })).lastSeq;
    const twin = randomUUID();
    const code = (r: Ack<MessageView>) => (r.ok ? "OK" : r.error.code);
    const results = await Promise.all([
      emitAck<Ack<MessageView>>(a, "message:send", { roomId, body: "first", clientMsgId: randomUUID() }),
      emitAck<Ack<MessageView>>(c, "message:send", { roomId, body: "not a member", clientMsgId: randomUUID() }),
      emitAck<Ack<MessageView>>(a, "message:send", { roomId, body: "bad thread", clientMsgId: randomUUID(), threadRootId: foreignRoot.id }),
      emitAck<Ack<MessageView>>(a, "message:send", { roomId, body: "twin", clientMsgId: twin }),
      emitAck<Ack<MessageView>>(a, "message:send", { roomId, body: "twin", clientMsgId: twin }),
      emitAck<Ack<MessageView>>(a, "message:send", { roomId, body: "last", clientMsgId: randomUUID() }),
    ]);
    expect(results.map(code)).toEqual(["OK", "ROOM_NOT_FOUND", "MESSAGE_NOT_FOUND", "OK", "OK", "OK"]);
    const [first, , , t1, t2, last] = results.map((r) => (r.ok ? r.data : null));
    expect(t1!.id).toBe(t2!.id);
    expect([first!.seq, t1!.seq, last!.seq]).toEqual([before + 1, before + 2, before + 3]);
    expect((await ana.api.rooms.get.query({ roomId })).lastSeq).toBe(before + 3);
  });

  it("decides every batch of a busy room on what holds now: joins, leaves and delivery modes take effect at once", async () => {
    const agent = await createAgent(ana, `scout${dialect}`);
    const busy = await ana.api.rooms.createChannel.mutate({ name: `busy-${dialect}`, visibility: "public", memberIds: [agent.id] });
    await ana.api.agents.setDeliveryMode.mutate({ roomId: busy.id, mode: "all", participantId: agent.id });
    const [flooder, cySocket, agentSocket] = await Promise.all([ana.socket(), cy.socket(), openAgentSocket(server.url, agent.apiKey)]);
    const toAgent = collect(agentSocket, "message:new");
    const flood = keepBusy(flooder, busy.id);
    const send = (socket: typeof flooder, body: string) =>
      emitAck<Ack<MessageView>>(socket, "message:send", { roomId: busy.id, body, clientMsgId: randomUUID() });
    try {
      for (let round = 0; round < 3; round++) {
        await cy.api.rooms.join.mutate({ roomId: busy.id });
        expect((await send(cySocket, `cy in, round ${round}`)).ok).toBe(true);
        await cy.api.rooms.leave.mutate({ roomId: busy.id });
        const refused = await send(cySocket, `cy out, round ${round}`);
        expect(refused.ok ? "stored" : refused.error.code).toBe("NOT_A_MEMBER");
      }
      // The agent now hears only what is addressed to it, mid-stream: a mention right after reaches it.
      await ana.api.agents.setDeliveryMode.mutate({ roomId: busy.id, mode: "mentions", participantId: agent.id });
      const mention = await send(flooder, `@scout${dialect} over to you`);
      expect(mention.ok).toBe(true);
      const seq = mention.ok ? mention.data.seq : -1;
      await waitFor(() => toAgent.some((e) => e.seq === seq), 5000, "the mention reaches the agent");
    } finally {
      await flood.stop();
    }
  });

  it("in a busy room, counts an agent's new limits and the workspace's from its very next send, and answers a late retry with the original", async () => {
    const agent = await createAgent(ana, `pace-${dialect}`);
    const busy = await ana.api.rooms.createChannel.mutate({ name: `pace-${dialect}`, visibility: "public", memberIds: [agent.id] });
    const [flooder, agentSocket] = await Promise.all([ana.socket(), openAgentSocket(server.url, agent.apiKey)]);
    // Each batch is decided on what the previous one left (PostgreSQL).
    const flood = keepBusy(flooder, busy.id);
    const send = (body: string, clientMsgId: string = randomUUID()) =>
      emitAck<Ack<MessageView>>(agentSocket, "message:send", { roomId: busy.id, body, clientMsgId });
    const codes = async (n: number) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push(((r) => (r.ok ? "OK" : r.error.code))(await send(`paced ${i}`)));
      return out;
    };
    try {
      const first = await send("first", `pace-first-${dialect}`);
      expect(first.ok).toBe(true);
      expect(await codes(3)).toEqual(["OK", "OK", "OK"]);
      // Its own limit (3 a minute, a burst of 2: five pass), then the workspace's (4 and 1: five again).
      await ana.api.agents.setLimits.mutate({ agentId: agent.id, messagesPerMinute: 3, burst: 2 });
      expect(await codes(6)).toEqual(["OK", "OK", "OK", "OK", "OK", "RATE_LIMITED"]);
      await ana.api.agents.setLimits.mutate({ agentId: agent.id, messagesPerMinute: null, burst: null });
      await ana.api.workspace.setLimits.mutate({ agentMessagesPerMinute: 4, agentBurst: 1 });
      expect(await codes(6)).toEqual(["OK", "OK", "OK", "OK", "OK", "RATE_LIMITED"]);
      // A retry long after, many batches later, gets what the first attempt stored.
      const retry = await send("first", `pace-first-${dialect}`);
      expect(retry.ok && { id: retry.data.id, seq: retry.data.seq, body: retry.data.body }).toEqual(
        first.ok && { id: first.data.id, seq: first.data.seq, body: "first" },
      );
    } finally {
      await flood.stop();
      await ana.api.workspace.setLimits.mutate({ agentMessagesPerMinute: 60, agentBurst: 20 });
    }
  });

  it("applies the loop guard in order within a burst: one notice, then ROOM_PAUSED until a person speaks", async () => {
    await ana.api.workspace.setLimits.mutate({ loopGuardMessages: 5, loopGuardWindowSec: 60 });
    try {
      const bots = await Promise.all([createAgent(ana, `tick-${dialect}`), createAgent(ana, `tock-${dialect}`)]);
      const room = await ana.api.rooms.createChannel.mutate({ name: `burst-${dialect}`, visibility: "private", memberIds: bots.map((x) => x.id) });
      const sockets = await Promise.all(bots.map((x) => openAgentSocket(server.url, x.apiKey)));
      const volley = () =>
        Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            emitAck<Ack<MessageView>>(sockets[i % 2], "message:send", { roomId: room.id, body: `volley ${i}`, clientMsgId: randomUUID() }),
          ),
        );
      const codes = (await volley()).map((r) => (r.ok ? "OK" : r.error.code));
      expect(codes.filter((c) => c === "OK")).toHaveLength(5);
      expect(codes.filter((c) => c === "ROOM_PAUSED")).toHaveLength(7);
      const { messages } = await ana.api.messages.history.query({ roomId: room.id, limit: 50 });
      expect(messages.filter((m) => m.kind === "system" && m.body.includes("Agents are paused here"))).toHaveLength(1);
      // Still paused: no second notice.
      expect((await volley()).every((r) => !r.ok && r.error.code === "ROOM_PAUSED")).toBe(true);
      await ana.api.messages.send.mutate({ roomId: room.id, body: "carry on", clientMsgId: randomUUID() });
      const after = await volley();
      expect(after.filter((r) => r.ok)).toHaveLength(5);
      const all = await ana.api.messages.sync.query({ roomId: room.id, afterSeq: 0, limit: 100 });
      expect(all.messages.filter((m) => m.kind === "system" && m.body.includes("Agents are paused here"))).toHaveLength(2);
      expect(all.messages.map((m) => m.seq)).toEqual(Array.from({ length: all.messages.length }, (_, i) => i + 1));
    } finally {
      await ana.api.workspace.setLimits.mutate({ loopGuardMessages: 30, loopGuardWindowSec: 300 });
    }
  });

  it("refuses bad input with stable codes and writes nothing", async () => {
    const a = await ana.socket();
    const c = await cy.socket();
    const lastSeq = async () => (await ana.api.rooms.get.query({ roomId })).lastSeq;
    const start = await lastSeq();
    const send = (s: typeof a, payload: unknown) => emitAck<Ack<MessageView>>(s, "message:send", payload);
    const code = (r: Ack<MessageView>) => (r.ok ? "OK" : r.error.code);

    expect(code(await send(a, { roomId, body: "   ", clientMsgId: randomUUID() }))).toBe("MESSAGE_EMPTY");
    expect(code(await send(a, { roomId, body: "x".repeat(32 * 1024 + 1), clientMsgId: randomUUID() }))).toBe("MESSAGE_TOO_LARGE");
    expect(code(await send(a, { roomId: "no-such-room", body: "hi", clientMsgId: randomUUID() }))).toBe("ROOM_NOT_FOUND");
    // A non-member is not told the private room exists.
    expect(code(await send(c, { roomId, body: "let me in", clientMsgId: randomUUID() }))).toBe("ROOM_NOT_FOUND");
    for (const bad of [null, 42, "text", [], { roomId }, { roomId, body: 5, clientMsgId: "x" }, { roomId, body: "hi", clientMsgId: "x", extra: 1 }]) {
      expect(code(await send(a, bad))).toBe("INVALID_PAYLOAD");
    }
    const polluted = JSON.parse(`{"roomId":"${roomId}","body":"hi","clientMsgId":"p","__proto__":{"admin":true}}`);
    expect(code(await send(a, polluted))).toBe("INVALID_PAYLOAD");
    const unknown = await emitAck<Ack<unknown>>(a, "room:explode", { roomId });
    expect(unknown.ok ? "OK" : unknown.error.code).toBe("UNKNOWN_EVENT");
    expect(await errorCode(ana.api.messages.send.mutate({ roomId, body: "", clientMsgId: randomUUID() }))).toBe("MESSAGE_EMPTY");
    expect(await errorCode(cy.api.messages.history.query({ roomId, limit: 10 }))).toBe("ROOM_NOT_FOUND");
    expect(await errorCode(cy.api.messages.sync.query({ roomId, afterSeq: 0, limit: 10 }))).toBe("ROOM_NOT_FOUND");
    expect(await errorCode(cy.api.rooms.members.query({ roomId }))).toBe("ROOM_NOT_FOUND");

    // The connection survived all of it, and nothing was written.
    expect(a.connected && c.connected).toBe(true);
    expect(await lastSeq()).toBe(start);
  });

  it("keeps markup inert: bodies are stored and returned as text", async () => {
    const body = `<img src=x onerror="alert(1)"><script>alert(1)</script>`;
    const m = await ana.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID() });
    expect(m.body).toBe(body);
  });

  it("threads replies under their root and refuses nested threads", async () => {
    const root = await ana.api.messages.send.mutate({ roomId, body: "thread root", clientMsgId: randomUUID() });
    const reply = await ben.api.messages.send.mutate({ roomId, body: "a reply", clientMsgId: randomUUID(), threadRootId: root.id });
    await ana.api.messages.send.mutate({ roomId, body: "another", clientMsgId: randomUUID(), threadRootId: root.id });
    const t = await ben.api.messages.thread.query({ messageId: reply.id });
    expect(t.root.id).toBe(root.id);
    expect(t.root.replyCount).toBe(2);
    expect(t.replies.map((r) => r.body)).toEqual(["a reply", "another"]);
    expect(await errorCode(ana.api.messages.send.mutate({ roomId, body: "nested", clientMsgId: randomUUID(), threadRootId: reply.id }))).toBe(
      "INVALID_PAYLOAD",
    );
    // Replies are not in the main timeline.
    const { messages } = await ana.api.messages.history.query({ roomId, limit: 200 });
    expect(messages.some((m) => m.id === reply.id)).toBe(false);
  });

  it("lets authors edit and delete their own messages, and tells the room", async () => {
    const b = await ben.socket();
    const updates = collect(b, "message:updated");
    const m = await ana.api.messages.send.mutate({ roomId, body: "typo here", clientMsgId: randomUUID() });
    const edited = await ana.api.messages.edit.mutate({ messageId: m.id, body: "fixed, @ben" });
    expect(edited.editedAt).not.toBeNull();
    expect(edited.mentions).toEqual([ben.participantId]);
    expect(await errorCode(ben.api.messages.edit.mutate({ messageId: m.id, body: "mine now" }))).toBe("FORBIDDEN");
    expect(await errorCode(ben.api.messages.delete.mutate({ messageId: m.id }))).toBe("FORBIDDEN");
    const deleted = await ana.api.messages.delete.mutate({ messageId: m.id });
    expect(deleted.deletedAt).not.toBeNull();
    expect(deleted.body).toBe("");
    await waitFor(() => updates.filter((u) => u.message.id === m.id).length === 2, 10_000, "updates");
    expect(updates.map((u) => u.seq)).toEqual([m.seq, m.seq]);
  });

  it("pages history by seq and syncs from a cursor", async () => {
    const { id } = await ana.api.rooms.createChannel.mutate({ name: `paging-${dialect}`, visibility: "public" });
    for (let i = 0; i < 120; i++) await ana.api.messages.send.mutate({ roomId: id, body: `m${i}`, clientMsgId: randomUUID() });
    const page1 = await ana.api.messages.history.query({ roomId: id, limit: 50 });
    expect(page1.hasMore).toBe(true);
    expect(page1.messages.at(-1)?.body).toBe("m119");
    const page2 = await ana.api.messages.history.query({ roomId: id, beforeSeq: page1.messages[0].seq, limit: 50 });
    const page3 = await ana.api.messages.history.query({ roomId: id, beforeSeq: page2.messages[0].seq, limit: 50 });
    expect(page3.hasMore).toBe(false);
    const all = [...page3.messages, ...page2.messages, ...page1.messages].filter((m) => m.kind === "text");
    expect(all.map((m) => m.body)).toEqual(Array.from({ length: 120 }, (_, i) => `m${i}`));
    const synced = await ana.api.messages.sync.query({ roomId: id, afterSeq: all[99].seq, limit: 10 });
    expect(synced.messages.map((m) => m.body)).toEqual(Array.from({ length: 10 }, (_, i) => `m${100 + i}`));
    expect(synced.hasMore).toBe(true);
  });

  it("counts unread messages and mentions per member until read", async () => {
    const { id } = await ana.api.rooms.createChannel.mutate({ name: `unread-${dialect}`, visibility: "public", memberIds: [ben.participantId] });
    await ana.api.messages.send.mutate({ roomId: id, body: "one", clientMsgId: randomUUID() });
    await ana.api.messages.send.mutate({ roomId: id, body: "two @ben", clientMsgId: randomUUID() });
    const last = await ana.api.messages.send.mutate({ roomId: id, body: "`@ben` in code is not a mention", clientMsgId: randomUUID() });
    const benRoom = (await ben.api.rooms.mine.query()).find((r) => r.id === id)!;
    expect(benRoom).toMatchObject({ unread: 3, mentions: 1 });
    expect((await ana.api.rooms.mine.query()).find((r) => r.id === id)).toMatchObject({ unread: 0, mentions: 0 });
    await ben.api.messages.markRead.mutate({ roomId: id, seq: last.seq });
    expect((await ben.api.rooms.mine.query()).find((r) => r.id === id)).toMatchObject({ unread: 0, mentions: 0 });
  });
});
