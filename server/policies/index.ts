// Every decision about who may do what, for people and agents alike. Services call `authorize` before
// they read or write; transports never decide. Each rule returns true, or the error the caller gets.
import { AppError, type ErrorCode } from "../errors";
import { isAdmin, isHumanAdmin, type Actor } from "./actor";

export type { Actor, WorkspaceRole } from "./actor";
export { isAdmin, isHumanAdmin } from "./actor";

interface RoomFacts {
  workspaceId: string;
  kind: string;
  visibility: string;
  archivedAt: Date | null;
  /**
   * The room is a channel shared with the actor's workspace now (a workspace connection), so its
   * people may find and join it as their own workspace's. Loaders set it for such actors only.
   */
  sharedWithActor?: boolean;
  /** In a room shared with the actor's workspace: whether the room's side lets the actor's side invite. */
  guestsMayInvite?: boolean;
}
interface MembershipFacts {
  role: string;
}
interface RoomSubject {
  room: RoomFacts;
  membership: MembershipFacts | null;
}
interface MessageSubject extends RoomSubject {
  message: { authorId: string; kind: string; deletedAt: Date | null };
}

interface Side {
  id: string;
  ownerId: string | null;
}
/** A connection's two sides; for a block, the requester is the blocker. */
interface ConnectionSides {
  /** The workspaces of its two sides: one, or two connected workspaces'. */
  workspaceIds: string[];
  requester: Side;
  addressee: Side;
}
/** A participant as the rules about reaching one another see it. */
interface Party extends Side {
  kind: string;
  workspaceId: string;
  handle: string;
}
interface Edge {
  status: string;
  expiresAt: Date | null;
  scope: unknown;
}
/** The actor's own participant (`me`), another, and what stands between them. */
interface Pair {
  me: Party;
  other: Party;
  /** The workspace lets its people talk without connection requests. */
  peopleTalkFreely: boolean;
  /** Their live connection (pending, accepted or blocked), if any. */
  edge: Edge | null;
  /**
   * When `other` belongs to another workspace: whether the two workspaces are connected now, and
   * whether the other side lets this one find them (its connection's choices). Null within one workspace.
   */
  across?: { linked: boolean; findable: boolean } | null;
}

/** The actor is this side, or the person who owns it. */
export const speaksFor = (actor: Actor, side: Side): boolean => side.id === actor.participantId || side.ownerId === actor.participantId;

type Denial = { code: ErrorCode; message: string };
type Decision = true | Denial;

const deny = (code: ErrorCode, message: string): Denial => ({ code, message });

const sameWorkspace = (actor: Actor, room: RoomFacts): boolean => actor.workspaceId === room.workspaceId;
/**
 * The room is the actor's workspace's, or the actor of another workspace is in it: a member (which
 * they are only while the two workspaces are connected: ending the connection removes them), or the
 * room is a channel shared with their workspace.
 */
const seesRoom = (actor: Actor, { room, membership }: RoomSubject): boolean => sameWorkspace(actor, room) || !!membership || !!room.sharedWithActor;

/** Admins manage members and guests; admins themselves are the owner's to make (by role or by invite). */
const managesRole = (actor: Actor, role: string): Decision =>
  actor.role === "admin" && role === "admin" ? deny("FORBIDDEN", "Only the owner manages admins") : true;

/** Pairs that need no connection: an owner and their agent, and people when the workspace allows. */
const needsNoRequest = ({ me, other, peopleTalkFreely }: Pair): boolean =>
  me.ownerId === other.id ||
  other.ownerId === me.id ||
  (me.kind === "human" && other.kind === "human" && peopleTalkFreely && me.workspaceId === other.workspaceId);

/**
 * Someone of another workspace exists, for the actor, only while the two workspaces are connected
 * and (to be found and asked) while the other side lets the actor's side find them.
 */
const seesAcross = (actor: Actor, s: Pair, toFind: boolean): boolean =>
  s.other.workspaceId === actor.workspaceId || (!!s.across?.linked && (!toFind || s.across.findable));

const onASide = (actor: Actor, s: ConnectionSides): boolean => s.workspaceIds.includes(actor.workspaceId);

/**
 * An accepted connection, unexpired, whose scope (if it names rooms) covers `roomId` (a DM has none),
 * or covers any room with `anyRoom`.
 */
function connected(edge: Edge | null, roomId: string | undefined, anyRoom = false): boolean {
  if (!edge || edge.status !== "accepted" || (edge.expiresAt && edge.expiresAt <= new Date())) return false;
  const rooms = (edge.scope as { roomIds?: string[] } | null)?.roomIds;
  return anyRoom || !rooms || (roomId !== undefined && rooms.includes(roomId));
}

