// The real-time contract shared by the server, the browser and agents: event names, payload schemas,
// the shapes the server presents, and the ack union. docs/protocol.md documents it for other languages.
import { z } from "zod";
import type { bindingIdInput, bindingKeyInput, BindingView, claimBindingInput, listBindingsInput, updateBindingInput } from "./bindings.ts";
import type { answerQuestionInput, AskQuestionInput, listQuestionsInput, questionIdInput, QuestionForViewer, QuestionView } from "./questions.ts";
import type {
  FileTouchView,
  linkWorkInput,
  reportFilesInput,
  reportTasksInput,
  setWorkStatusInput,
  TaskView,
  WorkChange,
  WorkLinkView,
  WorkStatusView,
} from "./work.ts";
import type { SearchMessagesInput } from "./search.ts";
import { attachedFileIds, type fileIdInput, type FileView, type UploadFileInput } from "./files.ts";
import type { SetProfileStatusInput } from "./profiles.ts";
import type { markUnreadInput, pinInput, pinnedInput, PinView, ReactInput, ReactionsChange, ReactionView } from "./reactions.ts";
import type { endTurnInput, PauseView, startTurnInput, turnStepsInput, TurnStepView, TurnView } from "./turns.ts";

export const PROTOCOL_VERSION = 1;
export const SOCKET_PATH = "/socket.io";

/**
 * Optional protocol features a client asks for in the handshake (`auth.features`); `session:ready`
 * lists the ones the server turned on. Names the server does not know are ignored, so a client may
 * ask a server older than itself.
 *
 * `message:batch`: several new messages of a room that were committed together arrive as one
 * `message:batch` event instead of one `message:new` each (one frame per batch, not per message).
 */
export const FEATURES = ["message:batch"] as const;
export type Feature = (typeof FEATURES)[number];
/** `auth.features` in the handshake: absent, or a short list of names. */
export const handshakeFeatures = z.array(z.string().max(64)).max(32).optional();

/** Message bodies are limited to 32 KiB of UTF-8. */
export const MAX_BODY_BYTES = 32 * 1024;

const id = z.string().min(1).max(64);
const clientMsgId = z.string().min(1).max(128);
const seq = z.number().int().min(0);

// ---- inputs (validated on every transport: tRPC and socket) ----

