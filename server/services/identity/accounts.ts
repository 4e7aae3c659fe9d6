// People's accounts: sign-up (the first creates the workspace, later ones need an invite), and the
// credentials check that Auth.js calls at sign-in.
import type { SignUpInput } from "@switchboard/sdk/admin";
import { getDb, isPostgres, type Db, type Tx } from "../../db";
import { env } from "../../env";
import { AppError, isUniqueViolation } from "../../errors";
import { newId, sha256 } from "../../ids";
import type { Actor, WorkspaceRole } from "../../policies";
import { countFailedSignUp, countSignIn, countSignUp, refuseIfSignUpsUsedUp } from "../governance/address-limits";
import { recordAudit } from "../governance/audit";
import { claimInviteUse, inviteInvalid, isUsable } from "./invites";
import { recordFailedSignIn, signInBlocked } from "../governance/limits";
import { hashPassword, verifyAgainstNothing, verifyPassword } from "./passwords";
import { addToDefaultChannels, createWorkspace } from "./workspaces";

/**
 * Creates an account. The cheap checks come first, so that a sign-up that cannot succeed (no
 * invite after the first run, a bad invite, an address over its limit) never costs a password hash.
 * `address`: the client's, for its limit; null for the server's own calls (the demo seed).
 * Nothing is written unless the account is: the invite's use is claimed in the same transaction.
 */
export async function signUp(
  input: SignUpInput,
  address: string | null = null,
  opts: { byOperator?: boolean } = {},
): Promise<{ accountId: string; workspaceId: string }> {
  const db = getDb();
  const email = input.email.trim().toLowerCase();
  // The server's own sign-ups (the demo's companies) create their workspaces whatever WORKSPACE_SIGNUP says.
  if (!opts.byOperator) await assertMayJoin(db, input, address);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.$transaction(async (tx) => {
      const accountId = newId();
      await tx.account.create({ data: { id: accountId, email, passwordHash } });
      const { workspaceId, role, inviteId } = await placeFor(tx, input, opts.byOperator ?? false);
      const participantId = newId();
      await tx.participant.create({
        data: { id: participantId, workspaceId, kind: "human", handle: input.handle, displayName: input.displayName },
      });
      await tx.member.create({ data: { id: newId(), workspaceId, accountId, participantId, role } });
      await addToDefaultChannels(tx, workspaceId, participantId);
      await recordAudit(tx, {
        workspaceId,
        actorId: participantId,
        action: role === "owner" ? "workspace.created" : "member.joined",
        subjectType: "participant",
        subjectId: participantId,
        // `inviteId` is how the invite links' list knows who joined through each (services/identity/invites.ts).
        data: { role, email, viaInvite: Boolean(input.inviteToken), ...(inviteId ? { inviteId } : {}) },
        address,
      });
      return { accountId, workspaceId };
    });
  } catch (error) {
    // An invite sign-up was not counted by its check, and this one cost a hash without joining (a
    // taken email or handle, the link's last use taken meanwhile): it counts, so retrying it is limited.
    if (input.inviteToken) await countFailedSignUp(address);
    if (isUniqueViolation(error)) {
      const taken = await db.account.findUnique({ where: { email } });
      if (taken) throw new AppError("EMAIL_TAKEN", "An account with this email already exists");
      throw new AppError("NAME_TAKEN", `@${input.handle} is taken`);
    }
    throw error;
  }
}

const inviteRequired = () => new AppError("INVITE_REQUIRED", "This workspace is invite-only: ask an admin for an invite link");

/**
 * The sign-up could succeed: its invite is usable, or nobody has signed up yet (`placeFor` decides).
 * A sign-up without an invite, or with one that is not usable, counts against its address and is
 * refused past its limit; one with a usable invite does not count, its invite bounds it.
 * An address that has used up its sign-ups is refused before its invite is looked at, a good one too:
 * were only bad tokens refused, the answers (RATE_LIMITED for a bad token, an account for a good one)
 * would tell it which tokens are good past its limit, and guessing them would go on unlimited.
 */
async function assertMayJoin(db: Db, input: SignUpInput, address: string | null): Promise<void> {
  if (!input.inviteToken) {
    await countSignUp(address);
    if (!(await mayCreateWorkspace())) throw inviteRequired();
    return;
  }
  await assertInviteAdmits(db, input.inviteToken, address);
}

/**
 * A join by an invite link (a sign-up's, or a signed-in account's into another workspace) could succeed:
 * the link is usable; returns the workspace it leads to. Past its address's sign-ups it is refused, a
 * good link too (see assertMayJoin); a link that is not usable counts against the address.
 */
