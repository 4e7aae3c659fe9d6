// People's personal access tokens: a script, the CLI or an MCP host acts as the person who made the
// token, under that person's current role (never more), and only reads with a read-scoped one. A
// token is `sbp_<prefix>_<secret>`: the prefix finds the row, the SHA-256 of the whole token is
// compared in constant time. The token is in the answer that creates it and is never stored.
import { timingSafeEqual } from "node:crypto";
import type { AccessTokenScope, AccessTokenView } from "@switchboard/sdk/contract";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { newId, newPrefix, newSecret, sha256 } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { accessTokenSelect, accessTokenState, presentAccessToken } from "../../presenters/access-token";
import { disconnectAccessToken } from "../../realtime/sessions";
import { actorForAccount, actorForMember, checkCredentials } from "./accounts";
import { recordAudit } from "../governance/audit";
import { auditFailedUse } from "./failed-uses";

export const ACCESS_TOKEN_PREFIX = "sbp_";
const TOKEN_SHAPE = /^sbp_([A-Za-z0-9]{10})_([A-Za-z0-9_-]{32,64})$/;

/** One answer for every refusal: it does not say which part (prefix, secret, expiry, revocation) was wrong. */
const REFUSED = "Invalid, expired or revoked access token";
const refused = () => new AppError("UNAUTHENTICATED", REFUSED);

const DAY_MS = 24 * 60 * 60 * 1000;
/** Tokens stay listed this long after they stopped working, so people see what just stopped. */
const LISTED_AFTER_END_MS = 30 * DAY_MS;
/** A guard on a list's size; people hold a handful. */
const LIST_LIMIT = 500;
/** Last use is informational: written at most this often per token, not on every request. */
const LAST_USED_GRAIN_MS = 60_000;

export interface NewAccessToken {
  name: string;
  scope: AccessTokenScope;
  /** Absent or null: until revoked. */
  expiresInDays?: number | null;
}

export interface IssuedAccessToken {
  /** The token itself, shown only here. */
  token: string;
  accessToken: AccessTokenView;
}

/** A person makes a token for themselves (signed in, or through a write-scoped token of theirs). */
export function createAccessToken(actor: Actor, input: NewAccessToken, address: string | null = null): Promise<IssuedAccessToken> {
  return issue(actor, input, address, actor.accessToken ? "access_token" : "session");
}

/**
 * POST /api/v1/tokens (the CLI's login): the person's email and password for a token, acting in the
 * workspace named by id or name (absent: the first they joined). The checks are sign-in's own
 * (`checkCredentials`): the address's limit before the password is hashed, the email's failures, the
 * same time for unknown emails, and the attempt audited.
 */
export async function createAccessTokenWithPassword(
  input: NewAccessToken & { email: string; password: string; workspace?: string },
  address: string | null = null,
): Promise<IssuedAccessToken & { workspace: { id: string; name: string } }> {
  const { email, password, workspace, ...token } = input;
  const account = await checkCredentials(email, password, address);
  if (!account) throw new AppError("UNAUTHENTICATED", "Wrong email or password");
  const workspaceId = workspace ? await workspaceNamed(account.id, workspace) : null;
  const actor = workspace && !workspaceId ? null : await actorForAccount(account.id, workspaceId);
  if (!actor && workspace) throw new AppError("FORBIDDEN", "You are not an active member of that workspace");
  if (!actor) throw new AppError("UNAUTHENTICATED", "Wrong email or password");
  const issued = await issue(actor, token, address, "password");
  const { id, name } = await getDb().workspace.findUniqueOrThrow({ where: { id: actor.workspaceId }, select: { id: true, name: true } });
  return { ...issued, workspace: { id, name } };
}

/** Of an account's workspaces, the one with this id, else the one with this name in any case; null: none. */
async function workspaceNamed(accountId: string, ref: string): Promise<string | null> {
  const theirs = (await getDb().member.findMany({ where: { accountId }, select: { workspace: { select: { id: true, name: true } } } })).map((m) => m.workspace);
  const byId = theirs.find((w) => w.id === ref);
  if (byId) return byId.id;
  const named = theirs.filter((w) => w.name.toLowerCase() === ref.toLowerCase());
  if (named.length > 1)
    throw new AppError("INVALID_PAYLOAD", `workspace: ${named.length} of your workspaces are named ${ref}: give its id (${named.map((w) => w.id).join(", ")})`);
  return named[0]?.id ?? null;
}

