// Two workspaces of one deployment connected the way Slack Connect connects companies: an admin of
// one invites with a code that expires, an admin of the other accepts, each side keeps its own
// choices, and either ends it. Each side's audit log records what touched it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkspaceConnectionView } from "@switchboard/sdk/workspace-connections";
import { createAgent, dialects, errorCode, queryDb, sqlDate, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

describe.each(dialects)("workspace connections (%s)", (dialect) => {
  let server: TestServer;
  let ana: Person; // owner of Acme
  let mo: Person; // a member of Acme
  let gus: Person; // owner of Globex
  let hal: Person; // owner of a third workspace, Initech

  beforeAll(async () => {
    const acme = await startWorkspace(dialect, { people: { ana: "owner", mo: "member" } });
    ({ server } = acme);
    ({ ana, mo } = acme.people);
    ({ gus } = (await startWorkspace(dialect, { people: { gus: "owner" } })).people);
    ({ hal } = (await startWorkspace(dialect, { people: { hal: "owner" } })).people);
  });
  afterAll(() => server.dispose());

  const auditActions = async (person: Person, subjectId: string) =>
    (
      await queryDb<{ action: string }>(
        server,
        `SELECT e."action" FROM "AuditEvent" e JOIN "Participant" p ON p."workspaceId" = e."workspaceId" WHERE p."id" = $1 AND e."subjectId" = $2 ORDER BY e."seq"`,
        [person.participantId, subjectId],
      )
    ).map((r) => r.action);

  it("lets only owners and admins invite, and shows the code once", async () => {
    expect(await errorCode(mo.api.workspaceConnections.invite.mutate({}))).toBe("FORBIDDEN");
    expect(await errorCode(mo.api.workspaceConnections.list.query())).toBe("FORBIDDEN");
    const { code, connection } = await ana.api.workspaceConnections.invite.mutate({});
    expect(code).toMatch(/^sbc_/);
    expect(connection).toMatchObject({ status: "pending", invitedByUs: true, peer: null, theirs: null });
    expect(connection.ours).toEqual({ directory: "agents", listedIds: [], otherMay: "post", approveRooms: true });
    // 14 days unless said.
    const days = (Date.parse(connection.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    const stored = await queryDb<{ codeHash: string }>(server, `SELECT "codeHash" FROM "WorkspaceConnection" WHERE "id" = $1`, [connection.id]);
    expect(stored[0].codeHash).not.toContain(code.slice(4));
  });

  it("connects two workspaces when the other's admin accepts, each side with its own choices, in both audit logs", async () => {
    const { code, connection } = await ana.api.workspaceConnections.invite.mutate({ side: { directory: "everyone", otherMay: "invite" } });
    const preview = await gus.api.workspaceConnections.preview.query({ code });
    expect(preview.workspace.name).toBe(await workspaceName(ana));
    expect(preview.theirs).toMatchObject({ directory: "everyone", otherMay: "invite" });
    // Its own workspace cannot accept it.
    expect(await errorCode(ana.api.workspaceConnections.accept.mutate({ code }))).toBe("CONFLICT");

    const accepted = await gus.api.workspaceConnections.accept.mutate({ code, side: { directory: "people", approveRooms: false } });
    expect(accepted).toMatchObject({ status: "active", invitedByUs: false, peer: { name: await workspaceName(ana), verifiedDomain: null } });
    expect(accepted.ours).toMatchObject({ directory: "people", approveRooms: false, otherMay: "post" });
    expect(accepted.theirs).toMatchObject({ directory: "everyone", otherMay: "invite" });

    const fromAcme = (await ana.api.workspaceConnections.list.query()).find((c) => c.id === connection.id)!;
    expect(fromAcme).toMatchObject({ status: "active", invitedByUs: true, peer: { name: await workspaceName(gus) } });
    expect(fromAcme.theirs).toMatchObject({ directory: "people", approveRooms: false });

    // A code is good once; an admin of a third workspace learns nothing of the connection.
    expect(await errorCode(hal.api.workspaceConnections.accept.mutate({ code }))).toBe("CONNECTION_INVALID");
    expect(await errorCode(hal.api.workspaceConnections.disconnect.mutate({ connectionId: connection.id }))).toBe("NOT_FOUND");
    expect((await hal.api.workspaceConnections.list.query()).map((c) => c.id)).not.toContain(connection.id);

    expect(await auditActions(ana, connection.id)).toEqual(["workspace_connection.invited", "workspace_connection.accepted"]);
    expect(await auditActions(gus, connection.id)).toEqual(["workspace_connection.accepted"]);

    // Two workspaces are connected once.
    const again = await ana.api.workspaceConnections.invite.mutate({});
    expect(await errorCode(gus.api.workspaceConnections.accept.mutate({ code: again.code }))).toBe("CONFLICT");
    await ana.api.workspaceConnections.revoke.mutate({ connectionId: again.connection.id });
  });

  it("keeps each side's choices its own: a side lists only its own participants, and the other side sees the change", async () => {
    const active = (await gus.api.workspaceConnections.list.query()).find((c) => c.status === "active")!;
    expect(
      await errorCode(gus.api.workspaceConnections.updateSide.mutate({ connectionId: active.id, directory: "listed", listedIds: [ana.participantId] })),
    ).toBe("PARTICIPANT_NOT_FOUND");
    const changed = await gus.api.workspaceConnections.updateSide.mutate({ connectionId: active.id, directory: "listed", listedIds: [gus.participantId] });
    expect(changed.ours).toMatchObject({ directory: "listed", listedIds: [gus.participantId] });
    const seen = (await ana.api.workspaceConnections.list.query()).find((c) => c.id === active.id)!;
    expect(seen.theirs).toMatchObject({ directory: "listed", listedIds: [gus.participantId] });
    expect(await auditActions(ana, active.id)).toContain("workspace_connection.side_changed");
  });

  it("refuses an expired or withdrawn code", async () => {
    const expiring = await ana.api.workspaceConnections.invite.mutate({ expiresInDays: 1 });
    await queryDb(server, `UPDATE "WorkspaceConnection" SET "expiresAt" = $1 WHERE "id" = $2`, [
      sqlDate(dialect, new Date(Date.now() - 1000)),
      expiring.connection.id,
    ]);
    expect(await errorCode(hal.api.workspaceConnections.preview.query({ code: expiring.code }))).toBe("CONNECTION_INVALID");
    expect(await errorCode(hal.api.workspaceConnections.accept.mutate({ code: expiring.code }))).toBe("CONNECTION_INVALID");
    expect(statusOf(await ana.api.workspaceConnections.list.query(), expiring.connection.id)).toBe("expired");

    const withdrawn = await ana.api.workspaceConnections.invite.mutate({});
    expect(await errorCode(mo.api.workspaceConnections.revoke.mutate({ connectionId: withdrawn.connection.id }))).toBe("FORBIDDEN");
    await ana.api.workspaceConnections.revoke.mutate({ connectionId: withdrawn.connection.id });
    expect(await errorCode(hal.api.workspaceConnections.accept.mutate({ code: withdrawn.code }))).toBe("CONNECTION_INVALID");
    expect(statusOf(await ana.api.workspaceConnections.list.query(), withdrawn.connection.id)).toBe("revoked");
    expect(await errorCode(hal.api.workspaceConnections.accept.mutate({ code: "sbc_nothing_here" }))).toBe("CONNECTION_INVALID");
  });

  it("lets either side's admin disconnect, recorded on both sides", async () => {
    const active = (await gus.api.workspaceConnections.list.query()).find((c) => c.status === "active")!;
    const ended = await gus.api.workspaceConnections.disconnect.mutate({ connectionId: active.id });
    expect(ended).toMatchObject({ status: "disconnected", endedByUs: true });
    expect((await ana.api.workspaceConnections.list.query()).find((c) => c.id === active.id)).toMatchObject({ status: "disconnected", endedByUs: false });
    expect(await auditActions(ana, active.id)).toContain("workspace_connection.disconnected");
    expect(await auditActions(gus, active.id)).toContain("workspace_connection.disconnected");
    expect(await errorCode(ana.api.workspaceConnections.disconnect.mutate({ connectionId: active.id }))).toBe("CONFLICT");
    // Ended, the two may connect again with a new code.
    const { code } = await ana.api.workspaceConnections.invite.mutate({});
    expect((await gus.api.workspaceConnections.accept.mutate({ code })).status).toBe("active");
  });
});

describe.each(dialects)("consent across connected workspaces (%s)", (dialect) => {
  let server: TestServer;
  let ana: Person; // Acme's owner, who owns the agent @codex
  let gus: Person; // Globex's owner, who owns the assistant @atlas
  let atlas: Awaited<ReturnType<typeof createAgent>>;
  let connectionId: string;
  let dmId: string;

  beforeAll(async () => {
    const acme = await startWorkspace(dialect, { people: { ana: "owner" } });
    ({ server } = acme);
    ana = acme.people.ana;
    gus = (await startWorkspace(dialect, { people: { gus: "owner" } })).people.gus;
    await createAgent(ana, "codex", { capabilities: ["code"] });
    atlas = await createAgent(gus, "atlas", { capabilities: ["scheduling"] });
  });
  afterAll(() => server.dispose());

  const found = async (person: Person, text: string) => (await person.api.directory.search.query({ text })).map((e) => [e.handle, e.workspace?.name ?? null]);

  it("shows nobody of another workspace until the two are connected", async () => {
    expect(await found(ana, "atlas")).toEqual([]);
    expect(await errorCode(ana.api.connections.request.mutate({ participantId: atlas.id }))).toBe("PARTICIPANT_NOT_FOUND");
  });

  it("lets each side find whom the other side allows, named with its workspace", async () => {
    const { code } = await ana.api.workspaceConnections.invite.mutate({ side: { directory: "agents" } });
    connectionId = (await gus.api.workspaceConnections.accept.mutate({ code, side: { directory: "agents" } })).id;
    const globex = (await gus.api.workspace.me.query())!.workspace.name;
    expect(await found(ana, "atlas")).toEqual([["atlas", globex]]);
    expect(await found(ana, "gus")).toEqual([]); // Globex lets Acme find its agents, not its people
    expect(await found(gus, "codex")).toEqual([["codex", (await ana.api.workspace.me.query())!.workspace.name]]);
    // A person of another workspace is not asked either: not found, as before.
    expect(await errorCode(ana.api.connections.request.mutate({ participantId: gus.participantId }))).toBe("PARTICIPANT_NOT_FOUND");
  });

  it("asks the other workspace's owner of the agent, who decides in their inbox; both audit logs say so", async () => {
    const asked = await ana.api.connections.request.mutate({ participantId: atlas.id, message: "Codex would like Atlas's calendar" });
    expect(asked.status).toBe("pending");
    const inbox = await gus.api.connections.list.query({ status: "pending" });
    const request = inbox.connections.find((c) => c.id === asked.id)!;
    expect(request.requester.workspace?.name).toBe((await ana.api.workspace.me.query())!.workspace.name);
    expect(request.addressee.workspace).toBeNull();
    expect(request.can.accept).toBe(true);
    const accepted = await gus.api.connections.respond.mutate({ connectionId: asked.id, decision: "accept" });
    expect(accepted.status).toBe("accepted");
    expect((await ana.api.directory.search.query({ text: "atlas" }))[0].connection).toBe("connected");
    // A direct conversation across the two, found again from either side.
    dmId = (await ana.api.rooms.openDirect.mutate({ participantIds: [atlas.id] })).id;
    expect((await ana.api.rooms.openDirect.mutate({ participantIds: [atlas.id] })).id).toBe(dmId);
    for (const person of [ana, gus]) {
      const actions = await queryDb<{ action: string }>(
        server,
        `SELECT e."action" FROM "AuditEvent" e JOIN "Participant" p ON p."workspaceId" = e."workspaceId" WHERE p."id" = $1 AND e."subjectId" = $2 ORDER BY e."seq"`,
        [person.participantId, asked.id],
      );
      expect(actions.map((a) => a.action)).toEqual(["connection.requested", "connection.accepted"]);
    }
  });

  it("hides the other side again once disconnected: not found, not askable, out of the conversation", async () => {
    await gus.api.workspaceConnections.disconnect.mutate({ connectionId });
    expect(await found(ana, "atlas")).toEqual([]);
    expect(await errorCode(ana.api.connections.request.mutate({ participantId: atlas.id }))).toBe("PARTICIPANT_NOT_FOUND");
    expect(await errorCode(ana.api.rooms.openDirect.mutate({ participantIds: [atlas.id] }))).toBe("PARTICIPANT_NOT_FOUND");
    const members = await queryDb<{ participantId: string }>(server, `SELECT "participantId" FROM "RoomMember" WHERE "roomId" = $1`, [dmId]);
    expect(members.map((m) => m.participantId)).toEqual([ana.participantId]);
  });
});

const statusOf = (list: WorkspaceConnectionView[], id: string) => list.find((c) => c.id === id)?.status;

async function workspaceName(person: Person): Promise<string> {
  return (await person.api.workspace.me.query())!.workspace.name;
}