/** A read-only actor (a person's read-scoped access token) reads and moves its own cursors, nothing else. */
const mayWrite = (actor: Actor): Decision =>
  actor.readOnly ? deny("INSUFFICIENT_SCOPE", "This access token may only read; use a token with the write scope") : true;

/** A person's own access token; anyone else's does not exist for them (an admin's included). */
const ownToken = (actor: Actor, s: { workspaceId: string; participantId: string }): Decision => {
  if (actor.kind !== "human") return deny("FORBIDDEN", "Agents have API keys, not access tokens");
  if (s.workspaceId !== actor.workspaceId || s.participantId !== actor.participantId) return deny("NOT_FOUND", "No such access token");
  return true;
};

/** A person's own settings (notifications); nobody else's, an admin's included. */
const ownSettings = (actor: Actor, s: { workspaceId: string; participantId: string }): Decision => {
  if (actor.kind !== "human") return deny("FORBIDDEN", "Agents are not notified; set their delivery mode instead");
  if (s.workspaceId !== actor.workspaceId || s.participantId !== actor.participantId)
    return deny("FORBIDDEN", "Only the person themselves changes their notifications");
  return true;
};

/** A private room's existence is not revealed to outsiders: they get ROOM_NOT_FOUND. */
function member({ room, membership }: RoomSubject, actor: Actor): Decision {
  if (!seesRoom(actor, { room, membership })) return deny("ROOM_NOT_FOUND", "No such room");
  if (membership) return true;
  if (room.visibility === "private") return deny("ROOM_NOT_FOUND", "No such room");
  return deny("NOT_A_MEMBER", "Join the room first");
}

/** Members read; anyone but a guest may preview a public channel before joining. */
function readsRoom(actor: Actor, s: RoomSubject): Decision {
  if (s.membership) return true;
  if ((sameWorkspace(actor, s.room) || s.room.sharedWithActor) && s.room.kind === "channel" && s.room.visibility === "public" && actor.role !== "guest") {
    return true;
  }
  return member(s, actor);
}

/** Workspace roles from the least to the most rights. */
export const ROLE_ORDER = ["guest", "member", "admin", "owner"] as const;
/** The actor's role is `role` or a higher one. */
export const hasRoleAtLeast = (actorRole: string, role: string): boolean =>
  ROLE_ORDER.indexOf(actorRole as (typeof ROLE_ORDER)[number]) >= ROLE_ORDER.indexOf(role as (typeof ROLE_ORDER)[number]);

/** A question's facts for the rules that decide who answers it, sees it, or cancels it. */
interface QuestionFacts {
  workspaceId: string;
  askerId: string;
  /** The asker's owner (agents), who speaks for it. */
  askerOwnerId: string | null;
  audience: string;
  audienceId: string | null;
  audienceRole: string | null;
  status: string;
  expiresAt: Date | null;
}
interface QuestionSubject {
  question: QuestionFacts;
  /** The actor is a member of the question's room. */
  roomMember: boolean;
}

/** The actor is someone the question is for: the named person (or owner), a person in the room, one with the role. */
function askedOf(actor: Actor, { question: q, roomMember }: QuestionSubject): boolean {
  if (actor.kind !== "human" || actor.participantId === q.askerId) return false;
  if (q.audience === "person" || q.audience === "owner") return q.audienceId === actor.participantId;
  if (q.audience === "room") return roomMember;
  return q.audienceRole !== null && hasRoleAtLeast(actor.role, q.audienceRole);
}

const expired = (q: QuestionFacts): boolean => q.status === "expired" || (q.status === "open" && q.expiresAt !== null && q.expiresAt <= new Date());

