// What the message store reads and writes for the send path and replay: the facts a batch of sends is
// decided on, what a batch stores, and the rows a page of messages is built from. One interface; its
// statements are written once (statements.ts) and run on each database by sqlite.ts and postgres.ts; the
// integration test message-store.test.ts holds both to the same contract.
import type { DeliveryMode, MessageKind, ParticipantKind, ParticipantStatus, ReceiptState, RoomKind, RoomRole, RoomVisibility } from "../../db";
import type { WorkspaceLimits } from "../../presenters/limits";
import type { FileRow } from "../../presenters/file";

export type Dialect = "sqlite" | "postgresql";

/** One send's identity: a retry repeats it. */
export interface SendKey {
  authorId: string;
  clientMsgId: string;
}

/** The room as a batch's sends are decided against. */
export interface RoomFacts {
  id: string;
  workspaceId: string;
  kind: RoomKind;
  visibility: RoomVisibility;
  /** The room's version: every change a send depends on appends a message (membership) or is checked again when storing. */
  lastSeq: number;
  agentsPausedAt: Date | null;
  archivedAt: Date | null;
}

/** The workspace's default limits (agents and people may have their own; see governance/limits.ts). */
export type { WorkspaceLimits };

/** A member of the room as a send needs it: its membership and its participant's row. */
export interface MemberFacts {
  participantId: string;
  role: RoomRole;
  deliveryMode: DeliveryMode;
  participant: {
    id: string;
    handle: string;
    displayName: string;
    kind: ParticipantKind;
    status: ParticipantStatus;
    messagesPerMinute: number | null;
    burst: number | null;
    rateLimitExempt: boolean;
  };
}

/** What a batch of sends depends on. `room` (and `workspace`) are null when there is no such room. */
export interface BatchFacts {
  room: RoomFacts | null;
  workspace: WorkspaceLimits | null;
  /** The authors' memberships, and every agent of the room in `mentions` mode not paused there (the fan-out's listeners). */
  members: MemberFacts[];
  /** Ids of messages already stored under the batch's sends (retries). */
  storedIds: string[];
  /** Of the participants the sends mention, those that are members of the room (a mention is stored only for them). */
  mentionable: string[];
}

export interface NewMessage {
  id: string;
  roomId: string;
  seq: number;
  authorId: string;
  kind: MessageKind;
  body: string;
  clientMsgId: string;
  threadRootId: string | null;
  /** The person the message serves (services/messaging/requesters.ts). */
  requesterId: string | null;
  /** An agent's message: the message it answers (services/messaging/requesters.ts). */
  causeId: string | null;
  data?: object;
  createdAt: Date;
}

export interface NewMention {
  messageId: string;
  participantId: string;
  roomId: string;
  seq: number;
}

/** What a batch stores, with what must still hold for it to be stored (the room's `lastSeq`, its agents active). */
export interface BatchWrite {
  roomId: string;
  /** The room's `lastSeq` the batch was decided at; the messages take the seqs after it. */
  afterSeq: number;
  messages: NewMessage[];
  mentions: NewMention[];
  /** Thread roots and how many replies this batch adds to each. */
  replies: Map<string, number>;
  /** The room's new `agentsPausedAt`, or undefined to leave it. */
  agentsPausedAt?: Date | null;
  /** The agent authors the batch took as active: each must still be. */
  agents: string[];
  /** Uploads the messages attach (services/files): each must still be on no message and not deleted. */
  attachments?: NewAttachment[];
  at: Date;
}

/** A stored file a new message carries. */
export interface NewAttachment {
  fileId: string;
  messageId: string;
}

/** A stored message's own columns, as a page of messages reads them. */
export interface MessageRow extends Omit<NewMessage, "data" | "requesterId" | "causeId"> {
  replyCount: number;
  lastReplyAt: Date | null;
  data: unknown;
  editedAt: Date | null;
  deletedAt: Date | null;
  pinnedAt: Date | null;
  pinnedById: string | null;
}

/** A page of messages and the rows presenting them needs. */
export interface MessagePage {
  messages: MessageRow[];
  authors: { id: string; handle: string; displayName: string; kind: ParticipantKind }[];
  mentions: { messageId: string; participantId: string }[];
  receipts: { messageId: string; participantId: string; state: ReceiptState; reason: string | null; updatedAt: Date }[];
  /** The messages' reactions, oldest first. */
  reactions: { messageId: string; participantId: string; emoji: string }[];
  /** The messages' files (not deleted), oldest first. */
  files: (FileRow & { messageId: string })[];
}