async function issue(actor: Actor, input: NewAccessToken, address: string | null, via: "session" | "access_token" | "password"): Promise<IssuedAccessToken> {
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * DAY_MS) : null;
  authorize(actor, "access_token.create", { scope: input.scope, expiresAt });
  const id = newId();
  const prefix = newPrefix();
  const token = `${ACCESS_TOKEN_PREFIX}${prefix}_${newSecret(32)}`;
  const row = await getDb().$transaction(async (tx) => {
    const created = await tx.accessToken.create({
      data: {
        id,
        workspaceId: actor.workspaceId,
        participantId: actor.participantId,
        name: input.name,
        scope: input.scope,
        prefix,
        hash: sha256(token),
        expiresAt,
      },
      select: accessTokenSelect,
    });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "access_token.created",
      subjectType: "access_token",
      subjectId: id,
      data: {
        name: input.name,
        scope: input.scope,
        prefix: `${ACCESS_TOKEN_PREFIX}${prefix}`,
        expiresAt: expiresAt?.toISOString() ?? null,
        via,
        viaTokenId: actor.accessToken?.id ?? null,
      },
      address,
    });
    return created;
  });
  return { token, accessToken: presentAccessToken(row, actor) };
}

/** The person's own tokens, newest first: working ones, and those that stopped lately. */
export async function listAccessTokens(actor: Actor): Promise<AccessTokenView[]> {
  const own = { workspaceId: actor.workspaceId, participantId: actor.participantId };
  authorize(actor, "access_token.read", own);
  const now = new Date();
  const since = new Date(now.getTime() - LISTED_AFTER_END_MS);
  const rows = await getDb().accessToken.findMany({
    where: {
      ...own,
      AND: [{ OR: [{ revokedAt: null }, { revokedAt: { gt: since } }] }, { OR: [{ expiresAt: null }, { expiresAt: { gt: since } }] }],
    },
    select: accessTokenSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: LIST_LIMIT,
  });
  return rows.map((row) => presentAccessToken(row, actor, now));
}

/**
 * Revokes one of the person's tokens: refused from the commit on, and the sockets it opened are
 * closed at once, on every process. Revoking a revoked token changes and records nothing.
 */
export async function revokeAccessToken(actor: Actor, tokenId: string, address: string | null = null): Promise<AccessTokenView> {
  const db = getDb();
  const token = await db.accessToken.findUnique({ where: { id: tokenId }, select: accessTokenSelect });
  if (!token) throw new AppError("NOT_FOUND", "No such access token");
  authorize(actor, "access_token.revoke", token);
  const revoked = await db.$transaction(async (tx) => {
    const { count } = await tx.accessToken.updateMany({ where: { id: tokenId, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count === 0) return false;
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "access_token.revoked",
      subjectType: "access_token",
      subjectId: tokenId,
      data: { name: token.name, prefix: `${ACCESS_TOKEN_PREFIX}${token.prefix}`, viaTokenId: actor.accessToken?.id ?? null },
      address,
    });
    return true;
  });
  if (revoked) disconnectAccessToken(token.participantId, tokenId);
  return presentAccessToken(await db.accessToken.findUniqueOrThrow({ where: { id: tokenId }, select: accessTokenSelect }), actor);
}

/**
 * The person a token acts for, with the token's scope, or UNAUTHENTICATED. A failed use of a real
 * token's prefix is audited (once per token in a window).
 */
export async function authenticateAccessToken(token: string, address: string | null = null): Promise<{ actor: Actor; tokenId: string }> {
  const match = TOKEN_SHAPE.exec(token);
  if (!match) throw refused();
  const row = await getDb().accessToken.findUnique({ where: { prefix: match[1] } });
  const expected = Buffer.from(row?.hash ?? sha256("no such token"), "hex");
  const matches = timingSafeEqual(expected, Buffer.from(sha256(token), "hex"));
  const state = row ? accessTokenState(row) : null;
  if (!row || !matches || state !== "active") {
    if (row) await auditFailedToken(row, matches ? state : "mismatch", address);
    throw refused();
  }
  const actor = await tokenActor(row);
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_GRAIN_MS) {
    // Never let it fail or slow the request.
    void getDb()
      .accessToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } })
      .catch(() => {});
  }
  return { actor, tokenId: row.id };
}

/**
 * A token's actor read again, after the person's role changed: the token must still work, and its
 * scope stays with it.
 */
export async function reauthenticateAccessToken(tokenId: string): Promise<Actor> {
  const row = await getDb().accessToken.findUnique({ where: { id: tokenId } });
  if (!row || accessTokenState(row) !== "active") throw refused();
  return tokenActor(row);
}

/** The person as they are now (their current role, active), acting through the token. */
async function tokenActor(row: { id: string; participantId: string; scope: AccessTokenScope; expiresAt: Date | null }): Promise<Actor> {
  const person = await actorForMember(row.participantId);
  if (!person) throw refused();
  return { ...person, ...(row.scope === "read" ? { readOnly: true as const } : {}), accessToken: { id: row.id, expiresAt: row.expiresAt } };
}

function auditFailedToken(row: { id: string; workspaceId: string; participantId: string }, reason: string | null, address: string | null): Promise<void> {
  return auditFailedUse(row.id, async () => ({
    workspaceId: row.workspaceId,
    actorId: null,
    action: "access_token.failed",
    subjectType: "access_token",
    subjectId: row.id,
    data: { participantId: row.participantId, reason },
    address,
  }));
}