const rules = {
  /** Anything that changes state. Transports ask it of every write (tRPC mutations, socket events, MCP tools). */
  "scope.write": (actor: Actor): Decision => mayWrite(actor),
  "room.read": (actor: Actor, s: RoomSubject): Decision => readsRoom(actor, s),
  /** Cursors, replay and mode-selected sync belong to members only. */
  "room.cursor": (actor: Actor, s: RoomSubject): Decision => member(s, actor),
  "room.post": (actor: Actor, s: RoomSubject): Decision => {
    const m = member(s, actor);
    if (m !== true) return m;
    if (s.room.archivedAt) return deny("ROOM_ARCHIVED", "The room is archived: it is read-only");
    return true;
  },
  "room.join": (actor: Actor, s: RoomSubject): Decision => {
    if (!seesRoom(actor, s)) return deny("ROOM_NOT_FOUND", "No such room");
    if (s.membership) return true;
    if (s.room.kind !== "channel" || s.room.visibility !== "public") return deny("ROOM_NOT_FOUND", "No such room");
    if (actor.role === "guest") return deny("FORBIDDEN", "Guests join channels by invitation");
    if (s.room.archivedAt) return deny("ROOM_ARCHIVED", "The channel is archived: it can be read, not joined");
    return true;
  },
  "room.invite": (actor: Actor, s: RoomSubject): Decision => {
    const m = member(s, actor);
    if (m !== true) return m;
    if (s.room.archivedAt) return deny("ROOM_ARCHIVED", "The room is archived: it is read-only");
    if (s.room.kind === "dm") return deny("FORBIDDEN", "A direct message has fixed members; start a group instead");
    if (actor.role === "guest") return deny("FORBIDDEN", "Guests cannot invite");
    if (!sameWorkspace(actor, s.room) && !s.room.guestsMayInvite) return deny("FORBIDDEN", "The room's workspace lets yours post here, not invite");
    return true;
  },
  "room.leave": (actor: Actor, s: RoomSubject): Decision => {
    const m = member(s, actor);
    if (m !== true) return m;
    if (s.room.kind === "dm") return deny("FORBIDDEN", "A direct message cannot be left");
    return true;
  },
  /** A room's settings (who may stop agents' turns there): the member who owns the room, or an admin. */
  "room.configure": (actor: Actor, s: RoomSubject): Decision => {
    if (!seesRoom(actor, s)) return deny("ROOM_NOT_FOUND", "No such room");
    if (!sameWorkspace(actor, s.room)) return deny("FORBIDDEN", "Only the room's own workspace changes its settings");
    if (actor.kind === "human" && (isAdmin(actor) || s.membership?.role === "owner")) return true;
    return deny("FORBIDDEN", "Only the room's owner or an admin can change its settings");
  },
  /**
   * A channel's name, topic and archiving: the member who owns it (whoever created it, a person or an
   * agent), and the workspace's owners and admins. A private channel stays hidden from non-members.
   */
  "room.update": (actor: Actor, s: RoomSubject): Decision => {
    if (!seesRoom(actor, s) || (!s.membership && s.room.visibility === "private")) return deny("ROOM_NOT_FOUND", "No such room");
    if (!sameWorkspace(actor, s.room)) return deny("FORBIDDEN", "Only the room's own workspace renames or archives it");
    if (s.room.kind !== "channel") return deny("FORBIDDEN", "Only channels have a name, a topic and an archive");
    if (s.membership?.role === "owner" || isHumanAdmin(actor)) return true;
    return deny("FORBIDDEN", "Only the channel's owner or a workspace admin can change its settings");
  },
  /** An agent opens, reports and ends only its own turns. */
  "turn.run": (actor: Actor, s: { agentId: string }): Decision =>
    actor.kind === "agent" && actor.participantId === s.agentId ? true : deny("FORBIDDEN", "Only the agent itself reports and ends its turns"),
  /**
   * Steering an agent in a room (Stop on its running turn, pausing it there, resuming it): the agent's
   * owner, an admin, and any member of the room where the room's setting says so. People only.
   */
  "agent.steer": (actor: Actor, s: { agent: Side; membersMayStop: boolean; member: boolean; roomWorkspaceId: string }): Decision => {
    if (actor.kind !== "human") return deny("FORBIDDEN", "Only people stop or pause agents");
    // An admin steers in their own workspace's rooms; in a room shared from another, as a member.
    if (s.agent.ownerId === actor.participantId || (isAdmin(actor) && s.roomWorkspaceId === actor.workspaceId)) return true;
    if (s.membersMayStop && s.member) return true;
    return deny("FORBIDDEN", "Only the agent's owner or an admin can stop or pause it in this room");
  },
  "message.edit": (actor: Actor, s: MessageSubject): Decision => {
    const m = member(s, actor);
    if (m !== true) return m;
    if (s.message.kind !== "text" || s.message.deletedAt) return deny("FORBIDDEN", "This message cannot be edited");
    if (s.message.authorId !== actor.participantId) return deny("FORBIDDEN", "Only the author can edit a message");
    return true;
  },
  "message.delete": (actor: Actor, s: MessageSubject): Decision => {
    const m = member(s, actor);
    if (m !== true) return m;
    if (s.message.kind !== "text") return deny("FORBIDDEN", "This message cannot be deleted");
    // An admin deletes others' messages in their own workspace's rooms only.
    if (s.message.authorId !== actor.participantId && !(isAdmin(actor) && sameWorkspace(actor, s.room))) {
      return deny("FORBIDDEN", "Only the author or an admin can delete a message");
    }
    return true;
  },
  /** Reacting: any member of a room that is not archived, on a message that is not deleted. */
  "message.react": (actor: Actor, s: MessageSubject): Decision => {
    const m = member(s, actor);
    if (m !== true) return m;
    if (s.room.archivedAt) return deny("ROOM_ARCHIVED", "The room is archived: it is read-only");
    if (s.message.deletedAt) return deny("FORBIDDEN", "This message was deleted");
    return true;
  },
  /** Pinning to the room's header: any member but a guest, in a room that is not archived; a deleted message may only be unpinned. */
  "message.pin": (actor: Actor, s: MessageSubject & { pinned: boolean }): Decision => {
    const m = member(s, actor);
    if (m !== true) return m;
    if (s.room.archivedAt) return deny("ROOM_ARCHIVED", "The room is archived: it is read-only");
    if (actor.role === "guest") return deny("FORBIDDEN", "Guests cannot pin messages");
    if (s.pinned && s.message.deletedAt) return deny("FORBIDDEN", "This message was deleted");
    return true;
  },
  /**
   * A stored file: what its room's readers may read once it is on a message; before that, its uploader
   * alone. A file of no room (an avatar) is the workspace's. Outsiders are not told it exists.
   */
  "file.read": (
    actor: Actor,
    s: { file: { workspaceId: string; uploaderId: string; messageId: string | null }; room: RoomSubject | null; avatarAcross?: boolean },
  ): Decision => {
    const none = deny("FILE_NOT_FOUND", "No such file");
    // A file of no room is its workspace's (an avatar, a connected workspace's too: `avatarAcross`);
    // one in a room, its readers' (those of a shared room's other workspace too).
    if (!s.room) return s.file.workspaceId === actor.workspaceId || s.avatarAcross ? true : none;
    if (!s.file.messageId) return s.file.uploaderId === actor.participantId ? true : none;
    return readsRoom(actor, s.room) === true ? true : none;
  },
  "channel.create": (actor: Actor): Decision => (actor.role === "guest" ? deny("FORBIDDEN", "Guests cannot create channels") : true),
  /** The list of public channels to join: what `room.read` lets one preview, so not for guests. */
  "channel.browse": (actor: Actor): Decision => (actor.role === "guest" ? deny("FORBIDDEN", "Guests join channels by invitation") : true),
  /**
   * Whom a conversation or a room may take in: people and agents of the actor's workspace, or of the
   * other workspaces it may reach there now (`linkedWorkspaceIds`: connected ones for a conversation; the
   * room's own and those it is shared with, for a room).
   */
  "direct.open": (actor: Actor, s: { participants: { workspaceId: string }[]; linkedWorkspaceIds: string[] }): Decision =>
    s.participants.every((p) => p.workspaceId === actor.workspaceId || s.linkedWorkspaceIds.includes(p.workspaceId))
      ? true
      : deny("PARTICIPANT_NOT_FOUND", "No such participant"),
  "invite.create": (actor: Actor, s: { role: string }): Decision =>
    isHumanAdmin(actor) ? managesRole(actor, s.role) : deny("FORBIDDEN", "Only owners and admins can create invite links"),
  /** Listing and revoking invite links: owners and admins, like creating them. */
  "invite.manage": (actor: Actor, s: { workspaceId: string }): Decision => {
    if (s.workspaceId !== actor.workspaceId) return deny("NOT_FOUND", "No such invite link");
    return isHumanAdmin(actor) ? true : deny("FORBIDDEN", "Only owners and admins can manage invite links");
  },
  /**
   * People list and revoke the onboarding tokens they created; owners and admins, everyone's.
   * `createdById: null` stands for every token of the workspace.
   */
  "onboarding_token.manage": (actor: Actor, s: { workspaceId: string; createdById: string | null }): Decision => {
    if (s.workspaceId !== actor.workspaceId) return deny("NOT_FOUND", "No such onboarding token");
    if (actor.kind === "human" && (s.createdById === actor.participantId || isAdmin(actor))) return true;
    return deny("FORBIDDEN", "Only the token's creator or an admin can manage it");
  },
  "agent.create": (actor: Actor): Decision => (actor.kind === "human" && actor.role !== "guest" ? true : deny("FORBIDDEN", "Only members can create agents")),
  /** An agent's owner manages it; so do owners and admins of its workspace. */
  "agent.manage": (actor: Actor, s: { workspaceId: string; ownerId: string | null }): Decision => {
    if (s.workspaceId !== actor.workspaceId) return deny("PARTICIPANT_NOT_FOUND", "No such agent");
    if (actor.kind === "human" && (s.ownerId === actor.participantId || isAdmin(actor))) return true;
    return deny("FORBIDDEN", "Only the agent's owner or an admin can manage it");
  },
  /** The kill switch: the agent's owner, or an owner or admin of the workspace. */
  "agent.suspend": (actor: Actor, s: { workspaceId: string; ownerId: string | null }): Decision => {
    if (s.workspaceId !== actor.workspaceId) return deny("PARTICIPANT_NOT_FOUND", "No such agent");
    if (actor.kind === "human" && (s.ownerId === actor.participantId || isAdmin(actor))) return true;
    return deny("FORBIDDEN", "Only the agent's owner or an admin can suspend it");
  },
  /** Members set their own delivery mode; an agent's owner sets its mode too. */
  "membership.configure": (actor: Actor, s: RoomSubject & { participant: { id: string; ownerId: string | null } }): Decision => {
    if (!s.membership) return deny("ROOM_NOT_FOUND", "No such room");
    if (s.participant.id === actor.participantId || s.participant.ownerId === actor.participantId) return true;
    return deny("FORBIDDEN", "Only the member or its owner can change its delivery");
  },
  // Connections: a person decides for themselves and for the agents they own. An agent may decline
  // or withdraw on its own but never accept: its owner (or its consent policy) does that.
  "connection.accept": (actor: Actor, s: ConnectionSides): Decision =>
    onASide(actor, s) && actor.kind === "human" && speaksFor(actor, s.addressee)
      ? true
      : deny("FORBIDDEN", "Only the addressee, or the agent's owner, can accept"),
  "connection.decline": (actor: Actor, s: ConnectionSides): Decision =>
    onASide(actor, s) && speaksFor(actor, s.addressee) ? true : deny("FORBIDDEN", "Only the addressee, or the agent's owner, can decline"),
  "connection.cancel": (actor: Actor, s: ConnectionSides): Decision =>
    onASide(actor, s) && speaksFor(actor, s.requester) ? true : deny("FORBIDDEN", "Only the asker can cancel a request"),
  "connection.revoke": (actor: Actor, s: ConnectionSides): Decision =>
    onASide(actor, s) && (speaksFor(actor, s.requester) || speaksFor(actor, s.addressee))
      ? true
      : deny("FORBIDDEN", "Only either side can revoke a connection"),
  /** A block is the blocker's: it, its owner or an admin lifts it; the blocked side never does. */
  "connection.unblock": (actor: Actor, s: ConnectionSides): Decision => {
    if (!onASide(actor, s)) return deny("FORBIDDEN", "Only the side that blocked can lift a block");
    if (speaksFor(actor, s.requester)) return true;
    // An admin lifts a block made in their own workspace (the blocker's).
    if (!speaksFor(actor, s.addressee) && isHumanAdmin(actor) && s.workspaceIds[0] === actor.workspaceId) return true;
    return deny("FORBIDDEN", "Only the side that blocked (its owner, or an admin) can lift a block");
  },
  /** `targetLinked`: the target belongs to a workspace connected with the actor's now. */
  "connection.block": (actor: Actor, s: { blocker: Party; target: Party; targetLinked?: boolean }): Decision => {
    if (s.blocker.workspaceId !== actor.workspaceId || (s.target.workspaceId !== actor.workspaceId && !s.targetLinked))
      return deny("PARTICIPANT_NOT_FOUND", "No such participant");
    if (s.blocker.id === s.target.id) return deny("INVALID_PAYLOAD", "You cannot block yourself");
    return speaksFor(actor, s.blocker) ? true : deny("FORBIDDEN", "You can block only for yourself or an agent you own");
  },
  /** Asking `other` to connect: not oneself, not across a block, not when no connection is needed. */
  "connection.request": (actor: Actor, s: Pair): Decision => {
    if (!seesAcross(actor, s, true)) return deny("PARTICIPANT_NOT_FOUND", "No such participant");
    if (s.other.id === s.me.id) return deny("INVALID_PAYLOAD", "You cannot connect to yourself");
    if (s.edge?.status === "blocked") return deny("FORBIDDEN", "This connection is blocked");
    if (needsNoRequest(s)) return deny("CONFLICT", "You can already talk to each other");
    return true;
  },
  /**
   * Reaching `other`: opening a DM with them (`roomId` absent), inviting them into `roomId`, or
   * mentioning them there. A block between the two stops it whatever else would allow it; then an
   * owner and their agent, and people who talk freely, need nothing; everyone else an accepted,
   * unexpired connection whose scope covers the room.
   */
  "connection.reach": (actor: Actor, s: Pair & { roomId?: string }): Decision => {
    if (!seesAcross(actor, s, false)) return deny("PARTICIPANT_NOT_FOUND", "No such participant");
    if (s.other.id === s.me.id) return true;
    if (s.edge?.status === "blocked") return deny("NOT_CONNECTED", `You cannot reach @${s.other.handle}: the connection is blocked`);
    if (needsNoRequest(s) || connected(s.edge, s.roomId)) return true;
    return deny("NOT_CONNECTED", `You are not connected with @${s.other.handle}; ask to connect first`);
  },
  /** People list their own access tokens; a read-only token may too (it only reads). */
  "access_token.read": (actor: Actor, s: { workspaceId: string; participantId: string }): Decision => ownToken(actor, s),
  /**
   * A person makes tokens for themselves, signed in or through a write-scoped token. A token mints
   * nothing broader than itself: a read token mints nothing, and a token that expires mints only
   * tokens that expire no later.
   */
  "access_token.create": (actor: Actor, s: { scope: "read" | "write"; expiresAt: Date | null }): Decision => {
    if (actor.kind !== "human") return deny("FORBIDDEN", "Agents have API keys, not access tokens");
    const write = mayWrite(actor);
    if (write !== true) return write;
    const limit = actor.accessToken?.expiresAt;
    if (limit && (s.expiresAt === null || s.expiresAt > limit)) return deny("FORBIDDEN", "A token cannot create a token that outlives it");
    return true;
  },
  /** A person revokes their own tokens, signed in or through a write-scoped token. */
  "access_token.revoke": (actor: Actor, s: { workspaceId: string; participantId: string }): Decision => {
    const own = ownToken(actor, s);
    return own === true ? mayWrite(actor) : own;
  },
  /**
   * A person's own display name and handle. An agent's name is its owner's to change (`agent.manage`),
   * and its handle is its address: neither changes from the agent itself.
   */
  "profile.update": (actor: Actor, s: { workspaceId: string; participantId: string }): Decision => {
    if (actor.kind !== "human") return deny("FORBIDDEN", "An agent's name is changed by its owner; its handle stays");
    if (s.workspaceId !== actor.workspaceId || s.participantId !== actor.participantId)
      return deny("FORBIDDEN", "Only the person themselves changes their profile");
    return mayWrite(actor);
  },
  /** A person reads their own notification settings; agents are sent what their delivery mode selects instead. */
  "notifications.read": (actor: Actor, s: { workspaceId: string; participantId: string }): Decision => ownSettings(actor, s),
  /** A person changes their own notification settings, signed in or through a write-scoped token. */
  "notifications.configure": (actor: Actor, s: { workspaceId: string; participantId: string }): Decision => {
    const own = ownSettings(actor, s);
    return own === true ? mayWrite(actor) : own;
  },
  /**
   * Sharing a channel of one's own workspace with a connected one, or no longer: its owner or an
   * admin; where the workspace's side asks that an admin approve each shared room, an admin only.
   */
  "room.share": (actor: Actor, s: RoomSubject & { adminsOnly: boolean }): Decision => {
    if (!sameWorkspace(actor, s.room)) return deny("ROOM_NOT_FOUND", "No such room");
    if (s.room.kind !== "channel") return deny("FORBIDDEN", "Only channels are shared with other workspaces");
    if (s.room.archivedAt) return deny("ROOM_ARCHIVED", "The channel is archived");
    if (isHumanAdmin(actor)) return true;
    if (s.adminsOnly) return deny("FORBIDDEN", "An admin of your workspace shares channels with this workspace");
    if (actor.kind === "human" && s.membership?.role === "owner") return true;
    return deny("FORBIDDEN", "Only the channel's owner or an admin shares it");
  },
  /** A workspace's connections with other workspaces (invite, accept, choose, disconnect): its owners and admins. */
  "workspace_connection.manage": (actor: Actor, s: { workspaceId: string }): Decision =>
    actor.workspaceId === s.workspaceId && isHumanAdmin(actor) ? true : deny("FORBIDDEN", "Only owners and admins manage connections with other workspaces"),
  "workspace.configure": (actor: Actor, s: { workspaceId: string }): Decision =>
    actor.workspaceId === s.workspaceId && isHumanAdmin(actor) ? true : deny("FORBIDDEN", "Only owners and admins can change workspace settings"),
  /** Owners set any role but owner; admins manage members and guests; nobody changes their own role or the owner's. */
  "member.set_role": (actor: Actor, s: { target: { participantId: string; role: string }; role: string }): Decision => {
    if (!isHumanAdmin(actor)) return deny("FORBIDDEN", "Only owners and admins manage roles");
    if (s.target.participantId === actor.participantId) return deny("FORBIDDEN", "You cannot change your own role");
    if (s.target.role === "owner") return deny("FORBIDDEN", "The owner's role cannot be changed");
    const target = managesRole(actor, s.target.role);
    return target === true ? managesRole(actor, s.role) : target;
  },
  /** The workspace's owner may exempt themselves from people's message rate; nobody else is ever exempt. */
  "member.exempt_self": (actor: Actor): Decision =>
    actor.kind === "human" && actor.role === "owner" ? true : deny("FORBIDDEN", "Only the workspace's owner may exempt themselves from the message rate"),
  "audit.read": (actor: Actor, s: { workspaceId: string }): Decision =>
    actor.workspaceId === s.workspaceId && isHumanAdmin(actor) ? true : deny("FORBIDDEN", "Only owners and admins read the audit log"),
  /** The whole workspace's usage and cost; everyone else sees what their own agents spent. */
  "usage.read_workspace": (actor: Actor, s: { workspaceId: string }): Decision =>
    actor.workspaceId === s.workspaceId && isHumanAdmin(actor) ? true : deny("FORBIDDEN", "Only owners and admins see the whole workspace's usage"),
  /**
   * One agent's usage (what its model calls cost, wherever it worked): the agent itself, its owner,
   * and owners and admins. `usageScope` below is the same rule as a filter for queries over many.
   */
  "usage.read": (actor: Actor, s: { workspaceId: string; agent: Side }): Decision => {
    if (s.workspaceId !== actor.workspaceId) return deny("FORBIDDEN", "Not in this workspace");
    if (isHumanAdmin(actor) || speaksFor(actor, s.agent)) return true;
    return deny("FORBIDDEN", "Only the agent, its owner and admins see its usage");
  },
  /**
   * Who sees a question: the people it is for, its room's members, and its asker (or whoever speaks
   * for it). To anyone else it does not exist.
   */
  "question.read": (actor: Actor, s: QuestionSubject): Decision => {
    if (s.question.workspaceId !== actor.workspaceId) return deny("NOT_FOUND", "No such question");
    if (s.roomMember || askedOf(actor, s) || speaksFor(actor, { id: s.question.askerId, ownerId: s.question.askerOwnerId })) return true;
    return deny("NOT_FOUND", "No such question");
  },
  /** The people it is for answer it, once, before it expires: FORBIDDEN, then EXPIRED, then CONFLICT. */
  "question.answer": (actor: Actor, s: QuestionSubject): Decision => {
    if (s.question.workspaceId !== actor.workspaceId) return deny("NOT_FOUND", "No such question");
    if (!askedOf(actor, s)) {
      return deny("FORBIDDEN", actor.kind === "human" ? "This question is not for you to answer" : "Only people answer questions");
    }
    if (expired(s.question)) return deny("EXPIRED", "This question has expired");
    if (s.question.status !== "open") return deny("CONFLICT", `This question is already ${s.question.status}`);
    return true;
  },
  /** Its asker takes it back (or the asker's owner, or an admin), while it is open. */
  "question.cancel": (actor: Actor, s: QuestionSubject): Decision => {
    if (s.question.workspaceId !== actor.workspaceId) return deny("NOT_FOUND", "No such question");
    if (!speaksFor(actor, { id: s.question.askerId, ownerId: s.question.askerOwnerId }) && !isHumanAdmin(actor)) {
      return deny("FORBIDDEN", "Only whoever asked it can cancel a question");
    }
    if (s.question.status !== "open") return deny("CONFLICT", `This question is already ${s.question.status}`);
    return true;
  },
  /**
   * A runtime binding (services/work/bindings.ts) is seen by whoever may read its room, by the agent and
   * whoever speaks for it, and by owners and admins. To anyone else it does not exist.
   */
  "binding.read": (actor: Actor, s: { workspaceId: string; agent: Side; roomReadable: boolean }): Decision => {
    if (s.workspaceId !== actor.workspaceId) return deny("NOT_FOUND", "No such binding");
    if (s.roomReadable || speaksFor(actor, s.agent) || isHumanAdmin(actor)) return true;
    return deny("NOT_FOUND", "No such binding");
  },
  /** Only the agent itself runs turns on its bindings (claims them, records what a turn did). */
  "binding.hold": (actor: Actor, s: { agent: Side }): Decision =>
    actor.kind === "agent" && actor.participantId === s.agent.id ? true : deny("FORBIDDEN", "Only the agent itself claims and updates its runtime bindings"),
  /** The agent, its owner, and owners and admins close a binding (the next message starts a new session). */
  "binding.close": (actor: Actor, s: { agent: Side }): Decision =>
    speaksFor(actor, s.agent) || isHumanAdmin(actor) ? true : deny("FORBIDDEN", "Only the agent, its owner and admins close its runtime bindings"),
  /**
   * An agent's work (its tasks, the files it touched, what it shipped: services/work/work.ts) is seen like
   * its bindings: by whoever may read the room it was done for, by the agent and whoever speaks for
   * it, and by owners and admins. Work done for no room only by the latter.
   */
  "work.read": (actor: Actor, s: { workspaceId: string; agent: Side; roomReadable: boolean }): Decision => {
    if (s.workspaceId !== actor.workspaceId) return deny("NOT_FOUND", "No such work");
    if (s.roomReadable || speaksFor(actor, s.agent) || isHumanAdmin(actor)) return true;
    return deny("NOT_FOUND", "No such work");
  },
  /**
   * Everyone's work status, the agents on the work board, the component map and which work links a pull
   * request or a branch has are the workspace's to see, like presence (what the work itself is: `work.read`).
   */
  "work.read_workspace": (actor: Actor, s: { workspaceId: string }): Decision =>
    s.workspaceId === actor.workspaceId ? true : deny("NOT_FOUND", "No such workspace"),
  /** Only an agent reports its own tasks, files and links (people's work is their messages). */
  "work.report": (actor: Actor): Decision => (actor.kind === "agent" ? true : deny("FORBIDDEN", "Only agents report tasks, files and links")),
  "usage.report": (actor: Actor): Decision => (actor.kind === "agent" ? true : deny("FORBIDDEN", "Only agents report model usage")),
  /**
   * Calling an agent served over A2A: one of the caller's own workspace (another's does not exist
   * for it), and not the caller itself. Whether it may reach the agent is `connection.reach`'s.
   */
  "a2a.call": (actor: Actor, s: { agent: { id: string; workspaceId: string } }): Decision => {
    if (s.agent.workspaceId !== actor.workspaceId) return deny("PARTICIPANT_NOT_FOUND", "No such agent in your workspace");
    if (s.agent.id === actor.participantId) return deny("FORBIDDEN", "An agent cannot call itself over A2A");
    return true;
  },
  /**
   * An A2A task or conversation (context) is its caller's alone, with the agent it called: to anyone
   * else, an admin included, and with another agent (`agentId`, when the call names one), it does not exist.
   */
  "a2a.task.read": (actor: Actor, s: { workspaceId: string; callerId: string; agentId: string; calledAgentId?: string }): Decision => {
    if (s.workspaceId !== actor.workspaceId || s.callerId !== actor.participantId) return deny("NOT_FOUND", "No such task of yours");
    if (s.calledAgentId !== undefined && s.calledAgentId !== s.agentId) return deny("NOT_FOUND", "No such task of yours with this agent");
    return true;
  },
  /**
   * A budget's state (what someone may still spend): the budgeted person or agent, the agent's
   * owner, and owners and admins. To anyone else a budget does not exist.
   */
  "budget.read": (actor: Actor, s: { workspaceId: string; subject: Side }): Decision => {
    if (s.workspaceId !== actor.workspaceId) return deny("NOT_FOUND", "No such budget");
    if (speaksFor(actor, s.subject) || isHumanAdmin(actor)) return true;
    return deny("NOT_FOUND", "No such budget");
  },
} as const;

