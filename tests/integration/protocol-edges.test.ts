// The edges of the protocol that an outside client hits: requests without a payload or with extra
// arguments, what reaches a socket first, a socket that drops while it is welcomed, paging with
// room:sync, agents joining and leaving over the socket, the limits on chatty events and tRPC
// mutations, the cut-off of a socket sending into its full buffer, and the SDK's retries of requests that are not idempotent. Raw packets where a library
// would hide the case.
import { randomUUID } from "node:crypto";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SwitchboardClient, SwitchboardError } from "@switchboard/sdk";
import type { Ack, MessageView, RoomView } from "@switchboard/sdk/contract";
import { BUFFER_FULL_RETRY_MS, EVENT_LIMITS, FLOOD_COOLDOWN_MS, MUTATIONS } from "../../server/services/governance/request-limits";
import {
  closeAgentClients,
  closeSockets,
  collect,
  connectedAgent,
  createAgent,
  cutOff,
  dialects,
  emitAck,
  errorCode,
  openAgentSocket,
  signUpPerson,
  waitFor,
  type ClientSocket,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

/**
 * A WebSocket that speaks Engine.IO and Socket.IO packets as text, as a client in another language
 * would: `40{auth}` connects, `42[...]` is an event, `421[...]` a request with ack id 1, `431[...]` its ack.
 */
function rawClient(url: string) {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/socket.io/?EIO=4&transport=websocket`);
  const packets: string[] = [];
  let read = 0;
  let wake = () => {};
  ws.on("message", (data: Buffer) => {
    const packet = data.toString();
    if (packet === "2") return void ws.send("3"); // Engine.IO ping, pong
    packets.push(packet);
    wake();
  });
  const opened = new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  return {
    send: async (packet: string) => {
      await opened;
      ws.send(packet);
    },
    /** The next packet that matches, in arrival order; packets before it are passed over. */
    async next(match: (packet: string) => boolean, ms = 10_000): Promise<string> {
      const until = Date.now() + ms;
      for (;;) {
        while (read < packets.length) {
          const packet = packets[read++];
          if (match(packet)) return packet;
        }
        if (Date.now() > until) throw new Error(`no matching packet; got ${JSON.stringify(packets).slice(0, 500)}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
    /** The names of the events (42[...]) received so far, in order. */
    events: () => packets.filter((p) => p.startsWith("42[")).map((p) => (JSON.parse(p.slice(2)) as [string])[0]),
    close: () => ws.close(),
  };
}

/** Emits with any arguments (none, or extra ones) and an ack; rejects if no ack comes. */
function emitRaw(socket: ClientSocket, event: string, ...args: unknown[]): Promise<Ack<unknown>> {
  return new Promise((resolve, reject) => {
    const timed = socket.timeout(5_000) as unknown as { emit: (...a: unknown[]) => void };
    timed.emit(event, ...args, (error: Error | null, reply: Ack<unknown>) => (error ? reject(new Error(`${event}: no ack`)) : resolve(reply)));
  });
}

/** Runs `n` calls, at most `width` at a time (under a new socket's in-flight window, OPENING_IN_FLIGHT). */
async function inChunks<T>(n: number, call: () => Promise<T>, width = 50): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += width) out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - i) }, call))));
  return out;
}

