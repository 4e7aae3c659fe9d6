// Profiles and channel settings on a real server, over tRPC and the socket: a person's name and handle
// (a taken handle is NAME_TAKEN), an avatar image, the status beside names (cleared once its time
// passes: a time in the past stands for waiting), an agent's own status over the socket, its owner
// renaming it; a channel
// renamed, given a topic, archived (read-only, ROOM_ARCHIVED) and unarchived, by whom the policy lets,
// each change a system message, audited, and live for the members. One shared server per dialect.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ack, MessageView } from "@switchboard/sdk/contract";
import { startWorkspace } from "./factories";
import {
  closeAgentClients,
  closeSockets,
  collect,
  collectMessages,
  connectedAgent,
  dialects,
  emitAck,
  errorCode,
  unwrap,
  waitFor,
  type ClientSocket,
  type Person,
  type TestServer,
} from "./harness";

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const aMinuteAgo = () => new Date(Date.now() - 60_000).toISOString();
/** A 1×1 PNG. */
const PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe.each(dialects)("profiles and channel settings on %s", (dialect) => {
  let server: TestServer;
  let dana: Person; // the workspace's owner: an admin
  let bob: Person;
  let cleo: Person;
  let cleoSocket: ClientSocket;

  beforeAll(async () => {
    ({
      server,
      people: { dana, bob, cleo },
    } = await startWorkspace(dialect, { people: { dana: "owner", bob: "member", cleo: "member" }, liftRates: true }));
    cleoSocket = await cleo.socket();
  });
  afterAll(async () => {
    await closeAgentClients();
    closeSockets();
  });

  const updates = () => collect(cleoSocket, "participant:updated");
  const audited = async (action: string) => (await dana.api.admin.audit.query({ action })).map((e) => e.subjectId);

  it("changes a person's display name and handle, refuses a taken handle with NAME_TAKEN, and tells the workspace", async () => {
    const seen = updates();
    const me = await bob.api.profile.update.mutate({ displayName: "Robert", handle: "Robert" });
    expect(me).toMatchObject({ id: bob.participantId, displayName: "Robert", handle: "robert" });
    await waitFor(() => seen.some((u) => u.participant.id === bob.participantId && u.participant.handle === "robert"), 10_000, "participant:updated");

    expect(await errorCode(bob.api.profile.update.mutate({ handle: "cleo" }))).toBe("NAME_TAKEN");
    expect(await errorCode(bob.api.profile.update.mutate({ handle: "a b" }))).toBe("INVALID_PAYLOAD");
    expect(await errorCode(bob.api.profile.update.mutate({ displayName: "  " }))).toBe("INVALID_PAYLOAD");
    const listed = await cleo.api.workspace.participants.query({});
    expect(listed.find((p) => p.id === bob.participantId)).toMatchObject({ handle: "robert", displayName: "Robert" });
    expect(await audited("participant.profile_updated")).toContain(bob.participantId);
  });

  it("shows a status beside the name until it runs out, then presents none", async () => {
    const seen = updates();
    const until = inAnHour();
    const set = await bob.api.profile.setStatus.mutate({ statusEmoji: "🌴", statusText: "Away until Monday", statusUntil: until });
    expect(set).toMatchObject({ statusEmoji: "🌴", statusText: "Away until Monday", statusUntil: new Date(until).toISOString() });
    await waitFor(() => seen.some((u) => u.participant.id === bob.participantId && u.participant.statusEmoji === "🌴"), 10_000, "the status, live");

    const general = (await cleo.api.rooms.mine.query()).find((r) => r.name === "general")!;
    const members = await cleo.api.rooms.members.query({ roomId: general.id });
    expect(members.find((m) => m.participant.id === bob.participantId)?.participant.statusText).toBe("Away until Monday");

    // Its time passed: nothing is shown, everywhere, and a new text carries none of the old emoji.
    const expired = await bob.api.profile.setStatus.mutate({ statusUntil: aMinuteAgo() });
    expect(expired).toMatchObject({ statusEmoji: "", statusText: "", statusUntil: null });
    const found = await cleo.api.directory.search.query({ text: "robert" });
    expect(found.find((p) => p.id === bob.participantId)).toMatchObject({ statusEmoji: "", statusText: "" });
    expect(await bob.api.profile.setStatus.mutate({ statusText: "Back" })).toMatchObject({ statusEmoji: "", statusText: "Back", statusUntil: null });
    expect(await bob.api.profile.setStatus.mutate({ statusEmoji: "", statusText: "" })).toMatchObject({ statusText: "", statusUntil: null });

    expect(await errorCode(bob.api.profile.setStatus.mutate({ statusEmoji: "ok" }))).toBe("INVALID_PAYLOAD");
    expect(await errorCode(bob.api.profile.setStatus.mutate({ statusText: "x".repeat(101) }))).toBe("INVALID_PAYLOAD");
  });

  it("takes an image as one's avatar, served to the workspace, and refuses what is not one", async () => {
    const seen = updates();
    const me = await bob.api.profile.setAvatar.mutate({ contentBase64: PIXEL_PNG });
    expect(me.avatarUrl).toMatch(/^\/api\/files\/[\w-]+$/);
    await waitFor(() => seen.some((u) => u.participant.id === bob.participantId && u.participant.avatarUrl === me.avatarUrl), 10_000, "the avatar, live");
    const served = await fetch(`${server.url}${me.avatarUrl}`, { headers: { cookie: cleo.cookie } });
    expect([served.status, served.headers.get("content-type")]).toEqual([200, "image/png"]);

    const html = Buffer.from("<html><script>alert(1)</script></html>").toString("base64");
    expect(await errorCode(bob.api.profile.setAvatar.mutate({ contentBase64: html }))).toBe("INVALID_PAYLOAD");
    // Replaced, then removed: the old image is gone, and the profile is back to initials.
    const next = await bob.api.profile.setAvatar.mutate({ contentBase64: PIXEL_PNG });
    expect(next.avatarUrl).not.toBe(me.avatarUrl);
    expect((await fetch(`${server.url}${me.avatarUrl}`, { headers: { cookie: cleo.cookie } })).ok).toBe(false);
    expect((await bob.api.profile.removeAvatar.mutate()).avatarUrl).toBeNull();
    expect((await fetch(`${server.url}${next.avatarUrl}`, { headers: { cookie: cleo.cookie } })).ok).toBe(false);
  });

  it("lets an agent set its own status over the socket, apart from its work status, and its owner rename it", async () => {
    const seen = updates();
    const scout = await connectedAgent(server, dana, "scout");
    await scout.client.setWorkStatus("reading the diff");
    const me = await scout.client.setProfileStatus({ statusEmoji: "🔧", statusText: "Refactoring auth" });
    expect(me).toMatchObject({ id: scout.id, statusEmoji: "🔧", statusText: "Refactoring auth", statusUntil: null });
    await waitFor(() => seen.some((u) => u.participant.id === scout.id && u.participant.statusEmoji === "🔧"), 10_000, "the agent's status, live");
    const [entry] = (await cleo.api.directory.search.query({ text: "scout" })).filter((p) => p.id === scout.id);
    expect(entry).toMatchObject({ statusText: "Refactoring auth", workStatus: "reading the diff" });

    expect(await errorCode(bob.api.agents.rename.mutate({ agentId: scout.id, displayName: "Mine now" }))).toBe("FORBIDDEN");
    const renamed = await dana.api.agents.rename.mutate({ agentId: scout.id, displayName: "Scout Prime" });
    expect(renamed).toMatchObject({ displayName: "Scout Prime", handle: "scout" });
    await waitFor(() => seen.some((u) => u.participant.id === scout.id && u.participant.displayName === "Scout Prime"), 10_000, "the rename, live");
    expect(await audited("agent.renamed")).toContain(scout.id);
  });

  it("renames a channel, sets its topic, archives and unarchives it, as its owner and admins may, each a system message", async () => {
    const room = await bob.api.rooms.createChannel.mutate({ name: `deploys-${dialect}`, memberIds: [cleo.participantId] });
    const roomUpdates = collect(cleoSocket, "room:updated");
    const { seen } = collectMessages(cleoSocket);
    const systemBodies = () => seen.filter((s) => s.roomId === room.id && s.message.kind === "system").map((s) => s.message.body);

    expect((await bob.api.rooms.get.query({ roomId: room.id })).can.update).toBe(true);
    expect((await cleo.api.rooms.get.query({ roomId: room.id })).can.update).toBe(false);
    expect(await errorCode(cleo.api.rooms.update.mutate({ roomId: room.id, name: "mine" }))).toBe("FORBIDDEN");

    const name = `releases-${dialect}`;
    expect(await bob.api.rooms.update.mutate({ roomId: room.id, name })).toMatchObject({ name, title: name });
    await waitFor(() => roomUpdates.some((u) => u.room.name === name), 10_000, "room:updated");
    await waitFor(() => systemBodies().includes(`@robert renamed the channel to #${name}`), 10_000, "the rename's system message");
    expect(await errorCode(bob.api.rooms.update.mutate({ roomId: room.id, name: "general" }))).toBe("NAME_TAKEN");
    expect(await errorCode(bob.api.rooms.update.mutate({ roomId: room.id, name: "Bad name" }))).toBe("INVALID_PAYLOAD");

    // The topic over the socket, as an agent or a script would set it.
    const bobSocket = await bob.socket();
    const topic = unwrap(await emitAck<Ack<{ topic: string }>>(bobSocket, "room:update", { roomId: room.id, topic: "Ship on Tuesdays" }));
    expect(topic.topic).toBe("Ship on Tuesdays");
    const denied = await emitAck<Ack<unknown>>(await cleo.socket(), "room:update", { roomId: room.id, topic: "no" });
    expect(denied.ok || denied.error.code).toBe("FORBIDDEN");

    // A workspace admin who is not a member archives it: read-only, out of the sidebar, in Browse as archived.
    await dana.api.rooms.update.mutate({ roomId: room.id, archived: true });
    await waitFor(() => roomUpdates.some((u) => u.room.id === room.id && u.room.archivedAt !== null), 10_000, "the archive, live");
    expect((await cleo.api.rooms.mine.query()).map((r) => r.id)).not.toContain(room.id);
    expect((await cleo.api.rooms.browse.query()).find((c) => c.id === room.id)).toMatchObject({ archived: true, joined: true });
    const send = { roomId: room.id, body: "still here?", clientMsgId: randomUUID() };
    expect(await errorCode(cleo.api.messages.send.mutate(send))).toBe("ROOM_ARCHIVED");
    const socketSend = await emitAck<Ack<unknown>>(cleoSocket, "message:send", { ...send, clientMsgId: randomUUID() });
    expect(socketSend.ok || socketSend.error.code).toBe("ROOM_ARCHIVED");
    expect(await errorCode(bob.api.rooms.update.mutate({ roomId: room.id, topic: "while archived" }))).toBe("ROOM_ARCHIVED");
    expect(await errorCode(dana.api.rooms.join.mutate({ roomId: room.id }))).toBe("ROOM_ARCHIVED");
    expect((await cleo.api.rooms.get.query({ roomId: room.id })).can.post).toBe(false);

    expect(await errorCode(cleo.api.rooms.update.mutate({ roomId: room.id, archived: false }))).toBe("FORBIDDEN");
    expect((await bob.api.rooms.update.mutate({ roomId: room.id, archived: false })).archivedAt).toBeNull();
    expect((await cleo.api.rooms.mine.query()).map((r) => r.id)).toContain(room.id);
    await cleo.api.messages.send.mutate({ ...send, clientMsgId: randomUUID() });

    const history = await cleo.api.messages.history.query({ roomId: room.id });
    const system = history.messages.filter((m: MessageView) => m.kind === "system").map((m: MessageView) => m.body);
    expect(system).toEqual([
      `@robert renamed the channel to #${name}`,
      "@robert set the topic: Ship on Tuesdays",
      "@dana archived the channel",
      "@robert unarchived the channel",
    ]);
    for (const action of ["room.renamed", "room.topic_changed", "room.archived", "room.unarchived"]) expect(await audited(action)).toContain(room.id);
  });
});
