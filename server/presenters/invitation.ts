// Invite links (people join a workspace) and onboarding tokens (scripts register agents) are both
// secrets with an expiry and an optional number of uses that can be revoked. Their state is
// computed here, once, for the check at redemption and for the lists people manage them from.

export type InvitationState = "active" | "expired" | "used_up" | "revoked";

interface InvitationFacts {
  revokedAt: Date | null;
  expiresAt: Date;
  maxUses: number | null;
  uses: number;
}

interface InvitationRow extends InvitationFacts {
  id: string;
  createdAt: Date;
  createdBy: { id: string; displayName: string; handle: string };
}

export interface InvitationView {
  id: string;
  state: InvitationState;
  createdBy: { id: string; displayName: string; handle: string };
  createdAt: string;
  expiresAt: string;
  uses: number;
  /** null: unlimited until it expires. */
  maxUses: number | null;
  revokedAt: string | null;
}

export interface InviteLinkView extends InvitationView {
  role: "admin" | "member" | "guest";
  /**
   * Who joined through the link, first to last. Joins are known by link since sign-ups recorded their
   * link (2026-12); `uses` beyond this list's length are earlier joins.
   */
  joined: JoinedPerson[];
}

export interface JoinedPerson {
  id: string;
  handle: string;
  displayName: string;
  joinedAt: string;
}

export interface OnboardingTokenView extends InvitationView {
  label: string;
}

/**
 * Revoked wins (someone said stop); a link that ran out of uses did so before it expired, so
 * "used up" comes before "expired".
 */
export function invitationState(row: InvitationFacts, now = new Date()): InvitationState {
  if (row.revokedAt) return "revoked";
  if (row.maxUses !== null && row.uses >= row.maxUses) return "used_up";
  if (row.expiresAt <= now) return "expired";
  return "active";
}

function presentInvitation(row: InvitationRow, now: Date): InvitationView {
  return {
    id: row.id,
    state: invitationState(row, now),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    uses: row.uses,
    maxUses: row.maxUses,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export function presentInviteLink(row: InvitationRow & { role: InviteLinkView["role"] }, now = new Date(), joined: JoinedPerson[] = []): InviteLinkView {
  return { ...presentInvitation(row, now), role: row.role, joined };
}

export function presentOnboardingToken(row: InvitationRow & { label: string }, now = new Date()): OnboardingTokenView {
  return { ...presentInvitation(row, now), label: row.label };
}

/** The relation a presented invitation needs, for Prisma `include`. */
export const invitationInclude = { createdBy: { select: { id: true, displayName: true, handle: true } } } as const;

/** Invitations stay listed this long after they expire, so people see what just stopped working. */
const LISTED_AFTER_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;
/** A guard on a list's size: expiry (30 days for links, 90 for tokens) keeps the real number far below. */
const LIST_LIMIT = 500;

/** Prisma `findMany` arguments for a list of the invitations matching `where`: recent ones, newest first. */
export function listedInvitations<W extends object>(where: W, now: Date) {
  return {
    where: { ...where, expiresAt: { gt: new Date(now.getTime() - LISTED_AFTER_EXPIRY_MS) } },
    include: invitationInclude,
    orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }],
    take: LIST_LIMIT,
  };
}
