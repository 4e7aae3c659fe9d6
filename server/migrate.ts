// Applies the committed migrations in prisma/migrations/<sqlite|postgresql>/ and records them in
// Prisma's own `_prisma_migrations` table, exactly as `prisma migrate deploy` would, so the native
// Prisma CLI agrees wherever it can run. It cannot run here: its schema engine is a binary downloaded
// from Prisma's servers, which this network cannot reach (see docs/operations.md).
// New migrations are written by scripts/migration-diff.ts.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";

export type MigrateOptions = { log?: (line: string) => void };

type Dialect = "sqlite" | "postgresql";
type Migration = { name: string; sql: string; checksum: string };
type MigrationRow = { migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown };

const migrationsRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../prisma/migrations");

// Prisma's lock key: holding it also keeps a concurrent `prisma migrate deploy` out.
const PRISMA_ADVISORY_LOCK = 72707369;

// Prisma's own DDL for the table (from the schema engine), plus IF NOT EXISTS.
const SQLITE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;
const POSTGRES_TABLE = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;
const SELECT_ROWS = "SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations";
const INSERT_ROW = `INSERT INTO _prisma_migrations
  (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)`;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export async function migrate(databaseUrl: string, opts: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const log = opts.log ?? (() => {});
  if (databaseUrl.startsWith("file:")) {
    return { applied: await migrateSqliteWhenFree(databaseUrl, readMigrations("sqlite"), log) };
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return { applied: await migratePostgres(databaseUrl, readMigrations("postgresql"), log) };
  }
  throw new Error(`migrate: unsupported DATABASE_URL (expected file: or postgresql://): ${databaseUrl.split(":")[0]}:...`);
}

// Every folder is a migration, in the order Prisma's CLI uses (localeCompare of the folder names).
function readMigrations(dialect: Dialect): Migration[] {
  const dir = path.join(migrationsRoot, dialect);
  if (!existsSync(dir)) throw new Error(`migrate: no migrations folder at ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b))
    .map((name) => {
      const file = path.join(dir, name, "migration.sql");
      if (!existsSync(file)) throw new Error(`migrate: ${file} is missing`);
      const sql = readFileSync(file, "utf8");
      return { name, sql, checksum: sha256(sql) };
    });
}

// Prisma accepts a checksum computed with either line ending, since git may convert them.
function checksumMatches(sql: string, checksum: string): boolean {
  return [sql, sql.replaceAll("\r\n", "\n"), sql.replaceAll("\n", "\r\n")].some((text) => sha256(text) === checksum);
}

// Checks the recorded history against the files and returns what is left to apply.
function pendingMigrations(dialect: Dialect, local: Migration[], rows: MigrationRow[]): Migration[] {
  const live = rows.filter((row) => row.rolled_back_at == null); // rolled-back rows are history only
  const failed = live.filter((row) => row.finished_at == null);
  if (failed.length > 0) {
    const names = failed.map((row) => row.migration_name).join(", ");
    throw new Error(
      `migrate: migration(s) ${names} failed earlier and are still recorded as started; repair the database by hand (or with \`prisma migrate resolve\`) first`,
    );
  }
  const byName = new Map(local.map((migration) => [migration.name, migration]));
  for (const row of live) {
    const migration = byName.get(row.migration_name);
    if (!migration) {
      throw new Error(
        `migrate: migration ${row.migration_name} is applied to the database but missing from prisma/migrations/${dialect}; refusing to continue`,
      );
    }
    if (!checksumMatches(migration.sql, row.checksum)) {
      throw new Error(
        `migrate: migration ${row.migration_name} was edited after it was applied (checksum differs); restore the file and add a new migration instead`,
      );
    }
  }
  const applied = new Set(live.map((row) => row.migration_name));
  return local.filter((migration) => !applied.has(migration.name));
}

function sqlitePath(databaseUrl: string): string {
  const location = databaseUrl
    .slice("file:".length)
    .split("?")[0]
    .replace(/^\/\/(?=\/)/, "");
  return path.resolve(process.cwd(), location);
}

