// Workspace administration's operations (tRPC `workspace.*`, `agents.*`, `admin.*`): each input
// written once, with its business bounds named, so the router validates with it, the service takes
// its output type, and the admin console's fields allow exactly what the server will.
import { z } from "zod";

const id = z.string().min(1).max(64);

/** The bounds of each message limit a workspace (or, for an agent, its owner) may set. */
export const LIMIT_BOUNDS = {
  agentMessagesPerMinute: { min: 1, max: 10_000 },
  agentBurst: { min: 0, max: 10_000 },
  peopleMessagesPerMinute: { min: 1, max: 10_000 },
  peopleBurst: { min: 0, max: 10_000 },
  loopGuardMessages: { min: 2, max: 10_000 },
  loopGuardWindowSec: { min: 10, max: 86_400 },
} as const;
type LimitKey = keyof typeof LIMIT_BOUNDS;
const bounded = (key: LimitKey) => z.number().int().min(LIMIT_BOUNDS[key].min).max(LIMIT_BOUNDS[key].max);

/** The workspace's message limits; what is left out stays as it is. */
export const setWorkspaceLimitsInput = z.strictObject({
  agentMessagesPerMinute: bounded("agentMessagesPerMinute").optional(),
  agentBurst: bounded("agentBurst").optional(),
  peopleMessagesPerMinute: bounded("peopleMessagesPerMinute").optional(),
  peopleBurst: bounded("peopleBurst").optional(),
  loopGuardMessages: bounded("loopGuardMessages").optional(),
  loopGuardWindowSec: bounded("loopGuardWindowSec").optional(),
});

/** One agent's own message rate, within the bounds agents have; null: the workspace's default. */
export const setAgentLimitsInput = z.strictObject({
  agentId: id,
  messagesPerMinute: bounded("agentMessagesPerMinute").nullable(),
  burst: bounded("agentBurst").nullable(),
});
export type SetAgentLimitsInput = z.output<typeof setAgentLimitsInput>;

/** How many times an invite link or an onboarding token may be used, at most (none: until it expires). */
export const MAX_USES = 1000;
const maxUses = z.number().int().min(1).max(MAX_USES).optional();

/** The roles an invite link (or a change of role) may give: never owner. */
export const GRANTED_ROLES = ["admin", "member", "guest"] as const;

export const createInviteInput = z.strictObject({
  role: z.enum(GRANTED_ROLES).default("member"),
  expiresInDays: z.number().int().min(1).max(30).default(7),
  maxUses,
});
export type CreateInviteInput = z.output<typeof createInviteInput>;

export const createOnboardingTokenInput = z.strictObject({
  label: z.string().trim().max(80).default(""),
  expiresInDays: z.number().int().min(1).max(90).default(7),
  maxUses,
});
export type CreateOnboardingTokenInput = z.output<typeof createOnboardingTokenInput>;

export const setRoleInput = z.strictObject({ participantId: id, role: z.enum(GRANTED_ROLES) });
export type SetRoleInput = z.output<typeof setRoleInput>;

/** Which audit entries: by action, actor, subject and time (dates travel as dates over superjson). */
export const auditFilterInput = z.strictObject({
  action: z.string().trim().max(60).optional(),
  actorId: z.string().max(64).optional(),
  subjectId: z.string().max(64).optional(),
  from: z.date().optional(),
  to: z.date().optional(),
});
/** A page of the audit log, newest first, before `beforeSeq`. */
export const listAuditInput = auditFilterInput.extend({ beforeSeq: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(500).default(100) });
export type AuditFilter = z.output<typeof listAuditInput>;
export const exportAuditInput = auditFilterInput.extend({ format: z.enum(["csv", "json"]) });
