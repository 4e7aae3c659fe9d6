// Invite links: the way people join a workspace after its first member. The token is shown once in
// the link; only its hash is stored.
import { getDb } from "../db";
import { newId, newSecret, sha256 } from "../ids";
import { recordAudit } from "./audit";
import { authorize, type Actor, type WorkspaceRole } from "../policies";

const DAY_MS = 24 * 60 * 60 * 1000;

interface InviteState {
  revokedAt: Date | null;
  expiresAt: Date;
  maxUses: number | null;
  uses: number;
}

export function isUsable(invite: InviteState | null): invite is InviteState {
  return !!invite && !invite.revokedAt && invite.expiresAt > new Date() && (invite.maxUses === null || invite.uses < invite.maxUses);
}

export async function createInvite(
  actor: Actor,
  input: { role: Exclude<WorkspaceRole, "owner">; expiresInDays: number; maxUses?: number },
): Promise<{ token: string; expiresAt: string }> {
  authorize(actor, "invite.create", undefined);
  const token = newSecret();
  const expiresAt = new Date(Date.now() + input.expiresInDays * DAY_MS);
  const id = newId();
  await getDb().$transaction(async (tx) => {
    await tx.invite.create({
      data: {
        id,
        workspaceId: actor.workspaceId,
        tokenHash: sha256(token),
        role: input.role,
        createdById: actor.participantId,
        expiresAt,
        maxUses: input.maxUses ?? null,
      },
    });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "invite.created",
      subjectType: "invite",
      subjectId: id,
      data: { role: input.role, expiresAt: expiresAt.toISOString(), maxUses: input.maxUses ?? null },
    });
  });
  return { token, expiresAt: expiresAt.toISOString() };
}

/** What the invite page shows before sign-up. Never says why an invalid link is invalid. */
export async function describeInvite(token: string) {
  const invite = await getDb().invite.findUnique({
    where: { tokenHash: sha256(token) },
    include: { workspace: { select: { name: true } }, createdBy: { select: { displayName: true } } },
  });
  if (!invite || !isUsable(invite)) return { valid: false as const };
  return { valid: true as const, workspaceName: invite.workspace.name, invitedBy: invite.createdBy.displayName, role: invite.role };
}
