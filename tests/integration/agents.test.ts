import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { io as connect } from "socket.io-client";
import { SwitchboardClient, SwitchboardError, type MessageView } from "@switchboard/sdk";
import type { Ack } from "@switchboard/sdk/contract";
import {
  closeSockets,
  collect,
  collectMessages,
  createAgent,
  dialects,
  emitAck,
  errorCode,
  openAgentSocket,
  queryDb,
  sentinel,
  waitFor,
  type Person,
  type TestServer,
  sqlDate,
} from "./harness";
import { startWorkspace } from "./factories";

describe.each(dialects)("agents on %s", (dialect) => {
  let server: TestServer;
  let ana: Person;
  let ben: Person;
  const clients: SwitchboardClient[] = [];

  const client = (apiKey: string) => {
    const c = new SwitchboardClient({ url: server.url, apiKey, reconnectDelayMs: { min: 50, max: 500 } });
    clients.push(c);
    return c;
  };
  const received = (c: SwitchboardClient) => {
    const seen: MessageView[] = [];
    c.onMessage((m) => void seen.push(m));
    return seen;
  };

  beforeAll(async () => {
    ({
      server,
      people: { ana, ben },
    } = await startWorkspace(dialect, { people: { ana: "owner", ben: "member" } }));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    closeSockets();
  });
  afterAll(() => server.dispose());

  it("creates an agent with a key shown once, stores only a prefix, rotates and revokes keys", async () => {
    const { id, apiKey, agent } = await createAgent(ana, "keeper", { framework: "codex", capabilities: ["review"] });
    expect(apiKey).toMatch(/^sb_[A-Za-z0-9_-]{10}_[A-Za-z0-9_-]{32,}$/);
    expect(agent).toMatchObject({ kind: "agent", handle: "keeper", framework: "codex", capabilities: ["review"], owner: { handle: "ana" } });
    expect(JSON.stringify(await ana.api.agents.get.query({ agentId: id }))).not.toContain(apiKey);
    expect(agent.keys[0].prefix).toBe(apiKey.slice(0, 13));
    // Listed in the workspace with its owner.
    const listed = (await ben.api.workspace.participants.query()).find((p) => p.id === id);
    expect(listed).toMatchObject({ kind: "agent", ownerId: ana.participantId });
    // Only the owner (or an admin) manages it.
    expect(await errorCode(ben.api.agents.rotateKey.mutate({ agentId: id }))).toBe("FORBIDDEN");

    const socket = await openAgentSocket(server.url, apiKey);
    const closed = new Promise((resolve) => socket.once("disconnect", resolve));
    const rotated = await ana.api.agents.rotateKey.mutate({ agentId: id });
    await closed; // the old key's connection is cut at once
    const refused = await refusal(apiKey);
    expect(refused).toBe("UNAUTHENTICATED");
    const fresh = await openAgentSocket(server.url, rotated.apiKey);
    expect(fresh.connected).toBe(true);
    const keyId = rotated.agent.keys.find((k) => !k.revokedAt)!.id;
    const cut = new Promise((resolve) => fresh.once("disconnect", resolve));
    await ana.api.agents.revokeKey.mutate({ agentId: id, keyId });
    await cut;
    expect(await refusal(rotated.apiKey)).toBe("UNAUTHENTICATED");
    expect(await refusal("sb_notakey")).toBe("UNAUTHENTICATED");
    expect(await refusal(apiKey.slice(0, -1) + (apiKey.endsWith("a") ? "b" : "a"))).toBe("UNAUTHENTICATED");
    // A missing key (an unset variable) and a wrong one are told apart.
    expect(await refusalMessage("")).toMatch(/^No credential: the API key is empty/);
    expect(await refusalMessage("sb_notakey")).toMatch(/^Invalid or revoked API key/);
  });

  async function refused(apiKey: unknown): Promise<Error & { data?: { code: string } }> {
    const socket = connect(server.url, { path: "/socket.io", transports: ["websocket"], reconnection: false, auth: { apiKey } });
    const error = await new Promise<Error & { data?: { code: string } }>((resolve) => socket.once("connect_error", resolve));
    socket.disconnect();
    return error;
  }
  const refusal = async (apiKey: unknown) => (await refused(apiKey)).data?.code ?? "NO_CODE";
  const refusalMessage = async (apiKey: unknown) => (await refused(apiKey)).message;

  it("onboards agents programmatically with a person's onboarding token", async () => {
    const { token } = await ana.api.agents.createOnboardingToken.mutate({ label: "ci", maxUses: 1 });
    const { apiKey, agent } = await SwitchboardClient.register(server.url, {
      onboardingToken: token,
      handle: "codex-bot",
      displayName: "Codex",
      framework: "codex",
      capabilities: ["code"],
    });
    expect(agent.owner?.id).toBe(ana.participantId);
    const c = client(apiKey);
    expect((await c.connect()).handle).toBe("codex-bot");
    await expect(SwitchboardClient.register(server.url, { onboardingToken: token, handle: "again", displayName: "Again" })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    await expect(SwitchboardClient.register(server.url, { onboardingToken: "nope", handle: "x1", displayName: "X" })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    const bad = await fetch(`${server.url}/api/v1/agents/register`, { method: "POST", body: "{not json" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Ack<never>).ok).toBe(false);
    expect(await errorCode(ana.api.agents.create.mutate({ handle: "codex-bot", displayName: "Dup" }))).toBe("NAME_TAKEN");
  });

  it("lets an agent find the public channels over the socket and join one by #name", async () => {
    const { apiKey } = await createAgent(ana, `browser-${dialect}`);
    const name = `town-square-${randomUUID().slice(0, 6)}`;
    await ana.api.rooms.createChannel.mutate({ name, visibility: "public", topic: "Everyone", memberIds: [] });
    await ana.api.rooms.createChannel.mutate({ name: `${name}-private`, visibility: "private", memberIds: [] });
    const agent = client(apiKey);
    await agent.connect();
    const channels = await agent.browseChannels();
    expect(channels.find((c) => c.name === name)).toMatchObject({ topic: "Everyone", memberCount: 1, joined: false });
    expect(channels.some((c) => c.name === `${name}-private`)).toBe(false);
    const joined = await agent.joinRoom(`#${name}`);
    expect(joined).toMatchObject({ name, kind: "channel" });
    expect((await agent.browseChannels()).find((c) => c.name === name)).toMatchObject({ joined: true, memberCount: 2 });
    await expect(agent.joinRoom(`#${name}-private`)).rejects.toMatchObject({ code: "ROOM_NOT_FOUND" });
  });

  it("puts a new agent in the room its token names, else #general, so that its first message has somewhere to go", async () => {
    const register = (token: string, handle: string) => SwitchboardClient.register(server.url, { onboardingToken: token, handle, displayName: handle });
    const general = await ana.api.agents.createOnboardingToken.mutate({ label: "general" });
    expect(general.room).toMatchObject({ name: "general" });
    const landed = await register(general.token, "lands-general");
    expect(landed.room).toEqual(general.room);

    const room = await ana.api.rooms.createChannel.mutate({ name: `landing-${randomUUID().slice(0, 8)}`, visibility: "private", memberIds: [] });
    const named = await ana.api.agents.createOnboardingToken.mutate({ label: "room", roomId: room.id });
    expect(named.room).toEqual({ id: room.id, name: room.name });
    const agent = await register(named.token, "lands-room");
    expect(agent.room).toEqual(named.room);
    const newcomer = client(agent.apiKey);
    await newcomer.connect();
    const first = await newcomer.send(room.id, "my first message");
    expect((await ana.api.messages.history.query({ roomId: room.id })).messages.map((m) => m.body)).toContain(first.body);
    expect((await ana.api.rooms.members.query({ roomId: room.id })).map((m) => m.participant.handle)).toContain("lands-room");

    // A room its creator may not invite into is refused when the token is made.
    const bens = await ben.api.rooms.createChannel.mutate({ name: `bens-${randomUUID().slice(0, 8)}`, visibility: "private", memberIds: [] });
    expect(await errorCode(ana.api.agents.createOnboardingToken.mutate({ label: "not mine", roomId: bens.id }))).toBe("ROOM_NOT_FOUND");
    // A room its creator has left since: the agent lands in #general instead.
    const left = await ana.api.rooms.createChannel.mutate({ name: `left-${randomUUID().slice(0, 8)}`, visibility: "private", memberIds: [ben.participantId] });
    const stale = await ana.api.agents.createOnboardingToken.mutate({ label: "stale", roomId: left.id });
    await ana.api.rooms.leave.mutate({ roomId: left.id });
    expect((await register(stale.token, "lands-fallback")).room).toEqual(general.room);
  });

  it("lists a person's onboarding tokens, only to them and admins, and refuses a revoked one", async () => {
    const ci = await ana.api.agents.createOnboardingToken.mutate({ label: "ci runners", maxUses: 3 });
    const laptop = await ben.api.agents.createOnboardingToken.mutate({ label: "laptop" });
    const mine = await ben.api.agents.onboardingTokens.query();
    expect(mine.map((t) => t.id)).toContain(laptop.id);
    expect(mine.every((t) => t.createdBy.id === ben.participantId)).toBe(true); // never another's
    expect(mine.find((t) => t.id === laptop.id)).toMatchObject({ label: "laptop", state: "active", uses: 0, maxUses: null, revokedAt: null });
    expect(JSON.stringify(mine)).not.toContain(laptop.token);

    // A member sees no one else's tokens and revokes none; the workspace owner sees and revokes any.
    expect(await errorCode(ben.api.agents.onboardingTokens.query({ scope: "workspace" }))).toBe("FORBIDDEN");
    expect(await errorCode(ben.api.agents.revokeOnboardingToken.mutate({ tokenId: ci.id }))).toBe("FORBIDDEN");
    expect(await errorCode(ben.api.agents.revokeOnboardingToken.mutate({ tokenId: "no-such-token" }))).toBe("NOT_FOUND");
    const everyone = await ana.api.agents.onboardingTokens.query({ scope: "workspace" });
    expect(everyone.map((t) => t.id)).toEqual(expect.arrayContaining([ci.id, laptop.id]));
    expect((await ana.api.agents.revokeOnboardingToken.mutate({ tokenId: laptop.id })).state).toBe("revoked");
    expect((await ben.api.agents.onboardingTokens.query()).find((t) => t.id === laptop.id)?.state).toBe("revoked");
    await expect(SwitchboardClient.register(server.url, { onboardingToken: laptop.token, handle: "from-laptop", displayName: "Laptop" })).rejects.toMatchObject(
      {
        code: "UNAUTHENTICATED",
      },
    );

    // Its creator revokes their own: registrations that worked a moment ago are refused; agents stay.
    const { agent } = await SwitchboardClient.register(server.url, { onboardingToken: ci.token, handle: "ci-one", displayName: "CI one" });
    expect((await ana.api.agents.onboardingTokens.query()).find((t) => t.id === ci.id)).toMatchObject({ uses: 1, state: "active" });
    const revoked = await ana.api.agents.revokeOnboardingToken.mutate({ tokenId: ci.id });
    expect(revoked).toMatchObject({ state: "revoked", uses: 1, label: "ci runners" });
    expect((await ana.api.agents.revokeOnboardingToken.mutate({ tokenId: ci.id })).revokedAt).toBe(revoked.revokedAt);
    await expect(SwitchboardClient.register(server.url, { onboardingToken: ci.token, handle: "ci-two", displayName: "CI two" })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    expect((await ana.api.agents.get.query({ agentId: agent.id })).status).toBe("active");

    // An expired token is refused the same way, and listed as expired.
    const old = await ben.api.agents.createOnboardingToken.mutate({ label: "old", expiresInDays: 1 });
    await queryDb(server, `UPDATE "OnboardingToken" SET "expiresAt" = $1 WHERE id = $2`, [sqlDate(dialect, new Date(Date.now() - 1000)), old.id]);
    expect((await ben.api.agents.onboardingTokens.query()).find((t) => t.id === old.id)?.state).toBe("expired");
    await expect(SwitchboardClient.register(server.url, { onboardingToken: old.token, handle: "too-late", displayName: "Late" })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });

    const audit = await ana.api.admin.audit.query({ action: "onboarding_token." });
    const about = (id: string) => audit.filter((e) => e.subjectId === id).map((e) => [e.action, e.actor?.handle]);
    expect(about(ci.id)).toEqual([
      ["onboarding_token.revoked", "ana"],
      ["onboarding_token.created", "ana"],
    ]);
    expect(about(laptop.id)).toEqual([
      ["onboarding_token.revoked", "ana"],
      ["onboarding_token.created", "ben"],
    ]);
  });

  it("delivers by mode: mentions, DMs and threads it is in; everything in `all`; nothing in `none`", async () => {
    const { id, apiKey } = await createAgent(ana, "helper");
    const room = await ana.api.rooms.createChannel.mutate({ name: `modes-${dialect}`, visibility: "public", memberIds: [id] });
    const c = client(apiKey);
    const seen = received(c);
    const pushed = collectMessages(c).seen; // what reached its socket, before the SDK's own filtering
    await c.connect();
    const send = (body: string, threadRootId?: string) => ana.api.messages.send.mutate({ roomId: room.id, body, clientMsgId: randomUUID(), threadRootId });

    await send("chatter the agent should not pay for");
    const ask = await send("@helper can you look?");
    await waitFor(() => seen.length === 1, 10_000, "mention");
    await c.reply(ask, "looking");
    await send("thanks, in the thread", ask.id);
    await send("more chatter");
    await waitFor(() => seen.length === 2, 10_000, "thread reply");
    expect(seen.map((m) => m.body)).toEqual(["@helper can you look?", "thanks, in the thread"]);

    const dm = await ana.api.rooms.openDirect.mutate({ participantIds: [id] });
    await ana.api.messages.send.mutate({ roomId: dm.id, body: "a direct question", clientMsgId: randomUUID() });
    await waitFor(() => seen.length === 3, 10_000, "dm");

    await c.setDeliveryMode(room.id, "all");
    await send("now everything");
    await waitFor(() => seen.some((m) => m.body === "now everything"), 10_000, "all mode");

    await c.setDeliveryMode(room.id, "none");
    const unheard = await send("@helper you will not hear this");
    // Nothing of this room reaches it now, so the sentinel goes to the dm: sent after the message above
    // was fanned out, it reaches the agent's socket after anything that fan-out sent it.
    await sentinel(ana, dm.id, (marker) => pushed.some((e) => e.message.id === marker.id));
    expect(pushed.some((e) => e.message.id === unheard.id)).toBe(false);
    expect(seen.some((m) => m.id === unheard.id)).toBe(false);
    // Order held throughout, per room.
    const inRoom = seen.filter((m) => m.roomId === room.id).map((m) => m.seq);
    expect(inRoom).toEqual([...inRoom].sort((a, b) => a - b));
  });

  it("delivers mentions made while it was offline, in order, when it connects", async () => {
    const { id, apiKey } = await createAgent(ana, "sleeper");
    const room = await ana.api.rooms.createChannel.mutate({ name: `offline-${dialect}`, visibility: "private", memberIds: [id, ben.participantId] });
    // Ben may address Ana's agent once she has accepted his request.
    const asked = await ben.api.connections.request.mutate({ participantId: id, message: "tasks for your agent" });
    await ana.api.connections.respond.mutate({ connectionId: asked.id, decision: "accept" });
    const bodies: string[] = [];
    for (let i = 0; i < 30; i++) {
      const who = i % 2 ? ben : ana;
      const body = i % 3 === 0 ? `@sleeper task ${i}` : `noise ${i}`;
      await who.api.messages.send.mutate({ roomId: room.id, body, clientMsgId: randomUUID() });
      if (body.startsWith("@sleeper")) bodies.push(body);
    }
    const c = client(apiKey);
    const seen = received(c);
    await c.connect();
    await waitFor(() => seen.length === bodies.length, 10_000, "replay");
    expect(seen.map((m) => m.body)).toEqual(bodies);
    // The server's cursor moved: a new client with no local state gets nothing again.
    await c.close();
    const again = client(apiKey);
    const seenAgain = received(again);
    await again.connect();
    await ana.api.messages.send.mutate({ roomId: room.id, body: "@sleeper one more", clientMsgId: randomUUID() });
    await waitFor(() => seenAgain.length === 1, 10_000, "only the new one");
    expect(seenAgain[0].body).toBe("@sleeper one more");
  });

  it("reports processing state per recipient, visible to the room", async () => {
    const { id, apiKey } = await createAgent(ana, "worker");
    const room = await ana.api.rooms.createChannel.mutate({ name: `receipts-${dialect}`, visibility: "private", memberIds: [id] });
    const watcher = await ana.socket();
    const receipts = collect(watcher, "message:receipt");
    const c = client(apiKey);
    c.onMessage((m) => {
      if (m.body.includes("fail")) throw new Error("cannot do that");
    });
    await c.connect();
    const ok = await ana.api.messages.send.mutate({ roomId: room.id, body: "@worker do it", clientMsgId: randomUUID() });
    const bad = await ana.api.messages.send.mutate({ roomId: room.id, body: "@worker fail please", clientMsgId: randomUUID() });
    await waitFor(() => receipts.filter((r) => r.receipt.state !== "processing").length === 2, 10_000, "receipts");
    expect(receipts.filter((r) => r.messageId === ok.id).map((r) => r.receipt.state)).toEqual(["processing", "processed"]);
    expect(receipts.find((r) => r.messageId === bad.id && r.receipt.state === "failed")?.receipt.reason).toBe("cannot do that");
    const { messages } = await ana.api.messages.history.query({ roomId: room.id, limit: 10 });
    expect(messages.find((m) => m.id === ok.id)?.receipts).toMatchObject([{ participantId: id, state: "processed" }]);
    const memberships = await c.listRooms();
    expect(memberships.find((m) => m.room.id === room.id)?.processedSeq).toBe(bad.seq);
  });

  it("stores one message for a clientMsgId sent 5 times at once and again after a reconnect", async () => {
    const { id, apiKey } = await createAgent(ana, "retrier");
    const room = await ana.api.rooms.createChannel.mutate({ name: `idem-${dialect}`, visibility: "private", memberIds: [id] });
    const c = client(apiKey);
    await c.connect();
    const clientMsgId = randomUUID();
    const sent = await Promise.all(Array.from({ length: 5 }, () => c.send(room.id, "exactly once", { clientMsgId })));
    expect(new Set(sent.map((m) => m.id)).size).toBe(1);
    await c.close();
    const c2 = client(apiKey);
    await c2.connect();
    expect((await c2.send(room.id, "exactly once", { clientMsgId })).id).toBe(sent[0].id);
    const { messages } = await ana.api.messages.sync.query({ roomId: room.id, afterSeq: 0, limit: 100 });
    expect(messages.filter((m) => m.clientMsgId === clientMsgId)).toHaveLength(1);
  });

  it("answers bad socket input with codes, stays connected, and writes nothing", async () => {
    const { id, apiKey } = await createAgent(ana, "fuzzy");
    const room = await ana.api.rooms.createChannel.mutate({ name: `bad-${dialect}`, visibility: "private", memberIds: [id] });
    const socket = await openAgentSocket(server.url, apiKey);
    const before = (await ana.api.rooms.get.query({ roomId: room.id })).lastSeq;
    const code = async (event: string, payload: unknown) => {
      const r = await emitAck<Ack<unknown>>(socket, event, payload);
      return r.ok ? "OK" : r.error.code;
    };
    expect(await code("message:send", { roomId: room.id, body: "x".repeat(100_000), clientMsgId: randomUUID() })).toBe("MESSAGE_TOO_LARGE");
    expect(await code("message:send", { roomId: room.id, body: ["array"], clientMsgId: randomUUID() })).toBe("INVALID_PAYLOAD");
    expect(await code("message:receipt", { messageId: "x", state: "done" })).toBe("INVALID_PAYLOAD");
    expect(await code("message:receipt", { messageId: "nope", state: "processed" })).toBe("MESSAGE_NOT_FOUND");
    expect(await code("delivery:ack", { roomId: room.id, seq: -1 })).toBe("INVALID_PAYLOAD");
    expect(await code("room:mode", { roomId: room.id, mode: "loud" })).toBe("INVALID_PAYLOAD");
    expect(await code("room:list", { extra: true })).toBe("INVALID_PAYLOAD");
    expect(await code("admin:drop-tables", {})).toBe("UNKNOWN_EVENT");
    expect(socket.connected).toBe(true);
    // A packet over the transport's limit closes that connection, and only that.
    const dropped = new Promise((resolve) => socket.once("disconnect", resolve));
    (socket.emit as (e: string, p: unknown) => void)("message:send", { roomId: room.id, body: "y".repeat(2_000_000), clientMsgId: randomUUID() });
    await dropped;
    const again = await openAgentSocket(server.url, apiKey);
    expect(again.connected).toBe(true);
    expect((await ana.api.rooms.get.query({ roomId: room.id })).lastSeq).toBe(before);
  });

  it("refuses an agent acting in rooms it is not in", async () => {
    const { apiKey } = await createAgent(ana, "outsider");
    const room = await ana.api.rooms.createChannel.mutate({ name: `closed-${dialect}`, visibility: "private" });
    const c = client(apiKey);
    await c.connect();
    await expect(c.send(room.id, "hello?")).rejects.toBeInstanceOf(SwitchboardError);
    await expect(c.send(room.id, "hello?")).rejects.toMatchObject({ code: "ROOM_NOT_FOUND" });
  });
});