describe.each(dialects)("protocol edges on %s", (dialect) => {
  let server: TestServer;
  let owner: Person;

  beforeAll(async () => {
    ({
      server,
      people: { olga: owner },
    } = await startWorkspace(dialect, { people: { olga: "owner" } }));
  });
  afterAll(async () => {
    closeSockets();
    await closeAgentClients();
    await server.dispose();
  });

  it("answers a request sent without a payload, or with extra arguments, on its ack", async () => {
    const agent = await createAgent(owner, "bare");
    const socket = await openAgentSocket(server.url, agent.apiKey);
    // socket.io-client's emit(event, ack) and python-socketio's call(event) send 4xy["room:list"]: no payload.
    expect(await emitRaw(socket, "room:list")).toEqual({ ok: true, data: expect.any(Array) });
    expect(await emitRaw(socket, "room:sync")).toMatchObject({ ok: false, error: { code: "INVALID_PAYLOAD", retryable: false } });
    expect(await emitRaw(socket, "room:list", {}, "extra")).toMatchObject({ ok: false, error: { code: "INVALID_PAYLOAD" } });
    expect(await emitRaw(socket, "directory:search", { text: "bare" }, { more: 1 })).toMatchObject({ ok: false, error: { code: "INVALID_PAYLOAD" } });
    expect(await emitRaw(socket, "room:list", {})).toEqual({ ok: true, data: expect.any(Array) });
  });

  it('speaks plain packets: session:ready is the first event, and 421["room:list"] is answered as 431[...]', async () => {
    const agent = await createAgent(owner, "plain");
    const raw = rawClient(server.url);
    await raw.send(`40${JSON.stringify({ apiKey: agent.apiKey, protocol: 1 })}`);
    await raw.next((p) => p.startsWith("40"));
    const first = await raw.next((p) => p.startsWith("42["));
    expect((JSON.parse(first.slice(2)) as [string])[0]).toBe("session:ready");
    await raw.next((p) => p.startsWith('42["presence:update"')); // its own presence: after session:ready
    await raw.send('421["room:list"]');
    expect(JSON.parse((await raw.next((p) => p.startsWith("431"))).slice(3))).toEqual([{ ok: true, data: expect.any(Array) }]);
    await raw.send('422["room:list",{},{}]');
    expect(JSON.parse((await raw.next((p) => p.startsWith("432"))).slice(3))).toMatchObject([{ ok: false, error: { code: "INVALID_PAYLOAD" } }]);
    expect(raw.events().slice(0, 2)).toEqual(["session:ready", "presence:update"]);
    raw.close();
  });

  it("sends nothing before session:ready to a person's socket either", async () => {
    const socket: Socket = connect(server.url, {
      path: "/socket.io",
      transports: ["websocket"],
      reconnection: false,
      autoConnect: false,
      extraHeaders: { cookie: owner.cookie },
    });
    const events: string[] = [];
    socket.onAny((event: string) => events.push(event));
    socket.connect();
    await waitFor(() => events.includes("session:ready"), 10_000, "session:ready");
    expect(events[0]).toBe("session:ready");
    socket.disconnect();
  });

  it("touches the participant's lastSeenAt when a session starts", async () => {
    const agent = await createAgent(owner, "seen");
    expect((await owner.api.agents.get.query({ agentId: agent.id })).lastSeenAt).toBeNull();
    const before = Date.now();
    await openAgentSocket(server.url, agent.apiKey);
    const seen = (await owner.api.agents.get.query({ agentId: agent.id })).lastSeenAt;
    expect(new Date(seen!).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it("does not count a socket that dropped while it was welcomed as online", async () => {
    const watcher = await owner.socket();
    const presence = collect(watcher, "presence:update");
    const flaky = await createAgent(owner, "flaky");
    // Each socket disconnects as soon as it is connected: while the server is still welcoming it. (On
    // PostgreSQL the welcome's reads wait for I/O, so the disconnect lands in them; SQLite's answer
    // without yielding to I/O, so there the race rarely happens.)
    for (let i = 0; i < 10; i++) {
      const s = connect(server.url, { path: "/socket.io", transports: ["websocket"], reconnection: false, auth: { apiKey: flaky.apiKey, protocol: 1 } });
      await new Promise<void>((resolve) =>
        s.once("connect", () => {
          s.disconnect();
          resolve();
        }),
      );
    }
    // Then one whole session: online, then offline.
    const whole = await openAgentSocket(server.url, flaky.apiKey);
    whole.disconnect();
    // Presence events leave the server in order: once the sentinel's is in, the flaky agent's are too.
    const sentinel = await createAgent(owner, "sentinel");
    await openAgentSocket(server.url, sentinel.apiKey);
    await waitFor(() => presence.some((p) => p.participantId === sentinel.id && p.online), 10_000, "the sentinel's presence");
    const flakyStates = presence.filter((p) => p.participantId === flaky.id).map((p) => p.online);
    expect(flakyStates.at(-1)).toBe(false);
    // Online and offline alternate: no socket was counted twice or left behind.
    expect(flakyStates.every((online, i) => online === (i % 2 === 0))).toBe(true);
  });

  it("pages room:sync from its lastSeq, with and without selected", async () => {
    const room = await owner.api.rooms.createChannel.mutate({ name: `paging-${dialect}`, visibility: "public" });
    for (let i = 0; i < 12; i++) await owner.api.messages.send.mutate({ roomId: room.id, body: `m${i}`, clientMsgId: randomUUID() });
    const socket = await owner.socket();
    const lastSeq = room.lastSeq + 12;
    for (const selected of [false, true]) {
      const seqs: number[] = [];
      let afterSeq = 0;
      for (let pages = 0; pages < 20; pages++) {
        const reply = await emitAck<Ack<{ messages: MessageView[]; hasMore: boolean; lastSeq: number }>>(socket, "room:sync", {
          roomId: room.id,
          afterSeq,
          limit: 5,
          selected,
        });
        if (!reply.ok) throw new Error(reply.error.code);
        seqs.push(...reply.data.messages.map((m) => m.seq));
        afterSeq = reply.data.lastSeq;
        if (!reply.data.hasMore) break;
      }
      expect(seqs, `selected: ${selected}`).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
      expect(afterSeq).toBe(lastSeq);
    }
  });

  it("lets an agent join a public channel and leave a room over the socket, as people do", async () => {
    const made = await createAgent(owner, "joiner");
    const socket = await openAgentSocket(server.url, made.apiKey);
    const added = collect(socket, "room:added");
    const removed = collect(socket, "room:removed");
    const open = await owner.api.rooms.createChannel.mutate({ name: `lobby-${dialect}`, visibility: "public" });
    const closed = await owner.api.rooms.createChannel.mutate({ name: `backroom-${dialect}`, visibility: "private" });

    const joined = await emitAck<Ack<RoomView>>(socket, "room:join", { roomId: open.id });
    expect(joined).toMatchObject({ ok: true, data: { id: open.id, memberCount: 2 } });
    await waitFor(() => added.some((a) => a.room.id === open.id), 10_000, "room:added");
    expect(await emitAck(socket, "room:join", { roomId: open.id })).toMatchObject({ ok: true }); // joining again changes nothing
    expect(await emitAck(socket, "room:join", { roomId: closed.id })).toMatchObject({ ok: false, error: { code: "ROOM_NOT_FOUND" } });
    const sent = await emitAck<Ack<MessageView>>(socket, "message:send", { roomId: open.id, body: "hello", clientMsgId: randomUUID() });
    expect(sent.ok).toBe(true);

    expect(await emitAck(socket, "room:leave", { roomId: open.id })).toEqual({ ok: true, data: { roomId: open.id } });
    await waitFor(() => removed.some((r) => r.roomId === open.id), 10_000, "room:removed");
    expect(await emitAck(socket, "message:send", { roomId: open.id, body: "still here?", clientMsgId: randomUUID() })).toMatchObject({
      ok: false,
      error: { code: "NOT_A_MEMBER" },
    });
    expect(await emitAck(socket, "room:leave", { roomId: open.id })).toMatchObject({ ok: false, error: { code: "NOT_A_MEMBER" } });
    expect((await owner.api.rooms.members.query({ roomId: open.id })).map((m) => m.participant.id)).not.toContain(made.id);

    // The SDK has them as methods.
    const { client } = await connectedAgent(server, owner, "sdk-joiner");
    expect(await client.joinRoom(open.id)).toMatchObject({ id: open.id });
    expect((await client.listRooms()).some((m) => m.room.id === open.id)).toBe(true);
    await client.leaveRoom(open.id);
    expect((await client.listRooms()).some((m) => m.room.id === open.id)).toBe(false);
  });

  it("limits each chatty event per participant: RATE_LIMITED with retryAfterMs past its limit", async () => {
    const chatty = await createAgent(owner, "chatty");
    const socket = await openAgentSocket(server.url, chatty.apiKey);
    for (const [event, rule] of Object.entries(EVENT_LIMITS)) {
      // Every request counts, valid or not: invalid ones are the cheapest way to the limit.
      const replies = await inChunks(rule.points, () => emitAck<Ack<unknown>>(socket, event, { bogus: true }));
      expect(
        replies.filter((r) => !r.ok && r.error.code === "INVALID_PAYLOAD"),
        event,
      ).toHaveLength(rule.points);
      const over = await emitAck<Ack<unknown>>(socket, event, { bogus: true });
      expect(over, event).toMatchObject({ ok: false, error: { code: "RATE_LIMITED", retryable: true } });
      const wait = over.ok ? 0 : over.error.retryAfterMs!;
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(rule.perSeconds * 1000);
    }
    // Other events of the same participant, and other participants, are not affected.
    expect(await emitAck(socket, "room:list", {})).toMatchObject({ ok: true });
    const other = await openAgentSocket(server.url, (await createAgent(owner, "calm")).apiKey);
    expect(await emitAck(other, "directory:search", { text: "chatty" })).toMatchObject({ ok: true });
  });

  it("cuts off a socket that keeps sending into its full buffer; cut off twice, its agent is kept out for a while; others carry on", async () => {
    const flooder = await createAgent(owner, "flooder");
    // What fills its buffer does not matter: it is dropped at the cut-off, never run.
    const typing = (): [string, unknown] => ["room:typing", { roomId: "nowhere" }];
    const first = await cutOff(await openAgentSocket(server.url, flooder.apiKey), typing);
    expect(first.told).toMatchObject({ code: "RATE_LIMITED", event: "flood", retryAfterMs: BUFFER_FULL_RETRY_MS });
    // The tool calls in flight are answered; what waited in the buffer is dropped, neither run nor answered.
    expect((await Promise.all(first.waits)).every((r) => r.ok)).toBe(true);
    await first.closed;
    expect((await Promise.all(first.buffered)).every((b) => b instanceof Error && b.message === "socket has been disconnected")).toBe(true);
    // One cut-off: it reconnects at once. A second within the window keeps its agent out.
    const second = await cutOff(await openAgentSocket(server.url, flooder.apiKey), typing);
    expect(second.told).toMatchObject({ code: "RATE_LIMITED", event: "flood", retryAfterMs: FLOOD_COOLDOWN_MS });
    await Promise.all(second.waits);
    await second.closed;
    expect((await Promise.all(second.buffered)).every((b) => b instanceof Error)).toBe(true);
    const again = await openAgentSocket(server.url, flooder.apiKey).then(
      () => null,
      (error: Error & { data?: { code: string; retryAfterMs?: number } }) => error.data,
    );
    expect(again).toMatchObject({ code: "RATE_LIMITED", retryAfterMs: FLOOD_COOLDOWN_MS });
    // Its reconnects are refused before the credential is even looked up: a revoked key is told the same.
    const { keys } = await owner.api.agents.get.query({ agentId: flooder.id });
    await owner.api.agents.revokeKey.mutate({ agentId: flooder.id, keyId: keys[0].id });
    const unchecked = await openAgentSocket(server.url, flooder.apiKey).then(
      () => null,
      (error: Error & { data?: { code: string } }) => error.data,
    );
    expect(unchecked).toMatchObject({ code: "RATE_LIMITED" });
    const calm = await openAgentSocket(server.url, (await createAgent(owner, "unbothered")).apiKey);
    expect(await emitAck(calm, "room:list", {})).toMatchObject({ ok: true });
  });

  it("an SDK client firing 600 sends at once stays within the server's bounds: none refused, none lost, not closed", async () => {
    const { client } = await connectedAgent(server, owner, "eager");
    const room = await owner.api.rooms.createChannel.mutate({ name: `eager-${dialect}`, visibility: "private", memberIds: [client.me!.id] });
    await owner.api.agents.setLimits.mutate({ agentId: client.me!.id, messagesPerMinute: 10_000, burst: 10_000 });
    const { loopGuardMessages } = await owner.api.workspace.limits.query();
    await owner.api.workspace.setLimits.mutate({ loopGuardMessages: 10_000 }); // an agent alone in a room
    try {
      const sent = await Promise.all(Array.from({ length: 600 }, (_, i) => client.send(room.id, `eager ${i}`)));
      expect(new Set(sent.map((m) => m.seq)).size).toBe(600);
      expect(client.connected).toBe(true);
    } finally {
      await owner.api.workspace.setLimits.mutate({ loopGuardMessages });
    }
  });

  it("limits a person's tRPC mutations (not their queries): RATE_LIMITED, HTTP 429, with retryAfterMs", async () => {
    const busy = await signUpPerson(server, { handle: "busy", inviteToken: (await owner.api.workspace.createInvite.mutate({})).token });
    const mutate = async () => {
      const res = await fetch(`${server.url}/api/trpc/messages.markRead`, {
        method: "POST",
        headers: { cookie: busy.cookie, "content-type": "application/json" },
        body: JSON.stringify({ json: { bogus: true } }),
      });
      const body = (await res.json()) as { error: { json: { data: { app: { code: string; retryAfterMs?: number } } } } };
      return { status: res.status, app: body.error.json.data.app };
    };
    const answers = await inChunks(MUTATIONS.points, mutate, 50);
    expect(answers.filter((a) => a.status === 400 && a.app.code === "INVALID_PAYLOAD")).toHaveLength(MUTATIONS.points);
    const over = await mutate();
    expect(over).toMatchObject({ status: 429, app: { code: "RATE_LIMITED" } });
    expect(over.app.retryAfterMs).toBeGreaterThan(0);
    expect(await errorCode(busy.api.rooms.createChannel.mutate({ name: `busy-${dialect}` }))).toBe("RATE_LIMITED");
    // Queries still answer, and the owner's mutations are the owner's own.
    expect((await busy.api.workspace.me.query())?.me.handle).toBe("busy");
    expect(await owner.api.messages.markRead.mutate({ roomId: (await owner.api.rooms.mine.query())[0].id, seq: 1 })).toMatchObject({
      readSeq: expect.any(Number),
    });
  });

  it("the SDK does not repeat a room:create that got no answer: it may have been applied", async () => {
    const made = await createAgent(owner, "hasty");
    const client = new SwitchboardClient({ url: server.url, apiKey: made.apiKey, requestTimeoutMs: 1, reconnectDelayMs: { min: 10, max: 50 } });
    await client.connect();
    const outgoing: string[] = [];
    (client as unknown as { socket: Socket }).socket.onAnyOutgoing((event: string) => outgoing.push(event));
    const name = `hasty-${dialect}`;
    const error = await client.createRoom(name, { visibility: "public" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SwitchboardError);
    expect(error).toMatchObject({ code: "TIMEOUT", retryable: false });
    expect(outgoing.filter((e) => e === "room:create")).toHaveLength(1);
    // It was applied: the room exists, once.
    let rooms: { name: string }[] = [];
    const refresh = async () => void (rooms = await owner.api.rooms.browse.query());
    await waitFor(() => rooms.filter((r) => r.name === name).length === 1, 10_000, "the room", refresh);
    await client.close();
  });
});
