// Dropping a test's PostgreSQL schema, without the harness (which connects to PostgreSQL as it loads):
// the run's teardown uses it too (shared-servers.ts).
import pg from "pg";

/** Drops the schema a database URL names (`?schema=`, Prisma's parameter) and everything in it. */
export async function dropSchemaOf(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get("schema");
  if (!schema) throw new Error(`no schema in ${databaseUrl}`);
  url.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '""')}" CASCADE`);
  } finally {
    await client.end();
  }
}
