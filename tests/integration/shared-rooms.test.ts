// A channel shared between two connected workspaces: shared by an admin of its own, approved by the
// other's, joined by the other's people, its agents invited under consent, messages and mentions as
// in any room; disconnecting removes the other side at once (live), the owner keeps the room and its
// history, the other side keeps nothing readable.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SwitchboardClient } from "@switchboard/sdk";
import type { MessageView } from "@switchboard/sdk/contract";
import { collect, createAgent, dialects, errorCode, queryDb, waitFor, type ClientSocket, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

describe.each(dialects)("channels shared between workspaces (%s)", (dialect) => {
  let server: TestServer;
  let ana: Person; // Acme's owner
  let mo: Person; // an Acme member
  let gus: Person; // Globex's owner
  let atlas: Awaited<ReturnType<typeof createAgent>>; // Globex's assistant, Gus's
  let gusSocket: ClientSocket;
  let launch: { id: string };
  let connectionId: string;
  let globex: { id: string; name: string };

  beforeAll(async () => {
    const acme = await startWorkspace(dialect, { people: { ana: "owner", mo: "member" } });
    ({ server } = acme);
    ({ ana, mo } = acme.people);
    gus = (await startWorkspace(dialect, { people: { gus: "owner" } })).people.gus;
    atlas = await createAgent(gus, "atlas", { capabilities: ["scheduling"] });
    const me = (await gus.api.workspace.me.query())!;
    globex = { id: me.workspace.id, name: me.workspace.name };
    const { code } = await ana.api.workspaceConnections.invite.mutate({ side: { directory: "agents", approveRooms: true } });
    connectionId = (await gus.api.workspaceConnections.accept.mutate({ code, side: { directory: "agents", approveRooms: true } })).id;
    launch = await ana.api.rooms.createChannel.mutate({
      name: `launch-${randomUUID().slice(0, 6)}`,
      visibility: "public",
      topic: "",
      memberIds: [mo.participantId],
    });
    await ana.api.messages.send.mutate({ roomId: launch.id, body: "Before sharing: Acme only", clientMsgId: randomUUID() });
    gusSocket = await gus.socket();
  });
  afterAll(() => server.dispose());

  /** A 1×1 PNG. */
  const PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
  const asPerson = (who: Person) => ({ cookie: who.cookie, origin: new URL(server.url).origin });
  const download = (who: Person, url: string) => fetch(`${server.url}${url}`, { headers: asPerson(who) });
  async function attach(who: Person, name: string, body: string): Promise<string> {
    const query = new URLSearchParams({ roomId: launch.id, name });
    const res = await fetch(`${server.url}/api/files?${query}`, { method: "POST", headers: asPerson(who), body });
    const { data } = (await res.json()) as { data: { id: string; url: string } };
    await who.api.messages.send.mutate({ roomId: launch.id, body: `here is ${name}`, clientMsgId: randomUUID(), fileIds: [data.id] });
    return data.url;
  }
  const found = async (who: Person, query: string) => (await who.api.search.messages.query({ query })).hits.map((h) => h.message.body);
  const send = (who: Person, body: string) => who.api.messages.send.mutate({ roomId: launch.id, body, clientMsgId: randomUUID() }) as Promise<MessageView>;

  it("is invisible to the other workspace until shared and approved", async () => {
    expect(await errorCode(gus.api.rooms.get.query({ roomId: launch.id }))).toBe("ROOM_NOT_FOUND");
    expect(await found(gus, "before sharing")).toEqual([]);
    // Acme asks an admin's approval for each shared room: its member may not share.
    expect(await errorCode(mo.api.workspaceConnections.share.mutate({ roomId: launch.id, workspaceId: globex.id }))).toBe("FORBIDDEN");
    const told = collect(gusSocket, "workspace:connections");
    const shared = await ana.api.workspaceConnections.share.mutate({ roomId: launch.id, workspaceId: globex.id });
    // Globex's admins are told at once, so their Connections tab shows the channel waiting.
    await waitFor(() => told.some((t) => t.change === "room_shared" && t.connectionId === connectionId), 5_000, "workspace:connections on Gus's socket");
    expect(shared).toMatchObject({ ours: true, status: "pending", workspace: { name: globex.name } });
    // Globex asks its admin too: pending, not browsable yet.
    expect((await gus.api.rooms.browse.query()).map((c) => c.id)).not.toContain(launch.id);
    const incoming = await gus.api.workspaceConnections.shares.query();
    expect(incoming.find((s) => s.roomId === launch.id)).toMatchObject({ ours: false, status: "pending" });
    await gus.api.workspaceConnections.decideShare.mutate({ roomId: launch.id, approve: true });
    const listed = (await gus.api.rooms.browse.query()).find((c) => c.id === launch.id);
    expect(listed?.sharedFrom?.name).toBe((await ana.api.workspace.me.query())!.workspace.name);
    // Its people may search it as one of their own public channels, before they join.
    expect(await found(gus, "before sharing")).toEqual(["Before sharing: Acme only"]);
    expect((await ana.api.rooms.get.query({ roomId: launch.id })).shared).toMatchObject({ with: [{ id: globex.id }] });
  });

  it("lets the other workspace's people join, read its history and post; names cross with their workspace", async () => {
    await gus.api.rooms.join.mutate({ roomId: launch.id });
    const history = await gus.api.messages.history.query({ roomId: launch.id });
    expect(history.messages.map((m) => m.body)).toContain("Before sharing: Acme only");
    const hello = await send(gus, "Hello from Globex");
    expect(hello.seq).toBeGreaterThan(0);
    // Files either side attaches there are the room's: both read them. So are the other side's avatars.
    const theirs = await attach(gus, "globex-notes.txt", "from Globex");
    const ours = await attach(ana, "acme-plan.txt", "from Acme");
    expect(await (await download(ana, theirs)).text()).toBe("from Globex");
    expect(await (await download(gus, ours)).text()).toBe("from Acme");
    const avatar = (await gus.api.profile.setAvatar.mutate({ contentBase64: PIXEL_PNG })).avatarUrl!;
    expect((await download(ana, avatar)).status).toBe(200);
    // By its name and its people's handles too, as the other workspace's own would be named.
    const name = (await ana.api.rooms.get.query({ roomId: launch.id })).name;
    expect(await found(gus, `in:#${name} from:@ana sharing`)).toEqual(["Before sharing: Acme only"]);
    expect(await found(ana, `in:#${name} from:@gus hello`)).toEqual(["Hello from Globex"]);
    const seenByAna = await ana.api.messages.history.query({ roomId: launch.id });
    expect(seenByAna.messages.map((m) => m.body)).toContain("Hello from Globex");
    const gusSees = await gus.api.workspace.participants.query({});
    expect(gusSees.find((p) => p.id === ana.participantId)?.workspace?.name).toBe((await ana.api.workspace.me.query())!.workspace.name);
    // Globex's admin is a member here, not an admin: Acme's room's settings are not theirs.
    expect(await errorCode(gus.api.rooms.update.mutate({ roomId: launch.id, topic: "ours now" }))).toBe("FORBIDDEN");
  });

  it("takes the other workspace's agent in only with consent, and delivers mentions to it", async () => {
    expect(await errorCode(ana.api.rooms.invite.mutate({ roomId: launch.id, participantIds: [atlas.id] }))).toBe("NOT_CONNECTED");
    const asked = await ana.api.connections.request.mutate({ participantId: atlas.id, message: "Join our launch channel" });
    await gus.api.connections.respond.mutate({ connectionId: asked.id, decision: "accept" });
    await ana.api.rooms.invite.mutate({ roomId: launch.id, participantIds: [atlas.id] });
    const ask = await send(ana, "@atlas when can Gus meet next week?");
    expect(ask.mentions).toContain(atlas.id);
    // What answering costs is Globex's: its usage, priced by its table, in its dashboards alone.
    const client = new SwitchboardClient({ url: server.url, apiKey: atlas.apiKey });
    try {
      await client.connect();
      await client.reportUsage({ model: "claude-sonnet-4-5", inputTokens: 1200, outputTokens: 300, messageId: ask.id });
    } finally {
      await client.close();
    }
    const today = new Date().toISOString().slice(0, 10);
    const costIn = async (who: Person) => (await who.api.usage.room.query({ roomId: launch.id, from: today, to: today })).totals;
    expect(await costIn(gus)).toMatchObject({ calls: 1, inputTokens: 1200, outputTokens: 300 });
    expect(await costIn(ana)).toMatchObject({ calls: 0, inputTokens: 0 });
    // A room that is not shared takes nobody of Globex, connection or not.
    const other = await ana.api.rooms.createChannel.mutate({ name: `quiet-${randomUUID().slice(0, 6)}`, visibility: "public", topic: "", memberIds: [] });
    expect(await errorCode(ana.api.rooms.invite.mutate({ roomId: other.id, participantIds: [atlas.id] }))).toBe("PARTICIPANT_NOT_FOUND");
  });

  it("removes the other side at once when either admin disconnects; the owner keeps the room and its history", async () => {
    const removed = collect(gusSocket, "room:removed");
    await gus.api.workspaceConnections.disconnect.mutate({ connectionId });
    await waitFor(() => removed.some((r) => r.roomId === launch.id), 5_000, "room:removed on Gus's socket");
    expect(await errorCode(gus.api.rooms.get.query({ roomId: launch.id }))).toBe("ROOM_NOT_FOUND");
    expect(await errorCode(gus.api.messages.history.query({ roomId: launch.id }))).toBe("ROOM_NOT_FOUND");
    expect(await errorCode(send(gus, "still here?"))).toBe("ROOM_NOT_FOUND");
    const members = await queryDb<{ participantId: string }>(server, `SELECT "participantId" FROM "RoomMember" WHERE "roomId" = $1`, [launch.id]);
    expect(members.map((m) => m.participantId).sort()).toEqual([ana.participantId, mo.participantId].sort());
    const kept = await ana.api.messages.history.query({ roomId: launch.id });
    expect(kept.messages.map((m) => m.body)).toEqual(expect.arrayContaining(["Before sharing: Acme only", "Hello from Globex"]));
    expect((await ana.api.rooms.get.query({ roomId: launch.id })).shared).toBeNull();
    expect((await gus.api.rooms.browse.query()).map((c) => c.id)).not.toContain(launch.id);
    expect(await found(gus, "before sharing")).toEqual([]);
    expect(await errorCode(found(gus, "from:@ana"))).toBe("PARTICIPANT_NOT_FOUND");
    // Its files stay the room's, so Gus reads none of them; his avatar is Globex's own again.
    const files = await queryDb<{ id: string; workspaceId: string }>(server, `SELECT "id", "workspaceId" FROM "StoredFile" WHERE "roomId" = $1`, [launch.id]);
    expect(files.length).toBe(2);
    for (const file of files) expect((await download(gus, `/api/files/${file.id}`)).status).toBe(404);
    const gusAvatar = (await gus.api.workspace.participants.query({})).find((p) => p.id === gus.participantId)!.avatarUrl!;
    expect((await download(ana, gusAvatar)).status).toBe(404);
    expect((await download(gus, gusAvatar)).status).toBe(200);
    for (const person of [ana, gus]) {
      const actions = await queryDb<{ action: string }>(
        server,
        `SELECT e."action" FROM "AuditEvent" e JOIN "Participant" p ON p."workspaceId" = e."workspaceId" WHERE p."id" = $1 AND e."subjectId" = $2`,
        [person.participantId, launch.id],
      );
      expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(["room.shared", "room.share_approved"]));
    }
  });
  it("lets a channel's owner who is not an admin share it, where their side does not ask for an admin", async () => {
    const { code } = await ana.api.workspaceConnections.invite.mutate({ side: { directory: "agents", approveRooms: true } });
    const { id } = await gus.api.workspaceConnections.accept.mutate({ code, side: { directory: "agents", approveRooms: false } });
    const mine = await mo.api.rooms.createChannel.mutate({
      name: `mo-${randomUUID().slice(0, 6)}`,
      visibility: "public",
      topic: "",
      memberIds: [ana.participantId],
    });
    // Acme asks that an admin share each channel: Mo is told, and refused.
    expect(await mo.api.workspaceConnections.roomSharing.query({ roomId: mine.id })).toEqual({
      shares: [],
      targets: [{ workspace: { id: globex.id, name: globex.name, verifiedDomain: null }, mayShare: false }],
    });
    expect(await errorCode(mo.api.workspaceConnections.share.mutate({ roomId: mine.id, workspaceId: globex.id }))).toBe("FORBIDDEN");
    await ana.api.workspaceConnections.updateSide.mutate({ connectionId: id, directory: "agents", approveRooms: false });
    expect((await mo.api.workspaceConnections.roomSharing.query({ roomId: mine.id })).targets).toEqual([expect.objectContaining({ mayShare: true })]);
    await mo.api.workspaceConnections.share.mutate({ roomId: mine.id, workspaceId: globex.id });
    expect(await mo.api.workspaceConnections.roomSharing.query({ roomId: mine.id })).toMatchObject({
      shares: [{ workspace: { id: globex.id }, status: "active", ours: true }],
      targets: [],
    });
    // Its members who are neither its owner nor an admin, and the other side, see no more than the room says.
    expect(await errorCode(mo.api.workspaceConnections.roomSharing.query({ roomId: launch.id }))).toBe("FORBIDDEN");
    expect(await errorCode(gus.api.workspaceConnections.roomSharing.query({ roomId: mine.id }))).toBe("ROOM_NOT_FOUND");
    await gus.api.workspaceConnections.disconnect.mutate({ connectionId: id });
  });

  it("never lets a join outlive a disconnect racing it", async () => {
    for (let round = 0; round < 8; round++) {
      const { code } = await ana.api.workspaceConnections.invite.mutate({ side: { directory: "agents", approveRooms: false } });
      const { id } = await gus.api.workspaceConnections.accept.mutate({ code, side: { directory: "agents", approveRooms: false } });
      const room = await ana.api.rooms.createChannel.mutate({ name: `race-${randomUUID().slice(0, 6)}`, visibility: "public", topic: "", memberIds: [] });
      await ana.api.workspaceConnections.share.mutate({ roomId: room.id, workspaceId: globex.id });
      const [joined] = await Promise.allSettled([
        gus.api.rooms.join.mutate({ roomId: room.id }),
        ana.api.workspaceConnections.disconnect.mutate({ connectionId: id }),
      ]);
      if (joined.status === "rejected") expect(await errorCode(Promise.reject(joined.reason))).toBe("ROOM_NOT_FOUND");
      const crossing = await queryDb<{ participantId: string }>(
        server,
        `SELECT "participantId" FROM "RoomMember" WHERE "roomId" = $1 AND "participantId" = $2`,
        [room.id, gus.participantId],
      );
      expect(crossing, `round ${round}: Gus is still in the room after the disconnect`).toEqual([]);
    }
  });
});
