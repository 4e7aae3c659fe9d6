// Applies pending migrations: npx tsx scripts/migrate.ts (or npm run db:migrate).
// The server also runs them at start; this is for deploys and for inspecting a database by hand.
import { migrate } from "../server/migrate";

const databaseUrl = process.env.DATABASE_URL ?? "file:./data/switchboard.db";
// Print the scheme and host only: the URL may hold a password.
const where = databaseUrl.startsWith("file:") ? databaseUrl : databaseUrl.replace(/\/\/[^@/]*@/, "//");

try {
  const { applied } = await migrate(databaseUrl, { log: (line) => console.log(line) });
  console.log(applied.length === 0 ? `${where}: already up to date` : `${where}: applied ${applied.length} migration(s)`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
