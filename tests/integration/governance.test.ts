import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { io as connect } from "socket.io-client";
import type { Ack, MessageView } from "@switchboard/sdk/contract";
import {
  apiClient,
  AUDIT_VERIFY,
  closeSockets,
  collect,
  createAgent,
  dialects,
  emitAck,
  errorCode,
  openAgentSocket,
  queryDb,
  signUpPerson,
  waitFor,
  type Person,
  type TestServer,
  sqlDate,
} from "./harness";
import { startWorkspace } from "./factories";

const ROOT = path.resolve(import.meta.dirname, "../..");

async function refusalCode(url: string, apiKey: string): Promise<string> {
  const socket = connect(url, { path: "/socket.io", transports: ["websocket"], reconnection: false, auth: { apiKey } });
  const error = await new Promise<Error & { data?: { code: string } }>((resolve) => socket.once("connect_error", resolve));
  socket.disconnect();
  return error.data?.code ?? "NO_CODE";
}

type AgentSocket = Awaited<ReturnType<typeof openAgentSocket>>;
async function send(socket: AgentSocket, roomId: string, body: string) {
  return emitAck<Ack<MessageView>>(socket, "message:send", { roomId, body, clientMsgId: randomUUID() });
}
const codeOf = (r: Ack<unknown>) => (r.ok ? "OK" : r.error.code);
describe.each(dialects)("governance on %s", (dialect) => {
  let server: TestServer;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let other: Person;

  beforeAll(async () => {
    ({
      server,
      people: { olga: owner, adam: admin, mia: member, ned: other },
    } = await startWorkspace(dialect, {
      people: { olga: "owner", adam: "admin", mia: "member", ned: "member" },
    }));
  });
  afterEach(() => closeSockets());
  afterAll(async () => {
    if (process.env.DEBUG_SERVER_LOG) console.log(server.output());
    await server.dispose();
  });

  it("suspends an agent at once: sockets cut, keys and sends refused, everyone told; resume restores", async () => {
    const agent = await createAgent(member, `bot-${dialect}`);
    const room = await member.api.rooms.createChannel.mutate({ name: `kill-${dialect}`, visibility: "public", memberIds: [agent.id] });
    const socket = await openAgentSocket(server.url, agent.apiKey);
    expect(codeOf(await send(socket, room.id, "before"))).toBe("OK");
    const updates = collect(await other.socket(), "participant:updated");
    const cut = new Promise<number>((resolve) => socket.once("disconnect", () => resolve(performance.now())));

    expect(await errorCode(other.api.agents.suspend.mutate({ agentId: agent.id }))).toBe("FORBIDDEN");
    const start = performance.now();
    expect((await admin.api.agents.suspend.mutate({ agentId: agent.id, reason: "too chatty" })).status).toBe("suspended");
    expect((await cut) - start).toBeLessThan(1000);
    await waitFor(() => updates.some((u) => u.participant.id === agent.id && u.participant.status === "suspended"), 5000, "everyone told");
    expect(await refusalCode(server.url, agent.apiKey)).toBe("AGENT_SUSPENDED");

    expect((await member.api.agents.resume.mutate({ agentId: agent.id })).status).toBe("active");
    const again = await openAgentSocket(server.url, agent.apiKey);
    expect(codeOf(await send(again, room.id, "after"))).toBe("OK");
    const audit = await owner.api.admin.audit.query({ subjectId: agent.id });
    expect(audit.map((e) => e.action)).toEqual(["agent.resumed", "agent.suspended", "agent.created"]);
    expect(audit[1].data).toEqual({ reason: "too chatty" });
  });

  it("limits an agent's rate with a burst, answering RATE_LIMITED with retryAfterMs", async () => {
    const agent = await createAgent(member, `fast-${dialect}`);
    const room = await member.api.rooms.createChannel.mutate({ name: `rate-${dialect}`, visibility: "private", memberIds: [agent.id] });
    expect(await errorCode(member.api.agents.setLimits.mutate({ agentId: agent.id, messagesPerMinute: 3, burst: 2 }))).toBe("FORBIDDEN");
    await admin.api.agents.setLimits.mutate({ agentId: agent.id, messagesPerMinute: 3, burst: 2 });
    const socket = await openAgentSocket(server.url, agent.apiKey);
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await send(socket, room.id, `m${i}`));
    expect(results.map(codeOf)).toEqual(["OK", "OK", "OK", "OK", "OK", "RATE_LIMITED"]);
    const limited = results[5];
    expect(!limited.ok && limited.error.retryable && (limited.error.retryAfterMs ?? 0) > 0).toBe(true);
    // People are not rate limited by the agent limits.
    for (let i = 0; i < 8; i++) await member.api.messages.send.mutate({ roomId: room.id, body: `p${i}`, clientMsgId: randomUUID() });
    const changes = await owner.api.admin.audit.query({ action: "limits." });
    expect(changes[0]).toMatchObject({ action: "limits.agent_changed", subjectId: agent.id, data: { messagesPerMinute: 3, burst: 2 } });
  });

  it("pauses agents that talk only to each other past the loop guard, until a person continues", async () => {
    await owner.api.workspace.setLimits.mutate({ loopGuardMessages: 4, loopGuardWindowSec: 60 });
    const a = await createAgent(member, `ping-${dialect}`);
    const b = await createAgent(member, `pong-${dialect}`);
    const room = await member.api.rooms.createChannel.mutate({ name: `loop-${dialect}`, visibility: "private", memberIds: [a.id, b.id] });
    const [sa, sb] = await Promise.all([openAgentSocket(server.url, a.apiKey), openAgentSocket(server.url, b.apiKey)]);
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push(codeOf(await send(i % 2 ? sb : sa, room.id, `volley ${i}`)));
    expect(codes).toEqual(["OK", "OK", "OK", "OK", "ROOM_PAUSED", "ROOM_PAUSED"]);
    const { messages } = await member.api.messages.history.query({ roomId: room.id, limit: 20 });
    expect(messages.filter((m) => m.kind === "system").map((m) => m.body)).toEqual([expect.stringContaining("Agents are paused here")]);
    await member.api.messages.send.mutate({ roomId: room.id, body: "carry on", clientMsgId: randomUUID() });
    expect(codeOf(await send(sa, room.id, "thanks"))).toBe("OK");
    await owner.api.workspace.setLimits.mutate({ loopGuardMessages: 30, loopGuardWindowSec: 300 });
  });

  it("manages roles by policy and audits every change", async () => {
    expect(await errorCode(member.api.admin.members.query())).toBe("FORBIDDEN");
    expect(await errorCode(admin.api.admin.setRole.mutate({ participantId: member.participantId, role: "admin" }))).toBe("FORBIDDEN");
    expect(await errorCode(admin.api.admin.setRole.mutate({ participantId: owner.participantId, role: "member" }))).toBe("FORBIDDEN");
    expect(await errorCode(owner.api.admin.setRole.mutate({ participantId: owner.participantId, role: "member" }))).toBe("FORBIDDEN");
    const after = await admin.api.admin.setRole.mutate({ participantId: other.participantId, role: "guest" });
    expect(after.find((m) => m.handle === "ned")?.role).toBe("guest");
    expect(await errorCode(other.api.rooms.createChannel.mutate({ name: `guest-${dialect}` }))).toBe("FORBIDDEN");
    await owner.api.admin.setRole.mutate({ participantId: other.participantId, role: "member" });
    const audit = await owner.api.admin.audit.query({ action: "member.role_changed" });
    expect(audit.map((e) => e.data)).toEqual([
      { from: "guest", to: "member" },
      { from: "member", to: "guest" },
    ]);
    expect(await errorCode(member.api.admin.audit.query({}))).toBe("FORBIDDEN");
  });

  it("lists invite links with their state and revokes them for good: owners and admins only", async () => {
    const anon = apiClient(server.url);
    const open = await owner.api.workspace.createInvite.mutate({ role: "member", maxUses: 5 });
    const once = await owner.api.workspace.createInvite.mutate({ role: "guest", maxUses: 1 });
    const stale = await admin.api.workspace.createInvite.mutate({ role: "member", expiresInDays: 1 });
    await signUpPerson(server, { handle: `once-${dialect}`, inviteToken: once.token });
    await queryDb(server, `UPDATE "Invite" SET "expiresAt" = $1 WHERE id = $2`, [sqlDate(dialect, new Date(Date.now() - 1000)), stale.id]);

    const listed = await owner.api.workspace.invites.query();
    const byId = new Map(listed.map((i) => [i.id, i]));
    expect(byId.get(open.id)).toMatchObject({
      state: "active",
      role: "member",
      uses: 0,
      maxUses: 5,
      revokedAt: null,
      createdBy: { id: owner.participantId, handle: "olga" },
    });
    expect(byId.get(once.id)).toMatchObject({ state: "used_up", role: "guest", uses: 1, maxUses: 1 });
    expect(byId.get(stale.id)).toMatchObject({ state: "expired", createdBy: { handle: "adam" } });
    const created = listed.map((i) => i.createdAt);
    expect(created).toEqual([...created].sort().reverse()); // newest first
    expect(JSON.stringify(listed)).not.toContain(open.token); // the secret is never listed

    // A member neither sees nor revokes them; an unknown id is not found.
    expect(await errorCode(member.api.workspace.invites.query())).toBe("FORBIDDEN");
    expect(await errorCode(member.api.workspace.revokeInvite.mutate({ inviteId: open.id }))).toBe("FORBIDDEN");
    expect(await errorCode(admin.api.workspace.revokeInvite.mutate({ inviteId: "no-such-invite" }))).toBe("NOT_FOUND");
    expect(await errorCode(admin.api.workspace.revokeInvite.mutate({ inviteId: "" }))).toBe("INVALID_PAYLOAD");
    expect((await anon.workspace.invite.query({ token: open.token })).valid).toBe(true);

    // An admin revokes the owner's link: refused from then on; revoking again changes nothing.
    const revoked = await admin.api.workspace.revokeInvite.mutate({ inviteId: open.id });
    expect(revoked).toMatchObject({ id: open.id, state: "revoked", uses: 0 });
    expect(revoked.revokedAt).not.toBeNull();
    expect((await owner.api.workspace.revokeInvite.mutate({ inviteId: open.id })).revokedAt).toBe(revoked.revokedAt);
    expect(await anon.workspace.invite.query({ token: open.token })).toEqual({ valid: false });
    expect(await errorCode(signUpPerson(server, { handle: `late-${dialect}`, inviteToken: open.token }))).toBe("INVITE_INVALID");
    expect(await errorCode(signUpPerson(server, { handle: `stale-${dialect}`, inviteToken: stale.token }))).toBe("INVITE_INVALID");
    expect((await owner.api.workspace.invites.query()).find((i) => i.id === open.id)?.state).toBe("revoked");

    const audit = await owner.api.admin.audit.query({ action: "invite.revoked", subjectId: open.id });
    expect(audit.map((e) => [e.action, e.actor?.handle])).toEqual([["invite.revoked", "adam"]]);
  });

  it("records privileged actions in a hash chain, exports them, and names the first broken entry", async () => {
    const agent = await createAgent(member, `audited-${dialect}`);
    await member.api.rooms.createChannel.mutate({ name: `audited-${dialect}`, visibility: "private" });
    await member.api.agents.rotateKey.mutate({ agentId: agent.id });
    expect(await refusalCode(server.url, agent.apiKey)).toBe("UNAUTHENTICATED"); // failed use of a revoked key
    const actions = (await owner.api.admin.audit.query({ limit: 500 })).map((e) => e.action);
    for (const a of ["workspace.created", "member.joined", "invite.created", "agent.created", "key.created", "key.rotated", "key.failed", "room.created"]) {
      expect(actions).toContain(a);
    }
    const csv = await owner.api.admin.exportAudit.query({ format: "csv", action: "key." });
    expect(csv.split("\n")[0]).toBe("seq,createdAt,action,actorHandle,subjectType,subjectId,address,data,hash");
    expect(csv).toContain('"key.failed"');
    const json = JSON.parse(await owner.api.admin.exportAudit.query({ format: "json", action: "key." })) as { action: string }[];
    expect(json.every((e) => e.action.startsWith("key."))).toBe(true);
    expect(json.map((e) => e.action)).toEqual(expect.arrayContaining(["key.created", "key.rotated", "key.failed"]));
    expect(csv.trim().split("\n")).toHaveLength(json.length + 1);
    expect(await owner.api.admin.verifyAudit.query()).toMatchObject({ ok: true, firstBroken: null });

    // Run the CLI without blocking this process (a blocked client would reuse stale keep-alive sockets).
    const verify = () =>
      new Promise<{ status: number; stdout: string }>((resolve) => {
        execFile(process.execPath, AUDIT_VERIFY, { cwd: ROOT, env: { ...process.env, DATABASE_URL: server.databaseUrl } }, (error, stdout) =>
          resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }),
        );
      });
    expect((await verify()).status).toBe(0);

    // Someone edits an entry in the database...
    const workspaceId = (await owner.api.workspace.me.query())!.workspace.id; // the server may hold other workspaces
    const [victim] = await queryDb<{ id: string; seq: number }>(
      server,
      `SELECT id, seq FROM "AuditEvent" WHERE action = 'key.rotated' AND "workspaceId" = $1`,
      [workspaceId],
    );
    await queryDb(server, `UPDATE "AuditEvent" SET action = 'key.harmless' WHERE id = $1`, [victim.id]);
    expect(await owner.api.admin.verifyAudit.query()).toMatchObject({ ok: false, firstBroken: { seq: victim.seq, id: victim.id } });
    const edited = await verify();
    expect(edited.status).toBe(1);
    expect(edited.stdout).toContain(`BROKEN at entry ${victim.seq}`);
    await queryDb(server, `UPDATE "AuditEvent" SET action = 'key.rotated' WHERE id = $1`, [victim.id]);
    expect(await owner.api.admin.verifyAudit.query()).toMatchObject({ ok: true });

    // ... or deletes one.
    await queryDb(server, `DELETE FROM "AuditEvent" WHERE id = $1`, [victim.id]);
    const report = await owner.api.admin.verifyAudit.query();
    expect(report).toMatchObject({ ok: false, firstBroken: { seq: victim.seq, id: null } });
    expect(report.firstBroken?.reason).toContain("missing");
  });
});