/** Reads a batch is decided on; outside a transaction they may be a moment stale (the write checks). */
export interface FactsReader {
  /** Everything in `BatchFacts`, in one read; `mentioned`: the participants the sends mention. */
  batchFacts(roomId: string, sends: SendKey[], mentioned: string[]): Promise<BatchFacts>;
  /** When the agents' text messages since the room's last text by a person were written: those since `since`, the latest `limit`, oldest first. */
  agentRun(roomId: string, since: Date, limit: number): Promise<Date[]>;
}

export interface MessageStore extends FactsReader {
  readonly dialect: Dialect;
  /**
   * Stores the batch if what it was decided on still holds: the room is still at `afterSeq` and not
   * archived, and every agent in `agents` is still active (their rows are held until it commits, so a
   * suspension waits for it). Returns false, having stored nothing, when it does not.
   */
  storeIfUnchanged(write: BatchWrite): Promise<boolean>;
  /**
   * Runs `fn` in a transaction holding, in this order, the active agents among `agentIds` and then the
   * room (every path takes them in this order), and commits what it stored.
   */
  holding<T>(roomId: string, agentIds: string[], fn: (held: HeldRoom) => Promise<T>): Promise<T>;
  /** A room's messages with seq in (`afterSeq`, `throughSeq`], oldest first, at most `limit`, with their authors, mentions, receipts, reactions and files. */
  roomRange(roomId: string, afterSeq: number, throughSeq: number, limit: number): Promise<MessagePage>;
}

/** A room held by `MessageStore.holding`: reads see the latest commits, and nothing else moves the room meanwhile. */
export interface HeldRoom extends FactsReader {
  /** The agents asked for whose rows say they are active (held until commit). */
  readonly activeAgents: Set<string>;
  store(write: BatchWrite): Promise<void>;
}

/** Each author's last seq in the batch: its read cursor moves there. */
export function lastSeqOfAuthors(messages: NewMessage[]): Map<string, number> {
  return new Map(messages.map((m) => [m.authorId, m.seq]));
}

/** A row of the batch-facts read, the same in both dialects: the room and workspace on every row, plus one member or one stored retry. */
export interface FactRow
  extends
    Pick<RoomFacts, "workspaceId" | "visibility" | "lastSeq" | "agentsPausedAt" | "archivedAt">,
    WorkspaceLimits,
    Pick<MemberFacts, "role" | "deliveryMode">,
    Omit<MemberFacts["participant"], "id"> {
  roomKind: RoomKind;
  what: "member" | "stored" | "mentionable" | null;
  id: string | null;
}

/** The batch facts from the rows of their read. */
export function factsFromRows(roomId: string, rows: FactRow[]): BatchFacts {
  if (rows.length === 0) return { room: null, workspace: null, members: [], storedIds: [], mentionable: [] };
  const r = rows[0];
  const room = {
    id: roomId,
    workspaceId: r.workspaceId,
    kind: r.roomKind,
    visibility: r.visibility,
    lastSeq: r.lastSeq,
    agentsPausedAt: r.agentsPausedAt,
    archivedAt: r.archivedAt,
  };
  const workspace = {
    agentMessagesPerMinute: r.agentMessagesPerMinute,
    agentBurst: r.agentBurst,
    peopleMessagesPerMinute: r.peopleMessagesPerMinute,
    peopleBurst: r.peopleBurst,
    loopGuardMessages: r.loopGuardMessages,
    loopGuardWindowSec: r.loopGuardWindowSec,
  };
  const members: MemberFacts[] = [];
  const storedIds: string[] = [];
  const mentionable: string[] = [];
  for (const f of rows) {
    if (f.what === "stored") storedIds.push(f.id!);
    else if (f.what === "mentionable") mentionable.push(f.id!);
    else if (f.what === "member") {
      const { handle, displayName, kind, status, messagesPerMinute, burst, rateLimitExempt } = f;
      members.push({
        participantId: f.id!,
        role: f.role,
        deliveryMode: f.deliveryMode,
        participant: { id: f.id!, handle, displayName, kind, status, messagesPerMinute, burst, rateLimitExempt },
      });
    }
  }
  return { room, workspace, members, storedIds, mentionable };
}
