import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect } from "socket.io-client";
import { closeSockets, collect, createAgent, dialects, emitAck, errorCode, sentinel, signUpPerson, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

describe.each(dialects)("rooms on %s", (dialect) => {
  let server: TestServer;
  let ana: Person;
  let ben: Person;
  let gus: Person;

  beforeAll(async () => {
    ({
      server,
      people: { ana, ben, gus },
    } = await startWorkspace(dialect, { people: { ana: "owner", ben: "member", gus: "guest" } }));
  });
  afterAll(async () => {
    closeSockets();
    await server.dispose();
  });

  it("creates channels with unique names and lists them for browsing", async () => {
    const room = await ana.api.rooms.createChannel.mutate({ name: "Design", visibility: "public", topic: "pixels" });
    expect(room).toMatchObject({ name: "design", kind: "channel", visibility: "public", title: "design", memberCount: 1 });
    expect(await errorCode(ben.api.rooms.createChannel.mutate({ name: "design" }))).toBe("NAME_TAKEN");
    expect(await errorCode(ben.api.rooms.createChannel.mutate({ name: "Bad Name!" }))).toBe("INVALID_PAYLOAD");
    expect(await errorCode(gus.api.rooms.createChannel.mutate({ name: "guests-own" }))).toBe("FORBIDDEN");
    const browse = await ben.api.rooms.browse.query();
    expect(browse.find((r) => r.name === "design")).toMatchObject({ joined: false, memberCount: 1, topic: "pixels" });
    await ana.api.rooms.createChannel.mutate({ name: "secret", visibility: "private" });
    expect((await ben.api.rooms.browse.query()).some((r) => r.name === "secret")).toBe(false);
  });

  it("moves a room's version (lastSeq) with each change a send is decided on, by that change's own room event", async () => {
    const agent = await createAgent(ana, `versioned-${dialect}`);
    const room = await ana.api.rooms.createChannel.mutate({ name: `versioned-${dialect}`, visibility: "public" });
    const changes: [string, () => Promise<unknown>][] = [
      ["member.joined", () => ben.api.rooms.join.mutate({ roomId: room.id })],
      ["member.added", () => ana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [agent.id] })],
      ["member.mode_changed", () => ana.api.agents.setDeliveryMode.mutate({ roomId: room.id, mode: "all", participantId: agent.id })],
      ["member.left", () => ben.api.rooms.leave.mutate({ roomId: room.id })],
    ];
    let version = (await ana.api.rooms.get.query({ roomId: room.id })).lastSeq;
    expect(version).toBe(1); // room.created
    for (const [type, change] of changes) {
      await change();
      const now = (await ana.api.rooms.get.query({ roomId: room.id })).lastSeq;
      expect(now, type).toBe(version + 1);
      const [event] = (await ana.api.messages.history.query({ roomId: room.id, limit: 1 })).messages;
      expect(event, type).toMatchObject({ seq: now, kind: "event", data: { type } });
      version = now;
    }
    // Setting the mode a member has changes nothing.
    await ana.api.agents.setDeliveryMode.mutate({ roomId: room.id, mode: "all", participantId: agent.id });
    expect((await ana.api.rooms.get.query({ roomId: room.id })).lastSeq).toBe(version);
  });

  it("lets people join and leave public channels, live, with membership as room events", async () => {
    const room = await ana.api.rooms.createChannel.mutate({ name: `open-${dialect}`, visibility: "public" });
    // A room Ben stays in, for the sentinel at the end.
    const elsewhere = await ana.api.rooms.createChannel.mutate({ name: `elsewhere-${dialect}`, visibility: "private", memberIds: [ben.participantId] });
    const [a, b] = await Promise.all([ana.socket(), ben.socket()]);
    const members = collect(a, "room:members");
    const added = collect(b, "room:added");
    // A non-member may preview a public channel but not post in it.
    expect((await ben.api.messages.history.query({ roomId: room.id, limit: 10 })).messages.length).toBeGreaterThan(0);
    expect(await errorCode(ben.api.messages.send.mutate({ roomId: room.id, body: "hi", clientMsgId: randomUUID() }))).toBe("NOT_A_MEMBER");
    await ben.api.rooms.join.mutate({ roomId: room.id });
    await waitFor(() => added.some((e) => e.room.id === room.id), 10_000, "room:added");
    await waitFor(() => members.some((e) => e.joined.includes(ben.participantId)), 10_000, "room:members");

    // Once joined, the socket receives the room's messages without reconnecting.
    const seen = collect(b, "message:new");
    await ana.api.messages.send.mutate({ roomId: room.id, body: "welcome ben", clientMsgId: randomUUID() });
    await waitFor(() => seen.some((e) => e.message.body === "welcome ben"), 10_000, "message after join");

    await ben.api.rooms.leave.mutate({ roomId: room.id });
    await waitFor(() => members.some((e) => e.left.includes(ben.participantId)), 10_000, "left");
    const { messages } = await ana.api.messages.history.query({ roomId: room.id, limit: 50 });
    expect(messages.filter((m) => m.kind === "event").map((m) => (m.data as { type: string }).type)).toEqual(["room.created", "member.joined", "member.left"]);
    const count = seen.filter((e) => e.roomId === room.id).length;
    await ana.api.messages.send.mutate({ roomId: room.id, body: "after ben left", clientMsgId: randomUUID() });
    // Ben's socket gets a message sent after that one (in another room: he is in this one no more);
    // "after ben left" went out before its send was answered, so had it come to him, it came first.
    await sentinel(ana, elsewhere.id, (marker) => seen.some((e) => e.message.id === marker.id));
    expect(seen.filter((e) => e.roomId === room.id)).toHaveLength(count);
  });

  it("keeps private rooms private on every path and lets members invite", async () => {
    const room = await ana.api.rooms.createChannel.mutate({ name: `private-${dialect}`, visibility: "private" });
    const msg = await ana.api.messages.send.mutate({ roomId: room.id, body: "eyes only", clientMsgId: randomUUID() });
    // Every path a non-member might read or enter by.
    for (const call of [
      () => ben.api.rooms.get.query({ roomId: room.id }),
      () => ben.api.rooms.members.query({ roomId: room.id }),
      () => ben.api.rooms.join.mutate({ roomId: room.id }),
      () => ben.api.messages.history.query({ roomId: room.id, limit: 10 }),
      () => ben.api.messages.sync.query({ roomId: room.id, afterSeq: 0, limit: 10 }),
      () => ben.api.rooms.invite.mutate({ roomId: room.id, participantIds: [ben.participantId] }),
    ]) {
      expect(await errorCode(call())).toBe("ROOM_NOT_FOUND");
    }
    // A message named by its id, in a room one may not see, is no message at all.
    expect(await errorCode(ben.api.messages.thread.query({ messageId: msg.id }))).toBe("MESSAGE_NOT_FOUND");
    const b = await ben.socket();
    const live = collect(b, "message:new");
    await ana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [ben.participantId] });
    expect((await ben.api.messages.history.query({ roomId: room.id, limit: 10 })).messages.map((m) => m.body)).toContain("eyes only");
    await ana.api.messages.send.mutate({ roomId: room.id, body: "now you see it", clientMsgId: randomUUID() });
    await waitFor(() => live.some((e) => e.message.body === "now you see it"), 10_000, "invited member gets live messages");
    const members = await ana.api.rooms.members.query({ roomId: room.id });
    expect(members.map((m) => [m.participant.handle, m.role])).toEqual([
      ["ana", "owner"],
      ["ben", "member"],
    ]);
    expect(members.find((m) => m.participant.handle === "ben")?.online).toBe(true);
    expect(await errorCode(gus.api.rooms.invite.mutate({ roomId: room.id, participantIds: [gus.participantId] }))).toBe("ROOM_NOT_FOUND");
  });

  it("opens one direct conversation per set of people, titled by the others", async () => {
    const dm = await ana.api.rooms.openDirect.mutate({ participantIds: [ben.participantId] });
    expect(dm).toMatchObject({ kind: "dm", visibility: "private", title: "Ben", memberCount: 2 });
    const again = await ben.api.rooms.openDirect.mutate({ participantIds: [ana.participantId] });
    expect(again.id).toBe(dm.id);
    expect(again.title).toBe("Ana");
    const group = await ana.api.rooms.openDirect.mutate({ participantIds: [ben.participantId, gus.participantId] });
    expect(group).toMatchObject({ kind: "group", memberCount: 3, title: "Ben, Gus" });
    expect(await errorCode(ana.api.rooms.invite.mutate({ roomId: dm.id, participantIds: [gus.participantId] }))).toBe("FORBIDDEN");
    expect(await errorCode(ana.api.rooms.leave.mutate({ roomId: dm.id }))).toBe("FORBIDDEN");
    expect(await errorCode(ana.api.rooms.openDirect.mutate({ participantIds: ["nobody"] }))).toBe("PARTICIPANT_NOT_FOUND");
    expect(await errorCode(gus.api.messages.history.query({ roomId: dm.id, limit: 5 }))).toBe("ROOM_NOT_FOUND");
  });

  it("brings back into a group whoever opens it again after leaving it", async () => {
    const dora = await signUpPerson(server, { handle: `dora-${dialect}`, inviteToken: (await ana.api.workspace.createInvite.mutate({})).token });
    const group = await ana.api.rooms.openDirect.mutate({ participantIds: [ben.participantId, dora.participantId] });
    await ben.api.messages.send.mutate({ roomId: group.id, body: "before Ana left", clientMsgId: randomUUID() });
    await ana.api.rooms.leave.mutate({ roomId: group.id });
    expect(await errorCode(ana.api.messages.history.query({ roomId: group.id, limit: 5 }))).toBe("ROOM_NOT_FOUND");
    const socket = await ana.socket();
    const added = collect(socket, "room:added");

    const again = await ana.api.rooms.openDirect.mutate({ participantIds: [dora.participantId, ben.participantId] });
    expect(again).toMatchObject({ id: group.id, memberCount: 3, title: `Ben, Dora-${dialect}` });
    const { messages } = await ana.api.messages.history.query({ roomId: group.id, limit: 10 });
    expect(messages.map((m) => m.body)).toContain("before Ana left");
    expect(messages.at(-1)).toMatchObject({ kind: "event", data: { type: "member.joined", participantIds: [ana.participantId] } });
    await waitFor(() => added.some((a) => a.room.id === group.id), 10_000, "room:added");
    expect((await ana.api.rooms.mine.query()).map((r) => r.id)).toContain(group.id);
    // Opening it again while in it changes nothing.
    await ana.api.rooms.openDirect.mutate({ participantIds: [ben.participantId, dora.participantId] });
    expect((await ana.api.messages.history.query({ roomId: group.id, limit: 10 })).messages).toHaveLength(messages.length);
  });

  it("counts unread messages and mentions exactly in every room of the sidebar at once", async () => {
    const say = (who: Person, roomId: string, body: string, threadRootId?: string) =>
      who.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID(), ...(threadRootId ? { threadRootId } : {}) });
    const channel = (name: string) => ana.api.rooms.createChannel.mutate({ name: `${name}-${dialect}`, visibility: "private", memberIds: [ben.participantId] });
    const [busy, quiet, threads, partly, read] = await Promise.all(["busy", "quiet", "threads", "partly", "read"].map(channel));
    const dm = await ana.api.rooms.openDirect.mutate({ participantIds: [ben.participantId] });

    // busy: three top-level messages, one mentioning Ben.
    for (const body of ["one", "two @ben", "three"]) await say(ana, busy.id, body);
    // quiet: only the room's own events, which are never unread.
    // threads: Ben's reply moves his cursor past the root; replies are never unread, their mentions count.
    const root = await say(ana, threads.id, "root");
    await say(ben, threads.id, "my reply", root.id);
    await say(ana, threads.id, "@ben look at this", root.id);
    await say(ana, threads.id, "a new topic");
    // partly: Ben read up to the second message; after it, one deleted, one of his own, two more.
    await say(ana, partly.id, "p1");
    const p2 = await say(ana, partly.id, "p2 @ben");
    await ben.api.messages.markRead.mutate({ roomId: partly.id, seq: p2.seq });
    const p3 = await say(ana, partly.id, "p3 (deleted)");
    await ana.api.messages.delete.mutate({ messageId: p3.id });
    await say(ana, partly.id, "p4 @ben again");
    await say(ana, partly.id, "p5");
    // read: everything read.
    await say(ana, read.id, "r1 @ben");
    const r2 = await say(ana, read.id, "r2");
    await ben.api.messages.markRead.mutate({ roomId: read.id, seq: r2.seq });
    // dm: one message.
    await say(ana, dm.id, "hi");

    const counts = new Map((await ben.api.rooms.mine.query()).map((r) => [r.id, [r.unread, r.mentions]]));
    expect([busy, quiet, threads, partly, read, dm].map((r) => counts.get(r.id))).toEqual([
      [3, 1],
      [0, 0],
      [1, 1],
      [2, 1],
      [0, 0],
      [1, 0],
    ]);
    // The author's own cursor moves with every post: nothing is unread for Ana.
    const anas = new Map((await ana.api.rooms.mine.query()).map((r) => [r.id, [r.unread, r.mentions]]));
    expect([busy, quiet, threads, partly, read, dm].map((r) => anas.get(r.id))).toEqual(Array.from({ length: 6 }, () => [0, 0]));
  });

  it("refuses sockets without a valid session, with a code", async () => {
    for (const cookie of [undefined, "authjs.session-token=garbage"]) {
      const socket = connect(server.url, {
        path: "/socket.io",
        transports: ["websocket"],
        reconnection: false,
        extraHeaders: cookie ? { cookie } : {},
      });
      const error = await new Promise<Error & { data?: { code: string } }>((resolve) => socket.once("connect_error", resolve));
      expect(error.data?.code).toBe("UNAUTHENTICATED");
      socket.disconnect();
    }
  });

  it("refuses a protocol version it does not speak", async () => {
    const socket = connect(server.url, {
      path: "/socket.io",
      transports: ["websocket"],
      reconnection: false,
      auth: { protocol: 99 },
      extraHeaders: { cookie: ana.cookie },
    });
    const error = await new Promise<Error & { data?: { code: string } }>((resolve) => socket.once("connect_error", resolve));
    expect(error.data?.code).toBe("PROTOCOL_UNSUPPORTED");
    socket.disconnect();
  });

  it("relays typing to the room's other members only", async () => {
    const room = await ana.api.rooms.createChannel.mutate({ name: `typing-${dialect}`, visibility: "private", memberIds: [ben.participantId] });
    const [a, b, g] = await Promise.all([ana.socket(), ben.socket(), gus.socket()]);
    const benSees = collect(b, "room:typing");
    const gusSees = collect(g, "room:typing");
    const benMessages = collect(b, "message:new");
    // Each typing event asks for an answer, which the server gives once it has relayed it (or not):
    // Ana's was relayed before Gus typed, and Gus's answer reaches his socket after anything relayed
    // to it before; then a message, which reaches Ben after anything relayed from Gus's typing.
    await emitAck(a, "room:typing", { roomId: room.id });
    await emitAck(g, "room:typing", { roomId: room.id });
    await sentinel(ana, room.id, (marker) => benMessages.some((e) => e.message.id === marker.id));
    expect(benSees.map((e) => e.participantId)).toEqual([ana.participantId]);
    expect(gusSees).toHaveLength(0);
  });
});
