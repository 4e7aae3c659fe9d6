// Each side of a workspace connection keeps its own choices: whom of its own the other side may find,
// whether the other side may invite into this side's shared rooms or only post, and whether rooms
// shared across need this side's admin's approval. A change is in both sides' audit logs: it changes
// what the other side sees.
import type { ConnectionSideInput, UpdateConnectionSideInput, WorkspaceConnectionView } from "@switchboard/sdk/workspace-connections";
import { AppError } from "../../errors";
import { assertMayWrite, type Actor } from "../../policies";
import { presentSide } from "../../presenters/workspace-connection";
import { recordAudit } from "../governance/audit";
import { connectionStatus } from "../../presenters/workspace-connection";
import { transaction } from "../../transaction";
import { announceConnection } from "./announce";
import { assertOwnParticipants, connectionView, loadFor } from "./connections";

export async function updateSide(actor: Actor, input: UpdateConnectionSideInput, address: string | null = null): Promise<WorkspaceConnectionView> {
  const { connectionId, ...side } = input;
  const row = await loadFor(actor, connectionId);
  assertMayWrite(actor);
  const status = connectionStatus(row);
  if (status !== "active" && status !== "pending") throw new AppError("CONFLICT", "This connection has ended");
  const peerId = row.inviterId === actor.workspaceId ? row.accepterId : row.inviterId;
  const [, committed] = await transaction(async (tx) => {
    await assertOwnParticipants(tx, actor.workspaceId, side);
    const updated = await tx.workspaceConnectionSide.update({
      where: { connectionId_workspaceId: { connectionId, workspaceId: actor.workspaceId } },
      data: { ...definedOnly(side), updatedAt: new Date() },
    });
    for (const workspaceId of peerId ? [actor.workspaceId, peerId] : [actor.workspaceId]) {
      await recordAudit(tx, {
        workspaceId,
        actorId: actor.participantId,
        action: "workspace_connection.side_changed",
        subjectType: "workspace_connection",
        subjectId: connectionId,
        data: { side: presentSide(updated) },
        address: workspaceId === actor.workspaceId ? address : null,
      });
    }
  });
  announceConnection(committed, connectionId, peerId ? [actor.workspaceId, peerId] : [actor.workspaceId], "side_changed");
  return connectionView(connectionId, actor.workspaceId);
}

function definedOnly(side: ConnectionSideInput) {
  return Object.fromEntries(Object.entries(side).filter(([, v]) => v !== undefined));
}
