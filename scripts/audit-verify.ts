// `npm run audit:verify`: checks every workspace's audit chain and names the first broken entry.
// Exit code 0 when every chain holds, 1 otherwise. DATABASE_URL as for the server.
import { closeDb, getDb } from "../server/db";
import { verifyAllChains } from "../server/services/audit-log";

getDb(process.env.DATABASE_URL ?? "file:./data/switchboard.db");
const reports = await verifyAllChains();
for (const r of reports) {
  if (r.ok) console.log(`workspace ${r.workspaceId}: ${r.checked} entries, chain intact`);
  else console.log(`workspace ${r.workspaceId}: BROKEN at entry ${r.firstBroken!.seq}${r.firstBroken!.id ? ` (${r.firstBroken!.id})` : ""}: ${r.firstBroken!.reason}`);
}
await closeDb();
process.exit(reports.every((r) => r.ok) ? 0 : 1);
