import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionView } from "@switchboard/sdk";
import type { Ack, ConnectionPage } from "@switchboard/sdk/contract";
import {
  closeAgentClients,
  closeSockets,
  collect,
  connectedAgent,
  createAgent,
  dialects,
  emitAck,
  errorCode,
  queryDb,
  signUpPerson,
  waitFor,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

describe.each(dialects)("discovery and consent on %s", (dialect) => {
  let server: TestServer;
  let ana: Person;
  let ben: Person;

  const agentOf = (owner: Person, handle: string, capabilities: string[] = [], framework = "script") =>
    connectedAgent(server, owner, handle, { capabilities, framework });

  beforeAll(async () => {
    ({
      server,
      people: { ana, ben },
    } = await startWorkspace(dialect, { people: { ana: "owner", ben: "member" } }));
  });
  afterEach(async () => {
    await closeAgentClients();
    closeSockets();
  });
  afterAll(() => server.dispose());

  it("lists people and agents with owner, capabilities and standing, filtered every way", async () => {
    const coder = await agentOf(ben, `coder-${dialect}`, ["code", "review"], "codex");
    await coder.client.setWorkStatus("refactoring the router");
    const all = await ana.api.directory.search.query({});
    const entry = all.find((p) => p.id === coder.id)!;
    expect(entry).toMatchObject({
      kind: "agent",
      framework: "codex",
      capabilities: ["code", "review"],
      owner: { handle: "ben" },
      online: true,
      workStatus: "refactoring the router",
      connection: "none",
    });
    expect(all.find((p) => p.handle === "ben")?.connection).toBe("connected"); // people talk freely by default
    expect((await ana.api.directory.search.query({ capability: "REVIEW" })).map((p) => p.id)).toContain(coder.id);
    expect((await ana.api.directory.search.query({ kind: "human" })).every((p) => p.kind === "human")).toBe(true);
    expect((await ana.api.directory.search.query({ ownerId: ben.participantId })).map((p) => p.id)).toContain(coder.id);
    expect((await ana.api.directory.search.query({ text: "refactoring" })).map((p) => p.id)).toEqual([]);
    expect((await ana.api.directory.search.query({ text: "coder" })).map((p) => p.id)).toEqual([coder.id]);
    // Agents search over the socket with the same filters.
    const found = await coder.client.findParticipants({ kind: "human", text: "ana" });
    expect(found.map((p) => p.handle)).toEqual(["ana"]);
  });

  it("asks, lets the owner accept, and only then allows DMs, invites and mentions", async () => {
    const asker = await agentOf(ben, `asker-${dialect}`);
    const helper = await agentOf(ana, `helper-${dialect}`);
    const anaSocket = await ana.socket();
    const inbox = collect(anaSocket, "connection:request");
    const updates: ConnectionView[] = [];
    asker.client.onConnectionUpdate((c) => updates.push(c));

    // Before consent: refused with a clear code.
    await expect(asker.client.openDirect([helper.id])).rejects.toMatchObject({ code: "NOT_CONNECTED" });
    const room = await asker.client.createRoom(`work-${dialect}`);
    await expect(asker.client.invite(room.id, [helper.id])).rejects.toMatchObject({ code: "NOT_CONNECTED" });

    const request = await asker.client.requestConnection(helper.id, { message: "Can I send you tasks?" });
    expect(request.status).toBe("pending");
    await waitFor(() => inbox.some((e) => e.connection.id === request.id), 10_000, "request in the owner's inbox");
    const { connections: pending } = await ana.api.connections.list.query({ status: "pending" });
    expect(pending.map((c) => c.id)).toContain(request.id);
    expect(pending.find((c) => c.id === request.id)).toMatchObject({ requester: { owner: { displayName: "Ben" } }, message: "Can I send you tasks?" });
    // The agent itself cannot accept on its owner's behalf; a stranger cannot either.
    await expect(helper.client.respondToConnection(request.id, "accept")).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await errorCode(ben.api.connections.respond.mutate({ connectionId: request.id, decision: "accept" }))).toBe("FORBIDDEN");

    const accepted = await ana.api.connections.respond.mutate({ connectionId: request.id, decision: "accept" });
    expect(accepted).toMatchObject({ status: "accepted", decidedBy: { displayName: "Ana" } });
    await waitFor(() => updates.some((c) => c.id === request.id && c.status === "accepted"), 10_000, "asker notified");

    await asker.client.invite(room.id, [helper.id]);
    const told: string[] = [];
    helper.client.onMessage((m) => void told.push(m.body));
    const sent = await asker.client.send(room.id, `@helper-${dialect} please summarise`);
    expect(sent.mentions).toEqual([helper.id]);
    await waitFor(() => told.includes(`@helper-${dialect} please summarise`), 10_000, "mention delivered");
    expect((await asker.client.openDirect([helper.id])).kind).toBe("dm");

    // Revoked: new DMs and invites stop at once, and mentions are no longer delivered.
    await ana.api.connections.revoke.mutate({ connectionId: request.id });
    const other = await asker.client.createRoom(`after-${dialect}`);
    await expect(asker.client.invite(other.id, [helper.id])).rejects.toMatchObject({ code: "NOT_CONNECTED" });
    await expect(asker.client.openDirect([helper.id])).rejects.toMatchObject({ code: "NOT_CONNECTED" });
    const unheard = await asker.client.send(room.id, `@helper-${dialect} are you there?`);
    expect(unheard.mentions).toEqual([]);

    const audit = await queryDb<{ action: string }>(server, `SELECT action FROM "AuditEvent" WHERE "subjectId" = $1 ORDER BY seq`, [request.id]);
    expect(audit.map((a) => a.action)).toEqual(["connection.requested", "connection.accepted", "connection.revoked"]);
  });

  it("applies each agent's consent policy: own, workspace, refuse, ask", async () => {
    const mine1 = await agentOf(ana, `own1-${dialect}`);
    const mine2 = await agentOf(ana, `own2-${dialect}`);
    const theirs = await agentOf(ben, `theirs-${dialect}`);
    await ana.api.agents.setConsentPolicy.mutate({ agentId: mine2.id, policy: "own" });
    expect((await mine1.client.requestConnection(mine2.id)).status).toBe("accepted");
    expect((await theirs.client.requestConnection(mine2.id)).status).toBe("pending");

    const open = await agentOf(ana, `open-${dialect}`);
    await ana.api.agents.setConsentPolicy.mutate({ agentId: open.id, policy: "workspace" });
    expect((await theirs.client.requestConnection(open.id)).status).toBe("accepted");

    const closed = await agentOf(ana, `closed-${dialect}`);
    await ana.api.agents.setConsentPolicy.mutate({ agentId: closed.id, policy: "refuse" });
    expect((await theirs.client.requestConnection(closed.id)).status).toBe("declined");
    expect(await errorCode(ben.api.agents.setConsentPolicy.mutate({ agentId: closed.id, policy: "workspace" }))).toBe("FORBIDDEN");
  });

  it("lets exactly one of a concurrent accept and decline win", async () => {
    for (let round = 0; round < 3; round++) {
      const from = await agentOf(ben, `race-a${round}-${dialect}`);
      const to = await agentOf(ana, `race-b${round}-${dialect}`);
      const { id } = await from.client.requestConnection(to.id);
      const results = await Promise.allSettled([
        ana.api.connections.respond.mutate({ connectionId: id, decision: "accept" }),
        ana.api.connections.respond.mutate({ connectionId: id, decision: "decline" }),
        to.client.respondToConnection(id, "decline"),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      expect(won).toHaveLength(1);
      const final = (await ana.api.connections.list.query({ status: "all" })).connections.find((c) => c.id === id)!;
      expect(final.status).toBe((won[0] as PromiseFulfilledResult<ConnectionView>).value.status);
      const decisions = await queryDb<{ n: number }>(
        server,
        `SELECT COUNT(*) AS n FROM "AuditEvent" WHERE "subjectId" = $1 AND action IN ('connection.accepted', 'connection.declined')`,
        [id],
      );
      expect(Number(decisions[0].n)).toBe(1);
    }
  });

  it("expires connections, cancels requests, and blocks", async () => {
    const a = await agentOf(ben, `exp-a-${dialect}`);
    const b = await agentOf(ana, `exp-b-${dialect}`);
    const req = await a.client.requestConnection(b.id, { expiresInDays: 1 });
    await ana.api.connections.respond.mutate({ connectionId: req.id, decision: "accept" });
    expect((await a.client.openDirect([b.id])).kind).toBe("dm");
    // A day passes.
    await queryDb(server, `UPDATE "Connection" SET "expiresAt" = $1 WHERE id = $2`, [
      dialect === "sqlite" ? Date.now() - 1000 : new Date(Date.now() - 1000),
      req.id,
    ]);
    const room = await a.client.createRoom(`exp-${dialect}`);
    await expect(a.client.invite(room.id, [b.id])).rejects.toMatchObject({ code: "NOT_CONNECTED" });
    // Asking again replaces the expired edge.
    const again = await a.client.requestConnection(b.id);
    expect(again.status).toBe("pending");
    expect((await a.client.cancelConnection(again.id)).status).toBe("cancelled");
    await expect(b.client.cancelConnection(again.id)).rejects.toMatchObject({ code: "FORBIDDEN" });

    // Ana blocks the asker for her agent: no more requests.
    const blocked = await ana.api.connections.block.mutate({ participantId: a.id, onBehalfOf: b.id });
    expect(blocked.status).toBe("blocked");
    await expect(a.client.requestConnection(b.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await ana.api.connections.revoke.mutate({ connectionId: blocked.id }); // unblock
    expect((await a.client.requestConnection(b.id)).status).toBe("pending");
  });

  it("lets only the blocker (its owner, or an admin) lift a block; the blocked side is offered none", async () => {
    const blocker = await agentOf(ana, `blocker-${dialect}`);
    const blocked = await agentOf(ben, `blocked-${dialect}`);
    const block = await ana.api.connections.block.mutate({ participantId: blocked.id, onBehalfOf: blocker.id });
    expect(block).toMatchObject({ status: "blocked", can: { unblock: true }, viewerSides: { requester: true, addressee: false } });

    // The blocked agent and its owner see the block with no way to lift it, and are refused if they try.
    const bens = (await ben.api.connections.list.query({ status: "history", limit: 200 })).connections.find((c) => c.id === block.id)!;
    expect(bens).toMatchObject({ status: "blocked", can: { unblock: false, revoke: false }, viewerSides: { requester: false, addressee: true } });
    await expect(blocked.client.revokeConnection(block.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await errorCode(ben.api.connections.revoke.mutate({ connectionId: block.id }))).toBe("FORBIDDEN");
    // Blocking back does not replace (and so cannot lift) the block.
    await expect(blocked.client.block(blocker.id)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(blocked.client.requestConnection(blocker.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await ana.api.connections.list.query({ status: "history", limit: 200 })).connections.find((c) => c.id === block.id)?.status).toBe("blocked");

    // The blocker lifts it itself; the audit says it was unblocked, by whom.
    expect(await blocker.client.revokeConnection(block.id)).toMatchObject({ status: "revoked", endedBy: blocker.id, can: { unblock: false } });
    expect((await blocked.client.requestConnection(blocker.id)).status).toBe("pending");
    const audit = await queryDb<{ action: string; actorId: string }>(server, `SELECT action, "actorId" FROM "AuditEvent" WHERE "subjectId" = $1 ORDER BY seq`, [
      block.id,
    ]);
    expect(audit).toEqual([
      { action: "connection.blocked", actorId: ana.participantId },
      { action: "connection.unblocked", actorId: blocker.id },
    ]);
  });

  it("honours a block between people who otherwise talk freely: no DM, no invitation, no mention", async () => {
    const carl = await signUpPerson(server, { handle: `carl-${dialect}`, inviteToken: (await ana.api.workspace.createInvite.mutate({})).token });
    const dana = await signUpPerson(server, { handle: `dana-${dialect}`, inviteToken: (await ana.api.workspace.createInvite.mutate({})).token });
    const shared = await carl.api.rooms.createChannel.mutate({ name: `shared-${dialect}`, visibility: "private", memberIds: [dana.participantId] });
    const mentionCarl = () => dana.api.messages.send.mutate({ roomId: shared.id, body: `@carl-${dialect} hello`, clientMsgId: randomUUID() });
    expect((await mentionCarl()).mentions).toEqual([carl.participantId]);

    const block = await carl.api.connections.block.mutate({ participantId: dana.participantId });
    const own = await dana.api.rooms.createChannel.mutate({ name: `danas-${dialect}`, visibility: "private" });
    // Dana cannot reach Carl...
    expect(await errorCode(dana.api.rooms.openDirect.mutate({ participantIds: [carl.participantId] }))).toBe("NOT_CONNECTED");
    expect(await errorCode(dana.api.rooms.invite.mutate({ roomId: own.id, participantIds: [carl.participantId] }))).toBe("NOT_CONNECTED");
    expect((await mentionCarl()).mentions).toEqual([]);
    expect(await errorCode(dana.api.connections.request.mutate({ participantId: carl.participantId }))).toBe("FORBIDDEN");
    expect((await dana.api.directory.search.query({ text: `carl-${dialect}` }))[0].connection).toBe("blocked");
    // ...nor Carl her, while his block stands.
    expect(await errorCode(carl.api.rooms.openDirect.mutate({ participantIds: [dana.participantId] }))).toBe("NOT_CONNECTED");
    expect((await carl.api.directory.search.query({ text: `dana-${dialect}` }))[0].connection).toBe("blocked");
    // Dana cannot lift it; an admin (Ana owns the workspace) can.
    expect(await errorCode(dana.api.connections.revoke.mutate({ connectionId: block.id }))).toBe("FORBIDDEN");
    expect(await ana.api.connections.revoke.mutate({ connectionId: block.id })).toMatchObject({ status: "revoked", endedBy: ana.participantId });
    expect((await dana.api.rooms.openDirect.mutate({ participantIds: [carl.participantId] })).kind).toBe("dm");
    expect((await mentionCarl()).mentions).toEqual([carl.participantId]);
  });

  it("delivers mentions in the rooms a scoped connection covers", async () => {
    const asker = await agentOf(ben, `scoped-asker-${dialect}`);
    const helper = await agentOf(ana, `scoped-helper-${dialect}`);
    const room = await asker.client.createRoom(`scoped-${dialect}`);
    const request = await asker.client.requestConnection(helper.id, { scope: { roomIds: [room.id] } });
    await ana.api.connections.respond.mutate({ connectionId: request.id, decision: "accept" });
    await asker.client.invite(room.id, [helper.id]);
    await expect(asker.client.openDirect([helper.id])).rejects.toMatchObject({ code: "NOT_CONNECTED" });

    const told: string[] = [];
    helper.client.onMessage((m) => void told.push(m.body));
    const sent = await asker.client.send(room.id, `@scoped-helper-${dialect} in scope`);
    expect(sent.mentions).toEqual([helper.id]);
    await waitFor(() => told.includes(`@scoped-helper-${dialect} in scope`), 10_000, "mention delivered in the scoped room");
  });

  it("says who ended a connection and when; nothing ended has neither", async () => {
    const agents = await Promise.all([0, 1, 2].map((i) => createAgent(ana, `ends${i}-${dialect}`)));
    const ask = (i: number) => ben.api.connections.request.mutate({ participantId: agents[i].id, message: `ask ${i}` });
    const [kept, revoked, cancelled] = await Promise.all([0, 1, 2].map(ask));
    for (const c of [kept, revoked]) await ana.api.connections.respond.mutate({ connectionId: c.id, decision: "accept" });
    expect(kept).toMatchObject({ endedAt: null, endedBy: null });

    const before = Date.now();
    const byBen = await ben.api.connections.revoke.mutate({ connectionId: revoked.id });
    expect(byBen).toMatchObject({ status: "revoked", endedBy: ben.participantId, decidedBy: { displayName: "Ana" } });
    expect(new Date(byBen.endedAt!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(byBen.endedAt!).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const withdrawn = await ben.api.connections.cancel.mutate({ connectionId: cancelled.id });
    expect(withdrawn).toMatchObject({ status: "cancelled", endedBy: ben.participantId, decidedBy: null });

    // The same on the other side's list, and an owner ending for their agent is named as the owner.
    const { connections } = await ana.api.connections.list.query({ status: "history", limit: 200 });
    const seen = new Map(connections.map((c) => [c.id, c]));
    expect(seen.get(revoked.id)).toMatchObject({ endedBy: ben.participantId, endedAt: byBen.endedAt });
    expect(seen.get(kept.id)).toMatchObject({ status: "accepted", endedAt: null, endedBy: null });
    const byOwner = await ana.api.connections.revoke.mutate({ connectionId: kept.id });
    expect(byOwner.endedBy).toBe(ana.participantId);

    // A block lifted is ended by whoever lifted it.
    const blocked = await ana.api.connections.block.mutate({ participantId: ben.participantId, onBehalfOf: agents[0].id });
    expect(blocked).toMatchObject({ status: "blocked", endedAt: null, endedBy: null });
    expect((await ana.api.connections.revoke.mutate({ connectionId: blocked.id })).endedBy).toBe(ana.participantId);
  });

  it("pages the history with an opaque cursor over tRPC and the socket, newest change first", async () => {
    const agents = await Promise.all([0, 1, 2, 3, 4].map((i) => createAgent(ana, `page${i}-${dialect}`)));
    for (const agent of agents) {
      const { id } = await ben.api.connections.request.mutate({ participantId: agent.id });
      await ana.api.connections.respond.mutate({ connectionId: id, decision: "decline" });
    }
    const { connections: all, nextCursor: none } = await ana.api.connections.list.query({ status: "history", limit: 200 });
    expect(none).toBeNull();
    expect(all.length).toBeGreaterThanOrEqual(5);

    // Pages of 2 over tRPC add up to the whole list, in order, without repeats.
    const paged: ConnectionView[] = [];
    let cursor: string | null = null;
    do {
      const page: ConnectionPage = await ana.api.connections.list.query({ status: "history", limit: 2, cursor });
      expect(page.connections.length).toBeLessThanOrEqual(2);
      paged.push(...page.connections);
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged.map((c) => c.id)).toEqual(all.map((c) => c.id));
    // The browser's infinite query adds `direction`; only forward pages exist.
    expect((await ana.api.connections.list.query({ status: "history", limit: 2, direction: "forward" })).connections).toHaveLength(2);

    // The socket's connection:list pages the same way.
    const socket = await ana.socket();
    const first = await emitAck<Ack<ConnectionPage>>(socket, "connection:list", { status: "history", limit: 3 });
    if (!first.ok) throw new Error(first.error.message);
    expect(first.data.connections.map((c) => c.id)).toEqual(all.slice(0, 3).map((c) => c.id));
    const second = await emitAck<Ack<ConnectionPage>>(socket, "connection:list", { status: "history", limit: 3, cursor: first.data.nextCursor });
    if (!second.ok) throw new Error(second.error.message);
    expect(second.data.connections.map((c) => c.id)).toEqual(all.slice(3, 6).map((c) => c.id));

    // An agent reads its own connections page by page with the SDK.
    const asker = await agentOf(ben, `pager-${dialect}`);
    await asker.client.requestConnection(agents[0].id);
    await asker.client.requestConnection(agents[1].id);
    const newest = await asker.client.listConnectionsPage({ limit: 1 });
    expect(newest.connections).toHaveLength(1);
    const older = await asker.client.listConnectionsPage({ limit: 1, cursor: newest.nextCursor! });
    expect(older.connections[0].id).not.toBe(newest.connections[0].id);
    expect(await asker.client.listConnections()).toHaveLength(2);

    // A cursor the server did not issue is refused with a code, not a crash.
    expect(await errorCode(ana.api.connections.list.query({ status: "history", cursor: "bm90LWEtY3Vyc29y" }))).toBe("INVALID_PAYLOAD");
    const bad = await emitAck<Ack<ConnectionPage>>(socket, "connection:list", { status: "history", cursor: "%%%" });
    expect(bad.ok ? "OK" : bad.error.code).toBe("INVALID_PAYLOAD");
    expect(await errorCode(ana.api.connections.list.query({ status: "history", limit: 201 }))).toBe("INVALID_PAYLOAD");
  });

  it("lets people talk freely unless the workspace asks for requests between people too", async () => {
    expect((await ana.api.rooms.openDirect.mutate({ participantIds: [ben.participantId] })).kind).toBe("dm");
    expect(await errorCode(ben.api.workspace.updateSettings.mutate({ peopleTalkFreely: false }))).toBe("FORBIDDEN");
    await ana.api.workspace.updateSettings.mutate({ peopleTalkFreely: false });
    const room = await ana.api.rooms.createChannel.mutate({ name: `people-${dialect}`, visibility: "private" });
    expect(await errorCode(ana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [ben.participantId] }))).toBe("NOT_CONNECTED");
    const req = await ana.api.connections.request.mutate({ participantId: ben.participantId, message: "hi", scope: { roomIds: [room.id] } });
    await ben.api.connections.respond.mutate({ connectionId: req.id, decision: "accept" });
    await ana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [ben.participantId] });
    // The connection is scoped to that room: a DM is outside it.
    expect(await errorCode(ana.api.rooms.openDirect.mutate({ participantIds: [ben.participantId] }))).toBe("NOT_CONNECTED");
    await ana.api.workspace.updateSettings.mutate({ peopleTalkFreely: true });
    await ana.api.messages.send.mutate({ roomId: room.id, body: "done", clientMsgId: randomUUID() });
  });
});
