// `npm run audit:verify [-- --anchors <file>]`: checks every workspace's audit chain and names the
// first broken entry. Exit code 0 when every chain holds, 1 otherwise. DATABASE_URL as for the server.
//
// Each intact chain's head is printed as `head <workspaceId> <seq> <hash>`. Keep that output outside
// the database (see docs/operations.md); given back with --anchors, each head it names must still be
// in its chain, unchanged, which a rewrite of the tables by someone who can also recompute the hashes
// cannot fake.
import { readFileSync } from "node:fs";
import { closeDb, getDb } from "../server/db";
import { verifyAllChains, type ChainHead } from "../server/services/governance/audit-log";

function readAnchors(file: string): Map<string, ChainHead> {
  const anchors = new Map<string, ChainHead>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const match = /^head (\S+) (\d+) ([0-9a-f]+)$/.exec(line.trim());
    if (match) anchors.set(match[1], { seq: Number(match[2]), hash: match[3] });
  }
  return anchors;
}

const at = process.argv.indexOf("--anchors");
const anchors = at > 0 && process.argv[at + 1] ? readAnchors(process.argv[at + 1]) : new Map<string, ChainHead>();
getDb(process.env.DATABASE_URL ?? "file:./data/switchboard.db");
const reports = await verifyAllChains(anchors);
for (const r of reports) {
  if (r.ok)
    console.log(
      `workspace ${r.workspaceId}: ${r.checked} entries, chain intact${anchors.has(r.workspaceId) ? " (recorded head found)" : ""}\nhead ${r.workspaceId} ${r.head.seq} ${r.head.hash}`,
    );
  else
    console.log(
      `workspace ${r.workspaceId}: BROKEN at entry ${r.firstBroken!.seq}${r.firstBroken!.id ? ` (${r.firstBroken!.id})` : ""}: ${r.firstBroken!.reason}`,
    );
}
const gone = [...anchors.keys()].filter((id) => !reports.some((r) => r.workspaceId === id));
for (const id of gone) console.log(`workspace ${id}: MISSING, though a head was recorded for it`);
await closeDb();
process.exit(reports.every((r) => r.ok) && gone.length === 0 ? 0 : 1);