export async function assertInviteAdmits(db: Db, token: string, address: string | null): Promise<{ workspaceId: string }> {
  await refuseIfSignUpsUsedUp(address);
  const invite = await db.invite.findUnique({ where: { tokenHash: sha256(token) } });
  if (!isUsable(invite)) {
    await countSignUp(address); // RATE_LIMITED rather than INVITE_INVALID when this one is past the limit
    throw inviteInvalid();
  }
  return { workspaceId: invite.workspaceId };
}

/**
 * The first run has no row to lock, so two first sign-ups at once could each create a workspace. On
 * PostgreSQL they queue on an advisory lock held to the end of the transaction; the second then
 * counts the first's workspace. SQLite runs one write transaction at a time anyway.
 */
async function holdFirstRun(tx: Tx): Promise<void> {
  if (isPostgres(env.DATABASE_URL)) await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext('switchboard:first-run'))::text`;
}

/** Where a new account goes: a new workspace it owns, or the one its invite names. */
async function placeFor(tx: Tx, input: SignUpInput, byOperator: boolean): Promise<{ workspaceId: string; role: WorkspaceRole; inviteId?: string }> {
  if (input.inviteToken) return claimInviteUse(tx, input.inviteToken);
  if (env.WORKSPACE_SIGNUP === "invite" && !byOperator) {
    await holdFirstRun(tx);
    if ((await tx.workspace.count()) > 0) throw inviteRequired();
  }
  const workspaceId = await createWorkspace(tx, input.workspaceName?.trim() || `${input.displayName}'s workspace`);
  return { workspaceId, role: "owner" };
}

/**
 * Auth.js's credentials check: the account, or null. Throws RATE_LIMITED when the address has tried
 * too often (every attempt counts: each costs a password hash) or the email has failed too often.
 * Known and unknown emails cost the same before the answer, one lookup and one hash, so its time
 * does not tell whether an account exists; a known account's attempt is audited after the answer.
 */
export async function checkCredentials(email: string, password: string, address: string | null): Promise<{ id: string; email: string } | null> {
  await countSignIn(address);
  if (await signInBlocked(email)) throw new AppError("RATE_LIMITED", "Too many failed sign-ins for this email; try again later");
  const account = await getDb().account.findUnique({ where: { email: email.trim().toLowerCase() } });
  const ok = account ? await verifyPassword(password, account.passwordHash) : await verifyAgainstNothing(password);
  if (!ok) await recordFailedSignIn(email);
  if (account) void auditSignIn(account.id, ok, address).catch((error: unknown) => console.error("sign-in audit:", error));
  return account && ok ? { id: account.id, email: account.email } : null;
}

async function auditSignIn(accountId: string, ok: boolean, address: string | null): Promise<void> {
  const member = await getDb().member.findFirst({ where: { accountId }, orderBy: { createdAt: "asc" } });
  if (!member) return;
  await getDb().$transaction((tx) =>
    recordAudit(tx, {
      workspaceId: member.workspaceId,
      actorId: member.participantId,
      action: ok ? "auth.signin" : "auth.signin_failed",
      subjectType: "account",
      subjectId: accountId,
      address,
    }),
  );
}

/** Whether anyone has signed up yet: the sign-up page offers to create the workspace until then. */
export async function isFirstRun(): Promise<boolean> {
  return (await getDb().workspace.count()) === 0;
}

/** Whether a sign-up without an invite creates a workspace: on the first run, or always where sign-up is open (WORKSPACE_SIGNUP). */
export async function mayCreateWorkspace(): Promise<boolean> {
  return (await signUpOptions()).mayCreate;
}

/** What the sign-up page offers: whether this is the first run, and whether a sign-up without an invite creates a workspace. */
export async function signUpOptions(): Promise<{ firstRun: boolean; mayCreate: boolean }> {
  const firstRun = await isFirstRun();
  return { firstRun, mayCreate: firstRun || env.WORKSPACE_SIGNUP === "open" };
}

/**
 * The participant an account acts as in a workspace, or null when it is not a member there (or its
 * member there is suspended). Without a workspace: its first, for callers that name none (an old
 * client, the CLI's login without --workspace).
 */
export async function actorForAccount(accountId: string, workspaceId?: string | null): Promise<Actor | null> {
  const where = workspaceId ? { accountId, workspaceId } : { accountId };
  return actorOf(await getDb().member.findFirst({ where, orderBy: { createdAt: "asc" }, include: { participant: true } }));
}

/** A person's actor by their participant id (a socket's rights read again), or null. */
export async function actorForMember(participantId: string): Promise<Actor | null> {
  return actorOf(await getDb().member.findUnique({ where: { participantId }, include: { participant: true } }));
}

function actorOf(
  member: { participantId: string; workspaceId: string; role: WorkspaceRole; participant: { status: string; handle: string } } | null,
): Actor | null {
  if (!member || member.participant.status !== "active") return null;
  return {
    participantId: member.participantId,
    workspaceId: member.workspaceId,
    kind: "human",
    role: member.role,
    handle: member.participant.handle,
  };
}
