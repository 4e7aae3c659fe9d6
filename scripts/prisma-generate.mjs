// Generates the Prisma clients for both databases, offline.
//
// prisma/schema.prisma (SQLite) is the one source of truth. The PostgreSQL schema is derived from it
// (provider and output swapped) because a generated Prisma client serves one provider only, and the
// test suite runs against both databases in one run.
//
// Every Prisma CLI command first tries to download the native schema engine, which this network
// cannot reach. `generate` never runs that engine, so pointing PRISMA_SCHEMA_ENGINE_BINARY at any
// existing file lets it run offline. Migrations are applied by scripts/migrate.ts instead.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "prisma/schema.prisma");
if (!existsSync(source)) process.exit(0);

export function derivePostgresSchema(text) {
  const swapped = text.replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"').replace(/output\s*=\s*"([^"]*)\/sqlite"/, 'output   = "../$1/postgresql"');
  if (swapped === text) throw new Error("prisma/schema.prisma: provider or output line not found");
  return `// GENERATED from prisma/schema.prisma by scripts/prisma-generate.mjs. Do not edit.\n${swapped}`;
}

mkdirSync(path.join(root, "prisma/postgresql"), { recursive: true });
writeFileSync(path.join(root, "prisma/postgresql/schema.prisma"), derivePostgresSchema(readFileSync(source, "utf8")));

const require = createRequire(import.meta.url);
const cli = require.resolve("prisma/build/index.js");
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" };
for (const schema of ["prisma/schema.prisma", "prisma/postgresql/schema.prisma"]) {
  execFileSync(process.execPath, [cli, "generate", "--schema", schema], { cwd: root, env, stdio: "inherit" });
}
