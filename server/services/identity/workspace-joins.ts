// One account, several workspaces: a signed-in account joins another workspace by an invite link, or
// creates another where the operator allows it (WORKSPACE_SIGNUP=open), and lists the workspaces it is
// in. In each it is a person of that workspace alone (its own participant, handle and role), as a
// sign-up makes one (accounts.ts); only the account (email, password) is shared.
import type { CreateWorkspaceInput, InviteForAccount, JoinByInviteInput, JoinedWorkspace, WorkspaceMembershipView } from "@switchboard/sdk/workspaces";
import { getDb, type Tx } from "../../db";
import { env } from "../../env";
import { AppError, isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import type { Actor, WorkspaceRole } from "../../policies";
import { transaction, TX_OPTIONS } from "../../transaction";
import { countSignUp } from "../governance/address-limits";
import { recordAudit } from "../governance/audit";
import { announceJoined } from "../membership/members";
import { unreadCounts } from "../rooms/unread";
import { assertInviteAdmits } from "./accounts";
import { claimInviteUse, usableInvite } from "./invites";
import { addToDefaultChannels, createWorkspace } from "./workspaces";

const alreadyMember = (name: string) => new AppError("ALREADY_MEMBER", `You are already a member of ${name}`);

/**
 * The signed-in account accepts an invite link into another workspace: a new person there, with the
 * invite's role, in its default channels, the invite's use claimed as a sign-up claims it. Refused
 * with ALREADY_MEMBER where the account is a member already (suspended too), NAME_TAKEN for a handle
 * someone there has, INVITE_INVALID for a link that is not usable; bad links count against the address
 * as at sign-up (`address`: the client's; null for the server's own calls).
 */
export async function joinByInvite(accountId: string, input: JoinByInviteInput, address: string | null): Promise<JoinedWorkspace> {
  const db = getDb();
  const account = await accountOf(accountId);
  const { workspaceId } = await assertInviteAdmits(db, input.token, address);
  const existing = await db.member.findUnique({
    where: { workspaceId_accountId: { workspaceId, accountId } },
    include: { workspace: { select: { name: true } } },
  });
  if (existing) throw alreadyMember(existing.workspace.name);
  // It writes #general's row, which a busy room's sends hold too: it waits for it (TX_OPTIONS).
  const [joined, committed] = await transaction(async (tx) => {
    const invite = await claimInviteUse(tx, input.token);
    const participantId = await addPerson(tx, {
      workspaceId: invite.workspaceId,
      accountId,
      role: invite.role,
      handle: input.handle,
      displayName: input.displayName,
    });
    const general = await addToDefaultChannels(tx, invite.workspaceId, participantId);
    await recordAudit(tx, {
      workspaceId: invite.workspaceId,
      actorId: participantId,
      action: "member.joined",
      subjectType: "participant",
      subjectId: participantId,
      // As a sign-up's entry: `inviteId` is how the invite links' list knows who joined through each.
      data: { role: invite.role, email: account.email, viaInvite: true, inviteId: invite.inviteId, existingAccount: true },
      address,
    });
    return { workspaceId: invite.workspaceId, participantId, general };
  }, TX_OPTIONS).catch((error: unknown) => refusedJoin(error, workspaceId, accountId, input.handle));
  // #general's members see the person join; the person's own sockets act in another workspace until they switch.
  if (!joined.general.created) await announceJoined(committed, joined.general.roomId, joined.general.event, [joined.participantId]);
  return { workspaceId: joined.workspaceId, participantId: joined.participantId };
}

/** A join's write refused by a unique key: the account joined meanwhile (another join at once), or the handle is someone's there. */
async function refusedJoin(error: unknown, workspaceId: string, accountId: string, handle: string): Promise<never> {
  if (!isUniqueViolation(error)) throw error;
  const member = await getDb().member.findUnique({
    where: { workspaceId_accountId: { workspaceId, accountId } },
    include: { workspace: { select: { name: true } } },
  });
  if (member) throw alreadyMember(member.workspace.name);
  throw new AppError("NAME_TAKEN", `@${handle} is taken in this workspace`);
}

/**
 * The signed-in account creates another workspace and owns it, with #general, where the operator lets
 * anyone create one (WORKSPACE_SIGNUP=open); otherwise FORBIDDEN. Counted against the address as a
 * sign-up that creates a workspace is.
 */
export async function createAnotherWorkspace(accountId: string, input: CreateWorkspaceInput, address: string | null): Promise<JoinedWorkspace> {
  if (env.WORKSPACE_SIGNUP !== "open") {
    throw new AppError("FORBIDDEN", "This server's operator lets people into workspaces only by invite links: new workspaces cannot be created here");
  }
  await countSignUp(address);
  const account = await accountOf(accountId);
  const [created] = await transaction(async (tx) => {
    const workspaceId = await createWorkspace(tx, input.name);
    const participantId = await addPerson(tx, { workspaceId, accountId, role: "owner", handle: input.handle, displayName: input.displayName });
    await addToDefaultChannels(tx, workspaceId, participantId);
    await recordAudit(tx, {
      workspaceId,
      actorId: participantId,
      action: "workspace.created",
      subjectType: "participant",
      subjectId: participantId,
      data: { role: "owner", email: account.email, viaInvite: false, existingAccount: true },
      address,
    });
    return { workspaceId, participantId };
  });
  return created;
}

/**
 * The account's workspaces, in the order it joined them, with what is unread in each: messages by the
 * sidebar's rule (`UNREAD`) and mentions, after each room's read cursor, summed over its rooms. Where its
 * person is suspended, the workspace is left out. Four statements for any number of workspaces (the
 * memberships, their rooms' cursors, and two grouped counts side by side), two more per further 200
 * rooms behind their last seq.
 */
export async function workspacesOf(accountId: string): Promise<WorkspaceMembershipView[]> {
  return memberships({ accountId });
}

/** The workspace an actor (a person's access token) acts in, as `workspacesOf` presents it: a token is for one workspace. */
export async function workspaceOfActor(actor: Actor): Promise<WorkspaceMembershipView[]> {
  return memberships({ participantId: actor.participantId });
}

async function memberships(where: { accountId: string } | { participantId: string }): Promise<WorkspaceMembershipView[]> {
  const db = getDb();
  const members = await db.member.findMany({
    where: { ...where, participant: { status: "active" } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      workspaceId: true,
      role: true,
      participantId: true,
      workspace: { select: { name: true } },
      participant: { select: { handle: true, displayName: true } },
    },
  });
  if (members.length === 0) return [];
  const participantIds = members.map((m) => m.participantId);
  const rooms = await db.roomMember.findMany({
    where: { participantId: { in: participantIds }, room: { archivedAt: null } },
    select: { roomId: true, participantId: true, readSeq: true, room: { select: { lastSeq: true } } },
  });
  const counts = await unreadCounts(
    participantIds,
    rooms.map((r) => ({ roomId: r.roomId, readSeq: r.readSeq, lastSeq: r.room.lastSeq })),
  );
  const totals = new Map(participantIds.map((id) => [id, { unread: 0, mentions: 0 }]));
  for (const r of rooms) {
    const total = totals.get(r.participantId)!;
    total.unread += counts.unread.get(r.roomId) ?? 0;
    total.mentions += counts.mentions.get(r.roomId) ?? 0;
  }
  return members.map((m) => ({
    id: m.workspaceId,
    name: m.workspace.name,
    role: m.role,
    participantId: m.participantId,
    handle: m.participant.handle,
    displayName: m.participant.displayName,
    ...totals.get(m.participantId)!,
  }));
}

/**
 * An invite link as the signed-in account sees it on the invite page: where it leads, whether the
 * account is there already, and the name and handle it goes by in its first workspace, to offer.
 */
export async function inviteForAccount(accountId: string, token: string): Promise<InviteForAccount> {
  const db = getDb();
  const invite = await usableInvite(token);
  if (!invite) return { valid: false };
  const [member, first] = await Promise.all([
    db.member.findUnique({ where: { workspaceId_accountId: { workspaceId: invite.workspaceId, accountId } }, select: { workspaceId: true } }),
    db.member.findFirst({
      where: { accountId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { participant: { select: { handle: true, displayName: true } } },
    }),
  ]);
  const suggested = first ? { handle: first.participant.handle, displayName: first.participant.displayName } : null;
  const handleTaken =
    !member && suggested !== null && (await db.participant.count({ where: { workspaceId: invite.workspaceId, handle: suggested.handle } })) > 0;
  return {
    valid: true,
    workspaceName: invite.workspace.name,
    invitedBy: invite.createdBy.displayName,
    role: invite.role,
    memberOf: member?.workspaceId ?? null,
    suggested,
    handleTaken,
  };
}

/** The account a session names; a session outliving its account (a reset database) is signed out. */
async function accountOf(accountId: string): Promise<{ email: string }> {
  const account = await getDb().account.findUnique({ where: { id: accountId }, select: { email: true } });
  if (!account) throw new AppError("UNAUTHENTICATED", "Sign in first");
  return account;
}

/** A person of the workspace for the account: its participant and member rows. Returns the participant's id. */
async function addPerson(tx: Tx, p: { workspaceId: string; accountId: string; role: WorkspaceRole; handle: string; displayName: string }): Promise<string> {
  const participantId = newId();
  await tx.participant.create({ data: { id: participantId, workspaceId: p.workspaceId, kind: "human", handle: p.handle, displayName: p.displayName } });
  await tx.member.create({ data: { id: newId(), workspaceId: p.workspaceId, accountId: p.accountId, participantId, role: p.role } });
  return participantId;
}