// SQLite answers SQLITE_BUSY without waiting out the busy timeout in a few moments a second process
// can meet (the other one checkpointing and removing the WAL as it closes, or recovering it as it
// opens). Every migration is its own transaction, so starting over after one applies nothing twice.
async function migrateSqliteWhenFree(databaseUrl: string, local: Migration[], log: (line: string) => void): Promise<string[]> {
  const deadline = Date.now() + 60_000;
  const applied: string[] = [];
  for (;;) {
    try {
      migrateSqlite(databaseUrl, local, log, applied);
      return applied;
    } catch (error) {
      const busy = String((error as { code?: unknown }).code ?? "").startsWith("SQLITE_BUSY");
      if (!busy || Date.now() > deadline) throw error;
      log(`database busy (${(error as { code: string }).code}); trying again`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

// Applies what is pending, one transaction each, adding each one's name to `applied` as it commits.
function migrateSqlite(databaseUrl: string, local: Migration[], log: (line: string) => void, applied: string[]): void {
  const file = sqlitePath(databaseUrl);
  mkdirSync(path.dirname(file), { recursive: true });
  // A second process starting at the same moment waits on the lock rather than failing.
  const db = new Database(file, { timeout: 60_000 });
  try {
    if (db.pragma("journal_mode", { simple: true }) !== "wal") db.pragma("journal_mode = WAL");
    // Prisma's SQLite migrations rebuild tables (create new, copy, DROP old, rename). With foreign
    // keys on, that DROP cascades deletes into child tables, and the script's own
    // `PRAGMA foreign_keys=OFF` does nothing inside a transaction. So turn them off for this
    // connection and run SQLite's foreign_key_check before each commit instead.
    db.pragma("foreign_keys = OFF");
    // One transaction per migration; BEGIN IMMEDIATE takes the write lock before we read the
    // history, so two processes never apply the same migration.
    for (;;) {
      db.exec("BEGIN IMMEDIATE");
      try {
        db.exec(SQLITE_TABLE);
        const next = pendingMigrations("sqlite", local, db.prepare(SELECT_ROWS).all() as MigrationRow[])[0];
        if (!next) {
          db.exec("COMMIT");
          return;
        }
        const startedAt = Date.now();
        try {
          db.exec(next.sql);
        } catch (error) {
          throw new Error(`migrate: ${next.name} failed: ${(error as Error).message}`, { cause: error });
        }
        const violations = db.pragma("foreign_key_check") as unknown[];
        if (violations.length > 0) {
          throw new Error(`migrate: ${next.name} leaves ${violations.length} row(s) violating foreign keys, e.g. ${JSON.stringify(violations[0])}`);
        }
        // Dates as Unix milliseconds, as Prisma's native engine writes them on SQLite.
        db.prepare(`${INSERT_ROW} VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`).run(randomUUID(), next.checksum, Date.now(), next.name, startedAt);
        db.exec("COMMIT");
        applied.push(next.name);
        log(`applied migration ${next.name}`);
      } catch (error) {
        if (db.inTransaction) db.exec("ROLLBACK");
        throw error;
      }
    }
  } finally {
    db.close();
  }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function migratePostgres(databaseUrl: string, local: Migration[], log: (line: string) => void): Promise<string[]> {
  // `?schema=` is Prisma's parameter, not libpq's: take it out and apply it as the search_path.
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get("schema") ?? "public";
  url.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [PRISMA_ADVISORY_LOCK]);
    if (!rows[0].locked) {
      log("waiting for another migrator to finish (pg_advisory_lock)");
      await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    }
    try {
      // Checked first: CREATE SCHEMA IF NOT EXISTS needs database-level CREATE even when it exists.
      const found = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
      if (found.rowCount === 0) await client.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
      await client.query(`SET search_path TO ${quoteIdent(schema)}`);
      await client.query(POSTGRES_TABLE);
      const history = await client.query<MigrationRow>(SELECT_ROWS);
      const applied: string[] = [];
      for (const next of pendingMigrations("postgresql", local, history.rows)) {
        await client.query("BEGIN");
        try {
          const startedAt = new Date();
          // No parameters, so pg uses the simple protocol, which runs a multi-statement script.
          await client.query(next.sql).catch((error: Error) => {
            throw new Error(`migrate: ${next.name} failed: ${error.message}`, { cause: error });
          });
          await client.query(`${INSERT_ROW} VALUES ($1, $2, $3, $4, NULL, NULL, $5, 1)`, [randomUUID(), next.checksum, new Date(), next.name, startedAt]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
        applied.push(next.name);
        log(`applied migration ${next.name}`);
      }
      return applied;
    } finally {
      // Ending the session releases the lock too, so a failure here must not hide the real error.
      await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]).catch(() => {});
    }
  } finally {
    await client.end();
  }
}
