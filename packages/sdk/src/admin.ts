// Workspace administration's operations (tRPC `workspace.*`, `agents.*`, `admin.*`): each input
// written once, with its business bounds named, so the router validates with it, the service takes
// its output type, and the admin console's (and sign-up's) fields allow exactly what the server will.
import { z } from "zod";
import { consentPolicies, DISPLAY_NAME_MAX, EMAIL_MAX, handleSchema, PASSWORD_MAX, setDeliveryModeInput } from "./contract.ts";

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

/** What an onboarding token is called (its creator's note), at most. */
export const ONBOARDING_LABEL_MAX = 80;
export const createOnboardingTokenInput = z.strictObject({
  label: z.string().trim().max(ONBOARDING_LABEL_MAX).default(""),
  expiresInDays: z.number().int().min(1).max(90).default(7),
  maxUses,
  /** The room the agents it registers land in (one its creator may invite into); none: the workspace's #general. */
  roomId: id.optional(),
});
export type CreateOnboardingTokenInput = z.output<typeof createOnboardingTokenInput>;

export const setRoleInput = z.strictObject({ participantId: id, role: z.enum(GRANTED_ROLES) });
export type SetRoleInput = z.output<typeof setRoleInput>;

/** What an audit entry is about: `participant`, `room`, `invite`, `api_key`... (lower case and `_`). */
export const AUDIT_SUBJECT_TYPE = /^[a-z][a-z_]{0,39}$/;

/**
 * Which audit entries: by action (a prefix: `agent.` or the whole `agent.suspended`), actor, subject (its
 * kind, its id or both) and time (dates travel as dates over superjson).
 */
export const auditFilterInput = z.strictObject({
  action: z.string().trim().max(60).optional(),
  actorId: z.string().max(64).optional(),
  subjectType: z.string().regex(AUDIT_SUBJECT_TYPE, "a subject kind such as participant or room").optional(),
  subjectId: z.string().max(64).optional(),
  from: z.date().optional(),
  to: z.date().optional(),
});
/** A page of the audit log, newest first, before `beforeSeq`. */
export const listAuditInput = auditFilterInput.extend({ beforeSeq: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(500).default(100) });
export type AuditFilter = z.output<typeof listAuditInput>;
export const exportAuditInput = auditFilterInput.extend({ format: z.enum(["csv", "json"]) });

// ---- the workspace (tRPC `workspace.*`) ----

export const WORKSPACE_NAME_MAX = 80;
export const PASSWORD_MIN = 8;
/** An invite link's token, and an onboarding token, at most. */
export const TOKEN_MAX = 200;

/** A new account: the first names the workspace, later ones come with an invite token. */
export const signUpInput = z.strictObject({
  email: z.string().trim().email().max(EMAIL_MAX),
  password: z.string().min(PASSWORD_MIN, `at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX),
  displayName: z.string().trim().min(1).max(DISPLAY_NAME_MAX),
  handle: handleSchema,
  workspaceName: z.string().trim().min(1).max(WORKSPACE_NAME_MAX).optional(),
  inviteToken: z.string().min(1).max(TOKEN_MAX).optional(),
});
export type SignUpInput = z.output<typeof signUpInput>;

export const setRateExemptionInput = z.strictObject({ exempt: z.boolean() });
/** The workspace's name, and whether its people talk without connection requests; what is left out stays. */
export const updateSettingsInput = z.strictObject({
  name: z.string().trim().min(1).max(WORKSPACE_NAME_MAX).optional(),
  peopleTalkFreely: z.boolean().optional(),
});
export type UpdateSettingsInput = z.output<typeof updateSettingsInput>;

/** A picker's search: at most PARTICIPANT_QUERY_MAX characters; PARTICIPANTS_PAGE matches unless asked for more. */
export const PARTICIPANT_QUERY_MAX = 100;
export const PARTICIPANTS_PAGE = 50;
export const MAX_PARTICIPANTS_PAGE = 200;
/** Everyone in the workspace, or with `query` the first `limit` whose handle or name holds it. */
export const listParticipantsInput = z
  .strictObject({ query: z.string().max(PARTICIPANT_QUERY_MAX).optional(), limit: z.number().int().min(1).max(MAX_PARTICIPANTS_PAGE).optional() })
  .optional();

export const revokeInviteInput = z.strictObject({ inviteId: id });
/** An invite link's token, looked up before signing up with it. */
export const describeInviteInput = z.strictObject({ token: z.string().min(1).max(TOKEN_MAX) });

// ---- agents (tRPC `agents.*`) ----

export const agentIdInput = z.strictObject({ agentId: id });
export const revokeKeyInput = agentIdInput.extend({ keyId: id });
/** The viewer's onboarding tokens (`mine`, the default), or everyone's (`workspace`, owners and admins). */
export const listOnboardingTokensInput = z.strictObject({ scope: z.enum(["mine", "workspace"]) }).default({ scope: "mine" });
export const revokeOnboardingTokenInput = z.strictObject({ tokenId: id });
/** Why an agent is suspended (its owner and admins see it), at most. */
export const SUSPEND_REASON_MAX = 300;
export const suspendAgentInput = agentIdInput.extend({ reason: z.string().trim().max(SUSPEND_REASON_MAX).default("") });
export const setConsentPolicyInput = agentIdInput.extend({ policy: z.enum(consentPolicies) });
/** Served over A2A at /a2a/<handle>, or not. */
export const setA2aServedInput = agentIdInput.extend({ served: z.boolean() });
/** An agent's display name, by its owner or an admin (the Agents page). Its handle is its address: it stays. */
export const renameAgentInput = agentIdInput.extend({ displayName: z.string().trim().min(1).max(DISPLAY_NAME_MAX) });

/** A person's own name and handle (tRPC `profile.update`); what is absent stays as it is. */
export const updateProfileInput = z.strictObject({
  displayName: z.string().trim().min(1).max(DISPLAY_NAME_MAX).optional(),
  /** As at sign-up, unique in the workspace (NAME_TAKEN). Old messages keep the @old-handle as written. */
  handle: handleSchema.optional(),
});
/** A member's delivery mode in a room: one's own, or (`participantId`) an agent one owns. */
export const setMemberDeliveryModeInput = setDeliveryModeInput.extend({ participantId: id.optional() });

/** What an owner may make an agent ask for first: opening a conversation, inviting, asking to connect. */
export const GATED_ACTIONS = ["dm.open", "room.invite", "connection.request"] as const;
export type GatedAction = (typeof GATED_ACTIONS)[number];
/** A daily spend past which an agent's usage reports wait for its owner's approval, at most this. */
export const MAX_APPROVAL_SPEND_USD = 1_000_000;
export const setApprovalActionsInput = z.strictObject({
  agentId: id,
  actions: z.array(z.enum(GATED_ACTIONS)).max(GATED_ACTIONS.length),
  /** Past this many dollars in a UTC day, the agent's usage reports wait for approval; null: never. */
  spendUsdPerDay: z.number().min(0).max(MAX_APPROVAL_SPEND_USD).nullable().default(null),
});
export type SetApprovalActionsInput = z.output<typeof setApprovalActionsInput>;