export const sendMessageInput = z.strictObject({
  roomId: id,
  body: z.string(),
  clientMsgId,
  threadRootId: id.optional(),
  /**
   * The message this one answers or follows from, if the sender is an agent handling it: the person
   * who drove that message is this one's requester too ("requested by" in usage). The SDK sets it.
   */
  causeId: id.optional(),
  /** Files to attach: your own uploads to this room not yet on a message (sdk/files.ts). */
  fileIds: attachedFileIds.optional(),
});
export const editMessageInput = z.strictObject({ messageId: id, body: z.string() });
export const deleteMessageInput = z.strictObject({ messageId: id });
export const historyInput = z.strictObject({
  roomId: id,
  beforeSeq: seq.optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
/** A thread's root and a page of its replies: the newest, or those before `beforeSeq`; oldest first in the page. */
export const threadInput = z.strictObject({
  messageId: id,
  beforeSeq: seq.optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export const syncInput = z.strictObject({
  roomId: id,
  afterSeq: seq,
  limit: z.number().int().min(1).max(1000).default(500),
  /** Only what the caller's delivery mode selects (agents); otherwise everything. */
  selected: z.boolean().default(false),
});
export const markReadInput = z.strictObject({ roomId: id, seq });
export const typingInput = z.strictObject({ roomId: id, threadRootId: id.optional() });
export const roomIdInput = z.strictObject({ roomId: id });

const channelName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_-]{0,79}$/, "lower-case letters, digits, - and _, up to 80 characters");

/** A channel's topic, at most. */
export const TOPIC_MAX = 250;

export const createChannelInput = z.strictObject({
  name: channelName,
  visibility: z.enum(["public", "private"]).default("public"),
  topic: z.string().trim().max(TOPIC_MAX).default(""),
  memberIds: z.array(id).max(100).default([]),
});
/**
 * A channel's settings after creation (`room:update`, tRPC `rooms.update`): what is present changes.
 * `name` by the rules `createChannelInput` has (NAME_TAKEN when in use); `archived` archives (read-only,
 * out of the sidebar) or unarchives it.
 */
export const updateRoomInput = z
  .strictObject({
    roomId: id,
    name: channelName.optional(),
    topic: z.string().trim().max(TOPIC_MAX).optional(),
    archived: z.boolean().optional(),
  })
  .refine((i) => i.name !== undefined || i.topic !== undefined || i.archived !== undefined, { message: "name, topic or archived" });
export const inviteToRoomInput = z.strictObject({ roomId: id, participantIds: z.array(id).min(1).max(100) });
export const openDirectInput = z.strictObject({ participantIds: z.array(id).min(1).max(8) });

export const deliveryModes = ["all", "mentions", "none"] as const;
export type DeliveryMode = (typeof deliveryModes)[number];

/** The client has handled everything in the room up to `seq`: the server's delivered cursor moves. */
export const deliveryAckInput = z.strictObject({ roomId: id, seq });
export const receiptInput = z.strictObject({
  messageId: id,
  state: z.enum(["processing", "processed", "failed"]),
  reason: z.string().max(500).optional(),
});
export const setDeliveryModeInput = z.strictObject({ roomId: id, mode: z.enum(deliveryModes) });

/** A handle is at most this long (and at least 2). */
export const HANDLE_MAX = 39;
/** A handle, as an HTML `pattern` attribute takes it (the browser anchors it): forms check what the server will. */
export const HANDLE_PATTERN = `[a-z0-9][a-z0-9_\\-]{1,${HANDLE_MAX - 1}}`;
export const HANDLE_RULE = "2-39 lower-case letters, digits, - and _";
export const handleSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(new RegExp(`^${HANDLE_PATTERN}$`), HANDLE_RULE);

/** An HTTP header's name (a credential a remote agent wants in a header of its own), as a `pattern` too. */
export const HEADER_NAME_PATTERN = "[A-Za-z0-9\\-]{1,60}";

/** A participant's display name (a person's or an agent's), and an agent's description, at most. */
export const DISPLAY_NAME_MAX = 80;
export const DESCRIPTION_MAX = 500;

export const agentProfileInput = z.strictObject({
  handle: handleSchema,
  displayName: z.string().trim().min(1).max(DISPLAY_NAME_MAX),
  description: z.string().trim().max(DESCRIPTION_MAX).default(""),
  framework: z.string().trim().min(1).max(40).default("script"),
  capabilities: z.array(z.string().trim().min(1).max(40)).max(32).default([]),
});
/** POST /api/v1/agents/register: a script onboards an agent with a person's onboarding token. */
export const registerAgentInput = agentProfileInput.extend({ onboardingToken: z.string().min(1).max(200) });

/** A package the server hands out (GET /install): its tarball's versioned path on the server, version and digest. */
export interface ServedPackage {
  /** The path of the tarball under a name that changes with its content (`/install/switchboard-cli-0.1.0-<hash>.tgz`). */
  path: string;
  version: string;
  sha256: string;
}

/** The Python package: `path` is what `pip install <server><path>` takes (a source distribution that builds the wheel). */
export interface ServedPythonPackage extends ServedPackage {
  /** The wheel under its own file name (pip takes a wheel only by that name), when built. */
  wheel: string | null;
}

/** What GET /install lists (null: not built on this server; `npm run build` builds them). */
export interface ServedPackages {
  cli: ServedPackage | null;
  sdk: ServedPackage | null;
  python: ServedPythonPackage | null;
}

/** A room named for people: its id and its name (`general` for #general). */
export interface RoomRef {
  id: string;
  name: string;
}

/** What registering an agent answers: its key (shown this once), the agent, and the room it landed in. */
export interface RegisteredAgent {
  apiKey: string;
  agent: AgentView;
  workspaceId: string;
  /** The room the token named (else #general) that the agent was added to; null if it could be added to none. */
  room: RoomRef | null;
}

export const consentPolicies = ["ask", "own", "workspace", "refuse"] as const;
export type ConsentPolicy = (typeof consentPolicies)[number];

export const findParticipantsInput = z.strictObject({
  text: z.string().trim().max(100).optional(),
  capability: z.string().trim().max(40).optional(),
  kind: z.enum(["human", "agent"]).optional(),
  ownerId: id.optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
/** What a connection request says to whoever decides it, at most. */
export const CONNECTION_MESSAGE_MAX = 500;
export const requestConnectionInput = z.strictObject({
  participantId: id,
  message: z.string().trim().max(CONNECTION_MESSAGE_MAX).default(""),
  scope: z.strictObject({ roomIds: z.array(id).max(50).optional(), purposes: z.array(z.string().trim().min(1).max(80)).max(10).optional() }).optional(),
  expiresInDays: z.number().int().min(1).max(365).optional(),
});
export const respondToConnectionInput = z.strictObject({ connectionId: id, decision: z.enum(["accept", "decline"]) });
export const connectionIdInput = z.strictObject({ connectionId: id });
export const blockInput = z.strictObject({ participantId: id, onBehalfOf: id.optional() });
export const connectionListStatuses = ["pending", "accepted", "history", "all"] as const;
export type ConnectionListStatus = (typeof connectionListStatuses)[number];
/** Newest change first; pass the previous page's `nextCursor` as `cursor` for the next (older) page. */
export const listConnectionsInput = z.strictObject({
  status: z.enum(connectionListStatuses).default("all"),
  cursor: z.string().min(1).max(200).nullish(),
  limit: z.number().int().min(1).max(200).default(50),
});
export const createRoomInput = createChannelInput;
export const workStatusInput = z.strictObject({ workStatus: z.string().trim().max(200) });

const tokens = z.number().int().min(0).max(1_000_000_000);

/** One model call an agent made, reported for attribution and cost. `reportId` makes it idempotent. */
export const usageReportInput = z.strictObject({
  reportId: z.string().min(1).max(128),
  model: z.string().trim().min(1).max(100),
  inputTokens: tokens,
  outputTokens: tokens,
  cachedTokens: tokens.default(0),
  /** Dollars; when absent the server prices the call from the workspace's price table. */
  costUsd: z.number().min(0).max(1_000_000).optional(),
  roomId: id.optional(),
  /** The message this call served, or produced (then the message carries the usage). */
  messageId: id.optional(),
  taskId: z.string().trim().min(1).max(128).optional(),
  occurredAt: z.iso.datetime().optional(),
});

/** A model call to report (`usage:report`); the SDK makes a `reportId` when none is given. */
export type UsageReport = Omit<z.input<typeof usageReportInput>, "reportId"> & { reportId?: string };

/** A room named by its id, or a channel by `#name` (bridges and the CLI take either). */
export const roomRef = z.string().trim().min(1).max(81);
/** A participant named by its id, or by `@handle`. */
export const participantRef = z.string().trim().min(1).max(64);

/** An email address (RFC 5321's bound) and a password, at most, wherever a person signs up or in. */
export const EMAIL_MAX = 254;
export const PASSWORD_MAX = 200;

/**
 * A person's access token: `read` reads (and moves the person's own cursors), `write` does whatever
 * the person may. `expiresInDays` absent or null: it works until it is revoked.
 */
export const accessTokenScopes = ["read", "write"] as const;
export type AccessTokenScope = (typeof accessTokenScopes)[number];
export const ACCESS_TOKEN_NAME_MAX = 80;
export const createAccessTokenInput = z.strictObject({
  name: z.string().trim().min(1).max(ACCESS_TOKEN_NAME_MAX),
  scope: z.enum(accessTokenScopes),
  expiresInDays: z.number().int().min(1).max(365).nullish(),
});
/** POST /api/v1/tokens: a script (the CLI's `switchboard login`) trades a person's email and password for a token. */
export const passwordTokenInput = createAccessTokenInput.extend({
  email: z.string().trim().email().max(EMAIL_MAX),
  password: z.string().min(1).max(PASSWORD_MAX),
  /** Which of the person's workspaces the token acts in, by id or name (any case); absent: the first they joined. */
  workspace: z.string().trim().min(1).max(80).optional(),
});
export const accessTokenIdInput = z.strictObject({ tokenId: id });

/**
 * What a person is notified of (email digests, browser notifications): `mentions` (the default) what
 * mentions them and questions put to them; `all` that and every message in their dms and groups;
 * `none` nothing.
 */
export const notificationPreferences = ["all", "mentions", "none"] as const;
export type NotificationPreference = (typeof notificationPreferences)[number];
export const setNotificationPreferenceInput = z.strictObject({ notifications: z.enum(notificationPreferences) });

/**
 * What a read-only credential (a person's `read` access token) may send over the socket: events that
 * read, and the reader's own cursors. Every other event is refused with INSUFFICIENT_SCOPE.
 * `tool:call` is let through because its tool decides: a tool that writes is refused the same way.
 */
export const READ_ONLY_EVENTS = [
  "room:sync",
  "search:messages",
  "file:get",
  "room:list",
  "room:browse",
  "directory:search",
  "connection:list",
  "tool:call",
  "room:read",
  "room:unread",
  "room:pins",
  "delivery:ack",
  "question:get",
  "question:list",
  "binding:get",
  "binding:list",
] as const satisfies readonly (keyof ClientToServerEvents)[];

export type SendMessageInput = z.input<typeof sendMessageInput>;
export type CreateAccessTokenInput = z.input<typeof createAccessTokenInput>;
export type AgentProfileInput = z.input<typeof agentProfileInput>;
export type SyncInput = z.input<typeof syncInput>;

// ---- what the server presents ----

export type ParticipantKind = "human" | "agent";
export type RoomKind = "channel" | "dm" | "group";

export interface ParticipantView {
  id: string;
  kind: ParticipantKind;
  handle: string;
  displayName: string;
  status: "active" | "suspended";
  description: string;
  framework: string | null;
  capabilities: string[];
  ownerId: string | null;
  /** The status beside the name (sdk/profiles.ts): empty, and `statusUntil` null, when none is set or it ran out. */
  statusEmoji: string;
  statusText: string;
  /** When it clears by itself; null: until changed. */
  statusUntil: string | null;
  /** The avatar image (GET it with the same credentials), or null: initials. */
  avatarUrl: string | null;
}

export interface DirectoryEntry extends ParticipantView {
  owner: { id: string; displayName: string; handle: string } | null;
  /** Set for someone of another, connected workspace (its side lets yours find them); null: your own workspace. */
  workspace: OtherWorkspace | null;
  online: boolean;
  workStatus: string;
  /** While it waits for an answer to a question it asked: whom ("@dana", "anyone in #deploys", "admins"). */
  waitingFor: string | null;
  /** The viewer's standing with this participant. */
  connection: "self" | "connected" | "pending" | "blocked" | "none";
}

export type ConnectionStatus = "pending" | "accepted" | "declined" | "cancelled" | "revoked" | "blocked";

/**
 * Another workspace of the deployment, connected with the viewer's (sdk/workspace-connections.ts):
 * its name, and its domain once verified. Shown beside the name of someone who belongs to it.
 */
export interface OtherWorkspace {
  id: string;
  name: string;
  verifiedDomain: string | null;
}

/** A side of a connection; `workspace` is set when it belongs to another workspace than the viewer's. */
export type ConnectionSide = ParticipantView & { owner: { id: string; displayName: string } | null; workspace: OtherWorkspace | null };

export interface ConnectionView {
  id: string;
  status: ConnectionStatus;
  requester: ConnectionSide;
  addressee: ConnectionSide;
  message: string;
  scope: { roomIds?: string[]; purposes?: string[] } | null;
  expiresAt: string | null;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: { id: string; displayName: string } | null;
  /** Cancelled or revoked: when, and by whom (a side or a side's owner; null when the server ended it). */
  endedAt: string | null;
  endedBy: string | null;
  /**
   * What the viewer (the caller, or the participant an event is sent to) may do with it now. For a
   * block the requester is the blocker: only it (its owner, or an admin) may `unblock`.
   */
  can: { accept: boolean; decline: boolean; cancel: boolean; revoke: boolean; unblock: boolean };
  /** The sides the viewer speaks for: itself, or an agent it owns. */
  viewerSides: { requester: boolean; addressee: boolean };
}

export interface ConnectionPage {
  connections: ConnectionView[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

export interface UsageView {
  id: string;
  reportId: string;
  agentId: string;
  ownerId: string | null;
  /** The person who drove the call: the author of the message it served, followed back through agents. */
  requesterId: string | null;
  roomId: string | null;
  messageId: string | null;
  taskId: string | null;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  costUsd: number;
  costSource: "reported" | "priced" | "unpriced";
  occurredAt: string;
}

export interface BudgetView {
  id: string;
  subjectType: "agent" | "person";
  subjectId: string;
  period: "day" | "month";
  unit: "usd" | "tokens";
  amount: number;
  spent: number;
  state: "ok" | "warned" | "exceeded";
}

export interface ApiKeyView {
  id: string;
  prefix: string;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A person's access token as its owner sees it (the token itself is shown once, when it is created). */
export interface AccessTokenView {
  id: string;
  name: string;
  scope: AccessTokenScope;
  /** `sbp_<prefix>`: how the token starts, to tell it apart from the person's others. */
  prefix: string;
  state: "active" | "expired" | "revoked";
  createdAt: string;
  lastUsedAt: string | null;
  /** null: until revoked. */
  expiresAt: string | null;
  revokedAt: string | null;
  /** What the viewer may do with it now. */
  can: { revoke: boolean };
}

export interface AgentView extends ParticipantView {
  consentPolicy: ConsentPolicy;
  /** Served over A2A at `/a2a/<handle>` (its card at `/a2a/<handle>/.well-known/agent-card.json`). */
  a2aServed: boolean;
  owner: { id: string; displayName: string; handle: string } | null;
  keys: ApiKeyView[];
  lastSeenAt: string | null;
}

export interface ReceiptView {
  participantId: string;
  state: "processing" | "processed" | "failed";
  reason: string | null;
  at: string;
}

export interface MessageView {
  id: string;
  roomId: string;
  seq: number;
  /** `question`: a question to people; its `data` is `{ type: "question", question: QuestionView }`. */
  kind: "text" | "event" | "system" | "question";
  author: { id: string; handle: string; displayName: string; kind: ParticipantKind };
  body: string;
  clientMsgId: string;
  threadRootId: string | null;
  replyCount: number;
  lastReplyAt: string | null;
  mentions: string[];
  data: unknown;
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
  /** What each agent recipient did with it (empty for most messages). */
  receipts: ReceiptView[];
  /** Files attached to it (sdk/files.ts); none once it is deleted. */
  files: FileView[];
  /** Emoji reactions, in the order each emoji was first used (sdk/reactions.ts). */
  reactions: ReactionView[];
  /** Pinned to the room's header: when and by whom; null when not pinned. */
  pinned: PinView | null;
}

/**
 * Why a participant the message names with @handle will not get it now: not in the room, a suspended
 * agent, not reachable without their consent, or an agent with no connection open (it is handed the
 * message when it next connects, as its delivery mode selects).
 */
export type UnreachedReason = "not_a_member" | "suspended" | "no_consent" | "offline";
export interface UnreachedMention {
  participantId: string;
  handle: string;
  reason: UnreachedReason;
}

/** A sent message as its author's send is answered: with the mentions that will not reach anyone now. */
export interface SentMessageView extends MessageView {
  /** Present only when some @handle in the body names someone who will not get it now. */
  unreached?: UnreachedMention[];
}

const UNREACHED_REASONS: Record<UnreachedReason, string> = {
  not_a_member: "not in this room",
  suspended: "suspended",
  no_consent: "needs your connection first",
  offline: "not connected: it gets this when it connects",
};

/** What people are told of unreached mentions: "@ana (not in this room), @scout (suspended)". */
export function describeUnreached(unreached: UnreachedMention[]): string {
  return unreached.map((u) => `@${u.handle} (${UNREACHED_REASONS[u.reason]})`).join(", ");
}

/**
 * What counts as unread for a viewer: someone else's top-level text message that is not deleted.
 * The server counts unread messages with it (`rooms.mine`); a client moving counts live with events
 * applies `countsAsUnread`, the same test.
 */
export const UNREAD = { kind: "text", threadRootId: null, deletedAt: null } as const;

export function countsAsUnread(m: Pick<MessageView, "kind" | "threadRootId" | "deletedAt" | "author">, viewerId: string): boolean {
  return m.kind === UNREAD.kind && m.threadRootId === UNREAD.threadRootId && m.deletedAt === UNREAD.deletedAt && m.author.id !== viewerId;
}

/**
 * Something that happened to the viewer's own budget, agents or connection requests in the last two
 * weeks, newest first, as the Inbox lists it (tRPC `notifications.alerts`); the same news reaches an
 * open page live, as a toast.
 */
export interface AlertView {
  id: string;
  kind: "budget.warned" | "budget.exceeded" | "agent.suspended" | "connection.accepted" | "connection.declined";
  at: string;
  /** A sentence: "@scout reached 80% of its daily budget ($0.90 of $1.00)". */
  text: string;
  /** The page that shows more: /usage, /agents or /inbox. */
  href: string;
}

/** The signed-in person's notification settings. */
export interface NotificationSettingsView {
  notifications: NotificationPreference;
  /** The server mails digests (SMTP is configured); else only the browser notifies. */
  email: boolean;
}

/**
 * Whether a new message notifies a person, and why: one rule for the server's email outbox and the
 * browser's notifications. Never one's own message; a mention under `mentions` or `all`; under `all`
 * also every message in their dm or group.
 */
export function notificationFor(
  m: Pick<MessageView, "kind" | "author" | "mentions">,
  person: { id: string; notifications: NotificationPreference },
  roomKind: RoomKind,
): "mention" | "message" | null {
  if (m.kind !== "text" || m.author.id === person.id || person.notifications === "none") return null;
  if (m.mentions.includes(person.id)) return "mention";
  return person.notifications === "all" && roomKind !== "channel" ? "message" : null;
}

/** A message body as one short line, for an email digest or a browser notification. */
export function excerptOf(body: string, chars = 200): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > chars ? `${line.slice(0, chars - 1)}…` : line;
}

export interface RoomView {
  id: string;
  kind: RoomKind;
  visibility: "public" | "private";
  name: string | null;
  /** What the viewer sees as the room's title: #name, or the other members' names. */
  title: string;
  topic: string;
  lastSeq: number;
  memberCount: number;
  /** Archived: read-only, out of the sidebar, listed in Browse channels; null while in use. */
  archivedAt: string | null;
  /**
   * A channel shared between workspaces (sdk/workspace-connections.ts): the workspace it belongs to, and
   * those it is shared with now. Null for a room of one workspace.
   */
  shared: { home: { id: string; name: string }; with: { id: string; name: string }[] } | null;
}

/** What the viewer may do in a room (tRPC `rooms.get`), decided by the server's policies. */
export interface RoomCan {
  post: boolean;
  join: boolean;
  invite: boolean;
  leave: boolean;
  /** Edit or delete their own text messages. */
  editOwn: boolean;
  deleteOwn: boolean;
  /** Delete other participants' text messages (owners and admins moderate). */
  deleteOthers: boolean;
  /** React to messages, pin them to the room's header, and mark the room unread from one (sdk/reactions.ts). */
  react: boolean;
  pin: boolean;
  markUnread: boolean;
  /** Rename the channel, set its topic, archive or unarchive it (`room:update`): its owner, and workspace admins. */
  update: boolean;
}

/** A public channel as `room:browse` lists it: whether the viewer is in it, and how many are. */
export interface ChannelView {
  id: string;
  name: string;
  topic: string;
  memberCount: number;
  joined: boolean;
  /** Archived: read-only; it may be opened and read, not joined. */
  archived: boolean;
  /** A channel of another, connected workspace shared with yours: that workspace; null for your own. */
  sharedFrom: { id: string; name: string } | null;
}

/** A room as one member sees its delivery: mode and server-side cursors. */
export interface MembershipView {
  room: RoomView;
  deliveryMode: DeliveryMode;
  deliveredSeq: number;
  readSeq: number;
  processedSeq: number;
  /** Present while a person paused this agent in the room: it is handed none of the room's messages until resumed. */
  pausedAt?: string;
}

export interface RoomMemberView {
  participant: ParticipantView;
  role: "owner" | "member";
  online: boolean;
  /** While it waits for an answer to a question it asked: whom (as in DirectoryEntry). */
  waitingFor: string | null;
}

// ---- events ----

export interface ErrorShape {
  code: string;
  message: string;
  retryable: boolean;
  retryAfterMs?: number;
  /** APPROVAL_REQUIRED: the question that asks the agent's owner (wait for it, then try again). */
  questionId?: string;
}

export type Ack<T> = { ok: true; data: T } | { ok: false; error: ErrorShape };

export interface ServerToClientEvents {
  "session:ready": (p: { protocol: number; features: Feature[]; participant: ParticipantView; workspaceId: string; rooms: MembershipView[] }) => void;
  /** After session:ready, what the member missed since its delivered cursor, one page at a time. Ack each page. */
  /** Ack `{ ok: true }` once the page is handled; `{ ok: false }` (closing midway) leaves the cursor where it was. */
  "room:replay": (p: ReplayPage, ack: (r: { ok: boolean }) => void) => void;
  "message:receipt": (p: { roomId: string; seq: number; messageId: string; receipt: ReceiptView & { participantId: string } }) => void;
  /** A connection request that you (or an agent you own) may decide. */
  "connection:request": (p: { connection: ConnectionView }) => void;
  /** A connection you are part of (or an agent you own is) changed state. */
  "connection:updated": (p: { connection: ConnectionView }) => void;
  "message:new": (p: { roomId: string; seq: number; message: MessageView }) => void;
  /**
   * With the `message:batch` feature: new messages of one room committed together, in seq order with
   * consecutive seqs; `seq` is the last one's. Stands for one `message:new` per message.
   */
  "message:batch": (p: { roomId: string; seq: number; messages: MessageView[] }) => void;
  "message:updated": (p: { roomId: string; seq: number; message: MessageView }) => void;
  /** A message's reactions changed: all of them, as they now stand (`seq` is the message's own). */
  "message:reactions": (p: ReactionsChange) => void;
  /** A message was pinned or unpinned (`message.pinned`); `seq` is the message's own. */
  "message:pinned": (p: { roomId: string; seq: number; message: MessageView }) => void;
  /** To your own sockets: you marked a room unread from a message; your read cursor is now `readSeq`. */
  "room:unread": (p: { roomId: string; readSeq: number }) => void;
  "room:added": (p: { room: RoomView }) => void;
  "room:removed": (p: { roomId: string }) => void;
  /** A room you are in was renamed, given a topic, archived or unarchived (its system message comes as `message:new`). */
  "room:updated": (p: { room: RoomView }) => void;
  "room:members": (p: { roomId: string; seq: number; joined: string[]; left: string[] }) => void;
  "room:typing": (p: { roomId: string; threadRootId: string | null; participantId: string }) => void;
  "presence:update": (p: { participantId: string; online: boolean }) => void;
  /** A participant's profile or status changed (e.g. an agent was suspended or resumed). */
  "participant:updated": (p: { participant: ParticipantView }) => void;
  /** Usage you may see was recorded (your agents', or any for admins): dashboards update live. */
  "usage:recorded": (p: { usage: UsageView }) => void;
  /** A budget crossed 80% (warned) or 100% (exceeded), or was reset. */
  "budget:updated": (p: { budget: BudgetView; transition: "warned" | "exceeded" | "ok" }) => void;
  /**
   * A question was asked, answered, expired or cancelled: to the people it is for (`forYou`; a room's
   * question reaches the asker's sockets in the room too, with `forYou`: compare `asker.id`), and to
   * its asker and the asker's owner. Volatile, like presence: the state is also on the question's
   * message (`message:updated`) and in `question:get`.
   */
  "question:updated": (p: { question: QuestionView; forYou: boolean }) => void;
  /**
   * A runtime binding was made, used, or closed: to the room's sockets, and to the agent's and its
   * owner's. An agent whose binding was closed starts a new session on its next turn there.
   */
  "binding:updated": (p: { binding: BindingView }) => void;
  /** A participant's work status changed, or ran out (to the whole workspace, like presence). */
  "status:updated": (p: { status: WorkStatusView }) => void;
  /** An agent reported tasks, files or links: what changed, as stored, to those who may read it (a board applies it). */
  "work:changed": (p: WorkChange) => void;
  /**
   * A turn in a room you follow started, reported steps, was asked to stop or ended: the turn as it
   * stands, and the steps that changed (new, or updated by key). Not a message: agents may ignore it.
   */
  "turn:activity": (p: { turn: TurnView; steps: TurnStepView[] }) => void;
  /**
   * An agent was paused in a room (`paused`), or resumed (`paused: null`): to the room, the agent and
   * its owner. Paused, it is handed none of the room's messages; resumed, it is handed what waited.
   */
  "agent:paused": (p: { roomId: string; agentId: string; paused: PauseView | null }) => void;
  /**
   * To the owners and admins of both sides: a workspace connection, or a channel shared across it,
   * changed (the Connections tab reads them again with `workspaceConnections.list` and `.shares`).
   */
  "workspace:connections": (p: { connectionId: string; change: WorkspaceConnectionChange }) => void;
  /** To a person's browser, whichever workspace it shows: they were mentioned in `workspaceId` (the rail counts it again). */
  "workspace:activity": (p: { workspaceId: string }) => void;
  /** To an agent: a person stopped its turn on `messageId`; end it (`turn:end` with state "stopped"). */
  "turn:interrupt": (p: { turnId: string; roomId: string; messageId: string; by: { id: string; handle: string } }) => void;
  error: (p: ErrorShape & { event?: string }) => void;
}

/** What changed of a workspace connection (`workspace:connections`). */
export type WorkspaceConnectionChange = "accepted" | "side_changed" | "revoked" | "disconnected" | "room_shared" | "share_decided" | "share_ended";

export interface ReplayPage {
  roomId: string;
  /** The selected messages, in seq order. */
  messages: MessageView[];
  /** The page covers the room up to this seq (messages the delivery mode skips included). */
  throughSeq: number;
  hasMore: boolean;
}

/** A message search's answer (`search:messages`, tRPC `search.messages`; the query: sdk/search.ts). */
export interface SearchHit {
  message: MessageView;
  /** The room as the searcher sees it: a channel's name, a conversation's people as its title. */
  room: { id: string; name: string | null; title: string; kind: "channel" | "dm" | "group" };
  /** Where the words matched in the message's body: [start, end) character offsets, in order. */
  highlights: [number, number][];
}

export interface SearchResult {
  hits: SearchHit[];
  /** Pass as `cursor` for the next page; null when there is none. */
  nextCursor: string | null;
}

/** `tool:call`: a platform tool by name (`ToolName` in sdk/platform-tools.ts, which checks it) and its arguments. */
export interface ToolCall {
  name: string;
  args?: Record<string, unknown>;
}

export interface ClientToServerEvents {
  "message:send": (p: SendMessageInput, ack: (r: Ack<SentMessageView>) => void) => void;
  "message:edit": (p: z.input<typeof editMessageInput>, ack: (r: Ack<MessageView>) => void) => void;
  "message:delete": (p: z.input<typeof deleteMessageInput>, ack: (r: Ack<MessageView>) => void) => void;
  "room:sync": (p: SyncInput, ack: (r: Ack<{ messages: MessageView[]; hasMore: boolean; lastSeq: number }>) => void) => void;
  /** Messages you may read that match a query (sdk/search.ts): best first, or newest. */
  "search:messages": (p: SearchMessagesInput, ack: (r: Ack<SearchResult>) => void) => void;
  /** Uploads a small file (base64, sdk/files.ts) into a room; attach it with `fileIds` on `message:send`. */
  "file:upload": (p: UploadFileInput, ack: (r: Ack<FileView>) => void) => void;
  /** A file you may read, with its bytes as base64 (at most SOCKET_UPLOAD_MAX_BYTES; larger ones: GET its `url`). */
  "file:get": (p: z.input<typeof fileIdInput>, ack: (r: Ack<FileView & { contentBase64: string | null }>) => void) => void;
  "room:read": (p: z.input<typeof markReadInput>, ack?: (r: Ack<{ readSeq: number }>) => void) => void;
  /** Marks the room unread from a message: your read cursor moves back to just before it. */
  "room:unread": (p: z.input<typeof markUnreadInput>, ack?: (r: Ack<{ roomId: string; readSeq: number }>) => void) => void;
  /** Adds (`on`, the default) or removes your emoji reaction on a message (sdk/reactions.ts). */
  "message:react": (p: ReactInput, ack?: (r: Ack<ReactionsChange>) => void) => void;
  /** Pins (`pinned`, the default) or unpins a message in its room's header. */
  "message:pin": (p: z.input<typeof pinInput>, ack?: (r: Ack<MessageView>) => void) => void;
  /** A room's pinned messages, the latest pinned first. */
  "room:pins": (p: z.input<typeof pinnedInput>, ack: (r: Ack<MessageView[]>) => void) => void;
  "room:typing": (p: z.input<typeof typingInput>) => void;
  "room:list": (p: Record<string, never>, ack: (r: Ack<MembershipView[]>) => void) => void;
  /** The workspace's public channels, joined or not (guests join by invitation only). */
  "room:browse": (p: Record<string, never>, ack: (r: Ack<ChannelView[]>) => void) => void;
  "room:mode": (p: z.input<typeof setDeliveryModeInput>, ack: (r: Ack<MembershipView>) => void) => void;
  /** Joins a public channel, by id or as `#name` (joining a room you are in changes nothing). */
  "room:join": (p: z.input<typeof roomIdInput>, ack: (r: Ack<RoomView>) => void) => void;
  /** Leaves a channel or group (not a dm). */
  "room:leave": (p: z.input<typeof roomIdInput>, ack: (r: Ack<{ roomId: string }>) => void) => void;
  "delivery:ack": (p: z.input<typeof deliveryAckInput>, ack?: (r: Ack<{ deliveredSeq: number }>) => void) => void;
  "message:receipt": (p: z.input<typeof receiptInput>, ack?: (r: Ack<ReceiptView>) => void) => void;
  "directory:search": (p: z.input<typeof findParticipantsInput>, ack: (r: Ack<DirectoryEntry[]>) => void) => void;
  "connection:request": (p: z.input<typeof requestConnectionInput>, ack: (r: Ack<ConnectionView>) => void) => void;
  "connection:respond": (p: z.input<typeof respondToConnectionInput>, ack: (r: Ack<ConnectionView>) => void) => void;
  "connection:cancel": (p: z.input<typeof connectionIdInput>, ack: (r: Ack<ConnectionView>) => void) => void;
  "connection:revoke": (p: z.input<typeof connectionIdInput>, ack: (r: Ack<ConnectionView>) => void) => void;
  "connection:block": (p: z.input<typeof blockInput>, ack: (r: Ack<ConnectionView>) => void) => void;
  "connection:list": (p: z.input<typeof listConnectionsInput>, ack: (r: Ack<ConnectionPage>) => void) => void;
  "room:create": (p: z.input<typeof createRoomInput>, ack: (r: Ack<RoomView>) => void) => void;
  "room:invite": (p: z.input<typeof inviteToRoomInput>, ack: (r: Ack<RoomView>) => void) => void;
  "room:dm": (p: z.input<typeof openDirectInput>, ack: (r: Ack<RoomView>) => void) => void;
  "me:status": (p: z.input<typeof workStatusInput>, ack?: (r: Ack<{ workStatus: string }>) => void) => void;
  /** Your profile status, beside your name (not the work status): emoji, text, until when. */
  "me:profile": (p: SetProfileStatusInput, ack?: (r: Ack<ParticipantView>) => void) => void;
  /** Renames a channel, sets its topic, archives or unarchives it (its owner, workspace admins). */
  "room:update": (p: z.input<typeof updateRoomInput>, ack: (r: Ack<RoomView>) => void) => void;
  "usage:report": (p: z.input<typeof usageReportInput>, ack: (r: Ack<UsageView>) => void) => void;
  /** Runs a platform tool (the MCP server's, sdk/platform-tools.ts) as you; `data` is its compact JSON result. */
  "tool:call": (p: ToolCall, ack: (r: Ack<Record<string, unknown>>) => void) => void;
  /** Asks people a question (a message of kind `question`); idempotent by `clientMsgId`. */
  "question:ask": (p: AskQuestionInput, ack: (r: Ack<QuestionForViewer>) => void) => void;
  "question:answer": (p: z.input<typeof answerQuestionInput>, ack: (r: Ack<QuestionForViewer>) => void) => void;
  "question:get": (p: z.input<typeof questionIdInput>, ack: (r: Ack<QuestionForViewer>) => void) => void;
  "question:cancel": (p: z.input<typeof questionIdInput>, ack: (r: Ack<QuestionForViewer>) => void) => void;
  "question:list": (p: z.input<typeof listQuestionsInput>, ack: (r: Ack<QuestionForViewer[]>) => void) => void;
  /** Takes the agent's binding for (room, thread, runtime) for one turn, making it on first use (docs/protocol.md, "Runtime bindings"). */
  "binding:claim": (p: z.input<typeof claimBindingInput>, ack: (r: Ack<BindingView>) => void) => void;
  /** Records what the turn holding the binding did (session id, resumed, last seq, status, release). */
  "binding:update": (p: z.input<typeof updateBindingInput>, ack: (r: Ack<BindingView>) => void) => void;
  "binding:get": (p: z.input<typeof bindingKeyInput>, ack: (r: Ack<BindingView | null>) => void) => void;
  "binding:list": (p: z.input<typeof listBindingsInput>, ack: (r: Ack<BindingView[]>) => void) => void;
  "binding:close": (p: z.input<typeof bindingIdInput>, ack: (r: Ack<BindingView>) => void) => void;
  /** Your work status: idle, working, waiting (for whom) or blocked; send it again within `ttlSec` to keep it. */
  "work:status": (p: z.input<typeof setWorkStatusInput>, ack?: (r: Ack<WorkStatusView>) => void) => void;
  /** Your tasks for a session (the whole list, unless `complete: false`). */
  "work:tasks": (p: z.input<typeof reportTasksInput>, ack?: (r: Ack<{ tasks: TaskView[]; dropped: number }>) => void) => void;
  /** Files you read, edited, created or deleted, or commands you ran. */
  "work:files": (p: z.input<typeof reportFilesInput>, ack?: (r: Ack<{ files: FileTouchView[] }>) => void) => void;
  /** A branch, commit or pull request your work produced. */
  "work:link": (p: z.input<typeof linkWorkInput>, ack?: (r: Ack<WorkLinkView>) => void) => void;
  /** Opens your turn on a message you answer (again, after a crash: the same turn, running). */
  "turn:start": (p: z.input<typeof startTurnInput>, ack: (r: Ack<TurnView>) => void) => void;
  /** Your turn's steps as they happen (new by key, or updates), and its tokens so far. */
  "turn:steps": (p: z.input<typeof turnStepsInput>, ack?: (r: Ack<TurnView>) => void) => void;
  /** Ends your turn: done, failed or stopped. */
  "turn:end": (p: z.input<typeof endTurnInput>, ack?: (r: Ack<TurnView>) => void) => void;
}
