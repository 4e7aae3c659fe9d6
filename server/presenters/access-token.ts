// A person's access token as its owner sees it: never its hash, and never the token itself, which is
// in the answer that creates it and nowhere else.
import type { AccessTokenScope, AccessTokenView } from "@switchboard/sdk/contract";
import { can, type Actor } from "../policies";

export type AccessTokenState = AccessTokenView["state"];

interface AccessTokenRow {
  id: string;
  workspaceId: string;
  participantId: string;
  name: string;
  scope: AccessTokenScope;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** The columns a presented token needs, for Prisma `select` (never the hash). */
export const accessTokenSelect = {
  id: true,
  workspaceId: true,
  participantId: true,
  name: true,
  scope: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  expiresAt: true,
  revokedAt: true,
} as const;

/** Revoked wins (someone said stop); a token without an expiry never expires. */
export function accessTokenState(row: { revokedAt: Date | null; expiresAt: Date | null }, now = new Date()): AccessTokenState {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt && row.expiresAt <= now) return "expired";
  return "active";
}

export function presentAccessToken(row: AccessTokenRow, viewer: Actor, now = new Date()): AccessTokenView {
  const state = accessTokenState(row, now);
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: `sbp_${row.prefix}`,
    state,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    can: { revoke: state === "active" && can(viewer, "access_token.revoke", row) },
  };
}