export type Action = keyof typeof rules;
type SubjectOf<A extends Action> = Parameters<(typeof rules)[A]>[1];

export function can<A extends Action>(actor: Actor, action: A, subject: SubjectOf<A>): boolean {
  return decide(actor, action, subject) === true;
}

/** Throws the rule's error unless `actor` may do `action` on `subject`. */
export function authorize<A extends Action>(actor: Actor, action: A, subject: SubjectOf<A>): void {
  const decision = decide(actor, action, subject);
  if (decision !== true) throw new AppError(decision.code, decision.message);
}

/** The rule's answer: true, or the error (and its message) the actor would get. */
export function decide<A extends Action>(actor: Actor, action: A, subject: SubjectOf<A>): Decision {
  const rule = rules[action] as (a: Actor, s: SubjectOf<A>) => Decision;
  return rule(actor, subject);
}

/**
 * Throws INSUFFICIENT_SCOPE for a read-only actor. Every transport calls it before anything that
 * writes (tRPC mutations, socket events other than reads, MCP write tools); services need not.
 */
export function assertMayWrite(actor: Actor): void {
  authorize(actor, "scope.write", undefined);
}

/** The viewer's standing with another, for the directory: `pair` as `connection.reach` takes it. */
export function connectionStanding(pair: Pair | null): "connected" | "pending" | "blocked" | "none" {
  if (!pair) return "none";
  if (pair.edge?.status === "blocked") return "blocked";
  // A connection scoped to some rooms still connects the two (there), so it counts as connected.
  if (pair.other.id === pair.me.id || needsNoRequest(pair) || connected(pair.edge, undefined, true)) return "connected";
  return pair.edge?.status === "pending" ? "pending" : "none";
}

/**
 * `usage.read` as a filter on usage queries (dashboards, a room's or a task's cost): nothing for
 * owners and admins, an agent's own calls, and for a member the agents they own, or, when they ask
 * for what they requested (`requesterId` their own), the calls they drove on anyone's agents.
 */
export function usageScope(actor: Actor, asked: { requesterId?: string } = {}): { ownerId?: string; agentId?: string; requesterId?: string } {
  if (can(actor, "usage.read_workspace", { workspaceId: actor.workspaceId })) return {};
  if (actor.kind === "agent") return { agentId: actor.participantId };
  return asked.requesterId === actor.participantId ? { requesterId: actor.participantId } : { ownerId: actor.participantId };
}

/** `a2a.task.read` as a filter on task queries: the caller's own tasks in its workspace. */
export function a2aTaskScope(actor: Actor): { workspaceId: string; callerId: string } {
  return { workspaceId: actor.workspaceId, callerId: actor.participantId };
}
