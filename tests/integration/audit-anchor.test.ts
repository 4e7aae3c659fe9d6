// The audit chain shows edits to some entries by itself, but whoever can write the tables can also
// recompute it from any entry to the end. A head recorded outside the database (the output of
// `npm run audit:verify`, given back with --anchors) shows those rewrites too.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_VERIFY, dialects, queryDb, type Person, type TestServer } from "./harness";
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
