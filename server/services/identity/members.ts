// People's roles in the workspace, managed by owners and admins.
import type { SetRoleInput } from "@switchboard/sdk/admin";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { authorize, type Actor } from "../../policies";
import { memberInclude, presentMember } from "../../presenters/member";
import { rightsChanged } from "../../realtime/sessions";
import { recordAudit } from "../governance/audit";

export async function listMembers(actor: Actor) {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  const rows = await getDb().member.findMany({ where: { workspaceId: actor.workspaceId }, include: memberInclude, orderBy: { createdAt: "asc" } });
  return rows.map((m) => presentMember(m, actor));
}

export async function setRole(actor: Actor, input: SetRoleInput) {
  const member = await getDb().member.findUnique({ where: { participantId: input.participantId } });
  if (!member || member.workspaceId !== actor.workspaceId) throw new AppError("PARTICIPANT_NOT_FOUND", "No such member");
  authorize(actor, "member.set_role", { target: { participantId: member.participantId, role: member.role }, role: input.role });
  await getDb().$transaction(async (tx) => {
    await tx.member.update({ where: { id: member.id }, data: { role: input.role } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "member.role_changed",
      subjectType: "participant",
      subjectId: member.participantId,
      data: { from: member.role, to: input.role },
    });
  });
  // Open sockets get the new rights now, the person's and their agents' (an agent's rights follow its owner's).
  const agents = await getDb().participant.findMany({ where: { ownerId: member.participantId }, select: { id: true } });
  rightsChanged([member.participantId, ...agents.map((a) => a.id)]);
  return listMembers(actor);
}
