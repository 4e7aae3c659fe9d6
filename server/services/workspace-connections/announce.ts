// What tells the owners and admins of both sides of a workspace connection that it (or a channel
// shared across it) changed: their Connections tab reads it again.
import type { WorkspaceConnectionChange } from "@switchboard/sdk/contract";
import { audience, publish } from "../../realtime";
import type { Committed } from "../../transaction";
/** After the commit: the owners and admins of each side read their Connections tab again (`workspace:connections`). */
export function announceConnection(committed: Committed, connectionId: string, workspaceIds: string[], change: WorkspaceConnectionChange): void {
  publish(committed, [...new Set(workspaceIds)].map(audience.admins), "workspace:connections", { connectionId, change });
}
