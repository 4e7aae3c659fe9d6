// The audit chain shows edits to some entries by itself, but whoever can write the tables can also
// recompute it from any entry to the end. A head recorded outside the database (the output of
// `npm run audit:verify`, given back with --anchors) shows those rewrites too.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_VERIFY, dialects, errorCode, queryDb, signUpPerson, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe.each(dialects)("audit heads recorded outside the database, on %s", (dialect) => {
  let server: TestServer;
  let owner: Person;

  /** The CLI, run without blocking this process. */
  const auditVerify = (...args: string[]) =>
    new Promise<{ status: number; stdout: string }>((resolve) => {
      const env = { ...process.env, DATABASE_URL: server.databaseUrl };
      execFile(process.execPath, [...AUDIT_VERIFY, ...args], { cwd: ROOT, env }, (error, stdout) =>
        resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });

  beforeAll(async () => {
    ({
      server,
      people: { olga: owner },
    } = await startWorkspace(dialect, { people: { olga: "owner" }, ownServer: true /* audit:verify reads every workspace of its database */ }));
    await owner.api.workspace.createInvite.mutate({});
  });
  afterAll(() => server?.dispose());

  describe("as admins read it: names, details, filters", () => {
    let agentId: string;
    let inviteId: string;
    let bea: Person;
    let cy: Person;

    beforeAll(async () => {
      const { agent } = await owner.api.agents.create.mutate({ handle: "scout", displayName: "Scout", framework: "codex" });
      agentId = agent.id;
      await owner.api.agents.suspend.mutate({ agentId, reason: "runaway loop" });
      await owner.api.agents.resume.mutate({ agentId });
      const team = await owner.api.workspace.createInvite.mutate({ maxUses: 5 });
      inviteId = team.id;
      bea = await signUpPerson(server, { handle: "bea", inviteToken: team.token });
      cy = await signUpPerson(server, { handle: "cy", inviteToken: team.token });
    });

    it("names actors and subjects, and says what the data says in words", async () => {
      const rows = await owner.api.admin.audit.query({});
      const suspended = rows.find((r) => r.action === "agent.suspended")!;
      expect(suspended.actor).toMatchObject({ handle: "olga" });
      expect(suspended.subject).toEqual({ type: "participant", id: agentId, label: "@scout" });
      const key = rows.find((r) => r.action === "key.created" && r.data?.agentId === agentId)!;
      expect(key.subject.label).toBeNull(); // a key has no name; its agent, in the details, has
      expect(key.details).toContainEqual({ key: "agentId", label: "Agent", value: "@scout" });
      const joined = rows.find((r) => r.action === "member.joined" && r.subjectId === bea.participantId)!;
      expect(joined.subject.label).toBe("@bea");
      expect(joined.details).toEqual(
        expect.arrayContaining([
          { key: "role", label: "Role", value: "member" },
          { key: "viaInvite", label: "Through an invite link", value: "yes" },
        ]),
      );
      const invite = rows.find((r) => r.action === "invite.created" && r.subjectId === inviteId)!;
      expect(invite.details).toContainEqual({ key: "maxUses", label: "Uses allowed", value: "5" });
      expect(invite.details.find((d) => d.key === "expiresAt")?.value).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
      // The data as recorded is still there, for the disclosure and the exports.
      expect(key.data).toMatchObject({ agentId });
      // A room by its name, and the people in the details by theirs.
      const room = await owner.api.rooms.createChannel.mutate({ name: "release" });
      await owner.api.rooms.invite.mutate({ roomId: room.id, participantIds: [bea.participantId, cy.participantId] });
      const [added] = await owner.api.admin.audit.query({ subjectId: room.id, action: "room.members_added" });
      expect(added.subject.label).toBe("#release");
      expect(added.details).toEqual([{ key: "participantIds", label: "Who", value: "@bea, @cy" }]);
    });

    it("filters by subject and action, paged, and offers what it can filter by", async () => {
      const aboutScout = await owner.api.admin.audit.query({ subjectId: agentId });
      expect(aboutScout.map((r) => r.action)).toEqual(["agent.resumed", "agent.suspended", "agent.created"]);
      expect((await owner.api.admin.audit.query({ action: "agent.suspended" })).map((r) => r.subjectId)).toEqual([agentId]);
      const invites = await owner.api.admin.audit.query({ subjectType: "invite" });
      expect(invites.length).toBeGreaterThanOrEqual(2);
      expect(invites.every((r) => r.subjectType === "invite")).toBe(true);
      expect(await owner.api.admin.audit.query({ subjectType: "invite", action: "agent." })).toEqual([]);
      // Pages: newest first, the next one before the last seq seen.
      const [first] = await owner.api.admin.audit.query({ subjectId: agentId, limit: 1 });
      const rest = await owner.api.admin.audit.query({ subjectId: agentId, limit: 5, beforeSeq: first.seq });
      expect([first, ...rest].map((r) => r.seq)).toEqual(aboutScout.map((r) => r.seq));

      const facets = await owner.api.admin.auditFacets.query();
      expect(facets.actions).toEqual(expect.arrayContaining(["agent.suspended", "member.joined", "invite.created"]));
      expect(facets.subjects).toContainEqual({ id: agentId, type: "participant", label: "@scout" });
      expect(facets.subjects).toContainEqual({ id: cy.participantId, type: "participant", label: "@cy" });
    });

    it("refuses a malformed filter and anyone but owners and admins", async () => {
      expect(await errorCode(owner.api.admin.audit.query({ subjectType: "Not A Kind" }))).toBe("INVALID_PAYLOAD");
      expect(await errorCode(owner.api.admin.audit.query({ limit: 501 }))).toBe("INVALID_PAYLOAD");
      expect(await errorCode(bea.api.admin.audit.query({}))).toBe("FORBIDDEN");
      expect(await errorCode(bea.api.admin.auditFacets.query())).toBe("FORBIDDEN");
    });

    it("lists who joined through each invite link", async () => {
      const link = (await owner.api.workspace.invites.query()).find((i) => i.id === inviteId)!;
      expect(link.uses).toBe(2);
      expect(link.joined.map((p) => p.handle)).toEqual(["bea", "cy"]);
      expect(link.joined[0]).toMatchObject({ id: bea.participantId, displayName: "Bea" });
      // The links the others joined the workspace with name nobody else.
      expect(await owner.api.workspace.revokeInvite.mutate({ inviteId })).toMatchObject({ state: "revoked", joined: [{ handle: "bea" }, { handle: "cy" }] });
    });
  });

  it("finds a chain truncated or rewritten after a recorded head, which the chain alone cannot show", async () => {
    const recorded = await auditVerify();
    expect(recorded.status).toBe(0);
    const [, workspaceId, seq] = /^head (\S+) (\d+) [0-9a-f]{64}$/m.exec(recorded.stdout)!;
    const anchors = path.join(server.dataDir, "audit-heads.txt");
    writeFileSync(anchors, recorded.stdout);
    expect(await auditVerify("--anchors", anchors)).toMatchObject({ status: 0 });

    // Someone removes the last entry and moves the head back: a consistent, shorter chain.
    const [last] = await queryDb<{ id: string; prevHash: string }>(server, `SELECT id, "prevHash" FROM "AuditEvent" WHERE "workspaceId" = $1 AND seq = $2`, [
      workspaceId,
      Number(seq),
    ]);
    await queryDb(server, `DELETE FROM "AuditEvent" WHERE id = $1`, [last.id]);
    await queryDb(server, `UPDATE "Workspace" SET "auditSeq" = $1, "auditHead" = $2 WHERE id = $3`, [Number(seq) - 1, last.prevHash, workspaceId]);
    expect((await auditVerify()).status).toBe(0);
    const truncated = await auditVerify("--anchors", anchors);
    expect(truncated.status).toBe(1);
    expect(truncated.stdout).toContain(`ends before entry ${seq}`);

    // ... and writes another entry in its place, with a hash that fits the chain.
    await owner.api.workspace.createInvite.mutate({ role: "guest" });
    expect((await auditVerify()).status).toBe(0);
    const replaced = await auditVerify("--anchors", anchors);
    expect(replaced.status).toBe(1);
    expect(replaced.stdout).toContain(`BROKEN at entry ${seq}`);
    expect(replaced.stdout).toContain("not the entry recorded outside the database");
  });
});
