// `npm run workspace:verify-domain -- <workspaceId>`: an operator of this deployment (someone with its
// database) verifies the domain a workspace named, where the deployment cannot look its TXT record up
// (no DNS, an intranet). Audited in the workspace's log as the operator's. DATABASE_URL as for the server.
// Without an id: lists the workspaces that named a domain, verified or not.
import { closeDb, getDb } from "../server/db";
import { markVerified } from "../server/services/workspace-connections/domains";

getDb(process.env.DATABASE_URL ?? "file:./data/switchboard.db");
const workspaceId = process.argv[2];
let status = 0;
if (!workspaceId) {
  const named = await getDb().workspace.findMany({ where: { domain: { not: null } }, select: { id: true, name: true, domain: true, domainVerifiedAt: true } });
  if (named.length === 0) console.log("No workspace names a domain.");
  for (const w of named)
    console.log(`${w.id}  ${w.name}  ${w.domain}  ${w.domainVerifiedAt ? `verified ${w.domainVerifiedAt.toISOString()}` : "not verified"}`);
} else {
  try {
    const view = await markVerified(workspaceId, "operator", null);
    console.log(`Verified ${view.domain} for workspace ${workspaceId}.`);
  } catch (error) {
    console.error(`Not verified: ${(error as Error).message}`);
    status = 1;
  }
}
await closeDb();
process.exit(status);
