// Creates a new migration for both databases: npx tsx scripts/migration-diff.ts <name>
//
// Prisma's `migrate dev` needs the native schema engine, which cannot be downloaded here. The same
// engine ships as WebAssembly on npm (@prisma/schema-engine-wasm, pinned to the version prisma 7.10
// uses), and its schema-to-schema `diff` needs no database. The "previous state" of each dialect is
// the schema.snapshot.prisma saved next to its migrations when the last migration was made, so no
// shadow database is needed either. Migrations are applied by server/migrate.ts.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bindMigrationAwareSqlAdapterFactory, mockMigrationAwareAdapterFactory, type SqlQuery } from "@prisma/driver-adapter-utils";
import type { DiffTarget, SchemaEngine } from "@prisma/schema-engine-wasm";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

type Dialect = {
  folder: "sqlite" | "postgresql";
  provider: "sqlite" | "postgres"; // driver adapter naming
  schema: string; // schema file, relative to root
};
const dialects: Dialect[] = [
  { folder: "sqlite", provider: "sqlite", schema: "prisma/schema.prisma" },
  { folder: "postgresql", provider: "postgres", schema: "prisma/postgresql/schema.prisma" },
];

// The Wasm engine is meant for bundlers (`import wasm from "x.wasm"`), which Node 20 cannot load,
// so instantiate it by hand the way wasm-bindgen's generated glue expects.
async function loadSchemaEngine(): Promise<typeof SchemaEngine> {
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
  const bytes = readFileSync(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
  return glue.SchemaEngine;
}

// The engine wants a driver adapter even for a pure schema diff. A mock adapter refuses every
// query; the PostgreSQL connector still asks for the server version once at start, so answer that
// (PostgreSQL 15, what we run) and fail loudly on anything else.
function offlineAdapter(provider: Dialect["provider"]) {
  const factory = mockMigrationAwareAdapterFactory(provider);
  const connect = async () => {
    const adapter = await factory.connect();
    return {
      ...adapter,
      queryRaw: async (query: SqlQuery) => {
        if (provider === "postgres" && query.sql.includes("server_version_num")) {
          return { columnNames: ["exists", "version", "numeric_version"], columnTypes: [5, 7, 0], rows: [[true, "PostgreSQL 15.0", 150000]] };
        }
        console.error(`migration-diff: the engine tried to query a database: ${query.sql}`);
        return adapter.queryRaw(query);
      },
    };
  };
  return bindMigrationAwareSqlAdapterFactory({ ...factory, connect, connectToShadowDb: connect } as typeof factory);
}

function emptySchema(provider: Dialect["provider"]): string {
  return `datasource db {\n  provider = "${provider === "postgres" ? "postgresql" : "sqlite"}"\n}\n`;
}

// Prisma names migration folders <UTC YYYYMMDDHHMMSS>_<name>.
function timestamp(now = new Date()): string {
  return now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

async function main(): Promise<void> {
  const rawName = process.argv[2];
  if (!rawName) throw new Error("usage: npx tsx scripts/migration-diff.ts <name>");
  const name = rawName
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!name) throw new Error(`unusable migration name: ${rawName}`);

  // Refreshes prisma/postgresql/schema.prisma (derived from prisma/schema.prisma) and the clients.
  execFileSync(process.execPath, [path.join(root, "scripts/prisma-generate.mjs")], { cwd: root, stdio: "inherit" });

  const Engine = await loadSchemaEngine();
  const filters = { externalTables: [], externalEnums: [] };
  const planned: { dialect: Dialect; target: string; script: string; changed: boolean }[] = [];
  for (const dialect of dialects) {
    const dir = path.join(root, "prisma/migrations", dialect.folder);
    const snapshotPath = path.join(dir, "schema.snapshot.prisma");
    const previous = existsSync(snapshotPath) ? readFileSync(snapshotPath, "utf8") : emptySchema(dialect.provider);
    const target = readFileSync(path.join(root, dialect.schema), "utf8");
    const file = (content: string): DiffTarget => ({ tag: "schemaDatamodel", files: [{ path: dialect.schema, content }] });

    const engine = await Engine.new({ datamodels: [[dialect.schema, target]] }, () => {}, offlineAdapter(dialect.provider));
    // exitCode: true makes the engine report 2 when the diff is not empty.
    const result = await engine.diff({ from: file(previous), to: file(target), script: true, exitCode: true, filters });
    engine.free();
    planned.push({ dialect, target, script: result.stdout ?? "", changed: result.exitCode === 2 });
  }

  if (!planned.some((p) => p.changed)) {
    // Comments or formatting changed at most: keep the snapshots' text in step, so the
    // up-to-date test compares like with like.
    for (const { dialect, target } of planned) {
      writeFileSync(path.join(root, "prisma/migrations", dialect.folder, "schema.snapshot.prisma"), target);
    }
    console.log("no changes");
    return;
  }
  // Both dialects get a folder of the same name even if one diff is empty, so the histories line up.
  const folderName = `${timestamp()}_${name}`;
  for (const { dialect } of planned) {
    const folder = path.join(root, "prisma/migrations", dialect.folder, folderName);
    if (existsSync(folder)) throw new Error(`${folder} already exists`);
  }
  for (const { dialect, target, script } of planned) {
    const dir = path.join(root, "prisma/migrations", dialect.folder);
    mkdirSync(path.join(dir, folderName), { recursive: true });
    writeFileSync(path.join(dir, folderName, "migration.sql"), script);
    writeFileSync(path.join(dir, "schema.snapshot.prisma"), target);
    // Same text `prisma migrate dev` writes; `prisma migrate deploy` checks the provider in it.
    writeFileSync(
      path.join(dir, "migration_lock.toml"),
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${dialect.folder}"\n`,
    );
    console.log(`created prisma/migrations/${dialect.folder}/${folderName}/migration.sql`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
