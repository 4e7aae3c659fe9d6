// Invite links: the way people join a workspace after its first member. The token is shown once in
// the link; only its hash is stored. Owners and admins list and revoke them.
import type { CreateInviteInput } from "@switchboard/sdk/admin";
import { getDb, type Tx } from "../../db";
import { AppError } from "../../errors";
import { newId, newSecret, sha256 } from "../../ids";
import { recordAudit } from "../governance/audit";
import { authorize, type Actor } from "../../policies";
import { invitationInclude, invitationState, listedInvitations, presentInviteLink, type InviteLinkView, type JoinedPerson } from "../../presenters/invitation";

const DAY_MS = 24 * 60 * 60 * 1000;

interface InviteState {
  revokedAt: Date | null;
  expiresAt: Date;
  maxUses: number | null;
  uses: number;
}

export function isUsable(invite: InviteState | null): invite is InviteState {
  return !!invite && invitationState(invite) === "active";
}

export const inviteInvalid = () => new AppError("INVITE_INVALID", "This invite link is invalid, revoked, used up or expired");

/** The invite a link's token names, with its workspace's and its creator's names, if it is usable now; else null (never why). */
export async function usableInvite(token: string) {
  const invite = await getDb().invite.findUnique({
    where: { tokenHash: sha256(token) },
    include: { workspace: { select: { name: true } }, createdBy: { select: { displayName: true } } },
  });
  return isUsable(invite) ? invite : null;
}

/**
 * Takes one use of the invite a token names, in `tx`, for a person joining its workspace (a sign-up,
 * or a signed-in account joining another workspace): INVITE_INVALID if it is not usable. The use is
 * claimed only if the link is as it was read: a revoke or another join taking the last use in between
 * matches nothing, and it is read again.
 */
export async function claimInviteUse(tx: Tx, token: string) {
  const tokenHash = sha256(token);
  for (let attempt = 0; attempt < 5; attempt++) {
    const invite = await tx.invite.findUnique({ where: { tokenHash } });
    if (!invite || !isUsable(invite)) throw inviteInvalid();
    const { count } = await tx.invite.updateMany({ where: { id: invite.id, uses: invite.uses, revokedAt: null }, data: { uses: { increment: 1 } } });
    if (count === 1) return { inviteId: invite.id, workspaceId: invite.workspaceId, role: invite.role };
  }
  throw new AppError("UNAVAILABLE", "Many people are using this invite link right now; try again");
}

export async function createInvite(actor: Actor, input: CreateInviteInput): Promise<{ id: string; token: string; expiresAt: string }> {
  authorize(actor, "invite.create", { role: input.role });
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
  return { id, token, expiresAt: expiresAt.toISOString() };
}

/** What the invite page shows before sign-up. Never says why an invalid link is invalid. */
export async function describeInvite(token: string) {
  const invite = await usableInvite(token);
  if (!invite) return { valid: false as const };
  return { valid: true as const, workspaceName: invite.workspace.name, invitedBy: invite.createdBy.displayName, role: invite.role };
}

/** The workspace's invite links, newest first: active ones and those that stopped working lately. */
export async function listInvites(actor: Actor): Promise<InviteLinkView[]> {
  authorize(actor, "invite.manage", { workspaceId: actor.workspaceId });
  const now = new Date();
  const rows = await getDb().invite.findMany(listedInvitations({ workspaceId: actor.workspaceId }, now));
  const joined = await joinedThrough(actor.workspaceId, rows);
  return rows.map((row) => presentInviteLink(row, now, joined.get(row.id)));
}

/**
 * Who joined through each of `invites`, by invite id. A sign-up's `member.joined` audit entry names the
 * link it used (accounts.ts), in the same transaction that counted the use, so this is exact for every
 * join since entries named it; the people are named as they are now.
 */
async function joinedThrough(workspaceId: string, invites: { id: string; createdAt: Date; uses: number }[]): Promise<Map<string, JoinedPerson[]>> {
  const used = invites.filter((i) => i.uses > 0);
  const byInvite = new Map<string, JoinedPerson[]>();
  if (used.length === 0) return byInvite;
  const db = getDb();
  const since = new Date(Math.min(...used.map((i) => i.createdAt.getTime())));
  const ids = new Set(used.map((i) => i.id));
  const entries = await db.auditEvent.findMany({
    where: { workspaceId, action: "member.joined", createdAt: { gte: since } },
    select: { subjectId: true, data: true, createdAt: true },
    orderBy: { seq: "asc" },
  });
  const joins = entries.flatMap((e) => {
    const inviteId = (e.data as { inviteId?: unknown } | null)?.inviteId;
    return typeof inviteId === "string" && ids.has(inviteId) && e.subjectId ? [{ inviteId, participantId: e.subjectId, at: e.createdAt }] : [];
  });
  const people = await db.participant.findMany({
    where: { workspaceId, id: { in: joins.map((j) => j.participantId) } },
    select: { id: true, handle: true, displayName: true },
  });
  const byId = new Map(people.map((p) => [p.id, p]));
  for (const j of joins) {
    const person = byId.get(j.participantId);
    if (!person) continue;
    byInvite.set(j.inviteId, [...(byInvite.get(j.inviteId) ?? []), { ...person, joinedAt: j.at.toISOString() }]);
  }
  return byInvite;
}

/**
 * Revokes a link: sign-ups with it are refused (INVITE_INVALID) from the commit on. Revoking a revoked
 * link changes nothing and records nothing, so two admins clicking at once both succeed.
 */
export async function revokeInvite(actor: Actor, inviteId: string): Promise<InviteLinkView> {
  const db = getDb();
  const invite = await db.invite.findUnique({ where: { id: inviteId }, select: { workspaceId: true } });
  if (!invite) throw new AppError("NOT_FOUND", "No such invite link");
  authorize(actor, "invite.manage", invite);
  await db.$transaction(async (tx) => {
    const { count } = await tx.invite.updateMany({ where: { id: inviteId, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count === 0) return;
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "invite.revoked",
      subjectType: "invite",
      subjectId: inviteId,
    });
  });
  const row = await db.invite.findUniqueOrThrow({ where: { id: inviteId }, include: invitationInclude });
  return presentInviteLink(row, new Date(), (await joinedThrough(row.workspaceId, [row])).get(row.id));
}
