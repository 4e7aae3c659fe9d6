// SQLite's WAL is checkpointed by a worker thread (server/sqlite-checkpoints.ts), not inside the
// server's commits: the server's connection never checkpoints, yet the WAL stays small while data
// keeps coming, and everything written is in the database file once the checkpointer stops.
import Database from "better-sqlite3";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "../../server/db";
import { migrate } from "../../server/migrate";
import { checkpointInBackground } from "../../server/sqlite-checkpoints";

describe("SQLite checkpoints in the background", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "switchboard-wal-"));
  const file = path.join(dir, "db.sqlite");
  const url = `file:${file}`;
  afterAll(async () => {
    await closeDb();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the WAL small while the server's connection writes, and leaves every row in the database file", async () => {
    await closeDb();
    process.env.DATABASE_URL = url;
    await migrate(url);
    const db = getDb(url);
    const stop = await checkpointInBackground(db, url);
    const [setting] = await db.$queryRawUnsafe<{ wal_autocheckpoint: number }[]>("PRAGMA wal_autocheckpoint");
    expect(Number(setting.wal_autocheckpoint)).toBe(0);

    await db.workspace.create({ data: { id: "w1", name: "WAL" } });
    // About 25 MB through the WAL in small commits, as a busy room writes it.
    const big = "x".repeat(4000);
    for (let i = 0; i < 250; i++) {
      await db.$transaction(
        Array.from({ length: 25 }, (_, j) =>
          db.participant.create({ data: { id: `p${i}-${j}`, workspaceId: "w1", kind: "human", handle: `h${i}-${j}`, displayName: big } }),
        ),
      );
      if (i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 120)); // the worker's turn
    }
    // Without checkpoints the WAL would hold all of it; checkpointed, it keeps being reused.
    expect(statSync(`${file}-wal`).size).toBeLessThan(12 * 2 ** 20);

    await stop();
    await closeDb();
    // The last checkpoint copied everything into the database file: it reads complete without the WAL.
    const copy = new Database(file, { readonly: true });
    expect((copy.prepare("SELECT COUNT(*) AS n FROM Participant").get() as { n: number }).n).toBe(6250);
    copy.close();
  });
});
