// Every decision about who may do what, for people and agents alike. Services call `authorize` before
// they read or write; transports never decide. Each rule returns true, or the error the caller gets.
import { AppError, type ErrorCode } from "../errors";
import { isAdmin, type Actor } from "./actor";

export type { Actor, WorkspaceRole } from "./actor";
export { isAdmin } from "./actor";

interface RoomFacts {
  workspaceId: string;
  kind: string;
  visibility: string;
  archivedAt: Date | null;
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
interface ConnectionSides {
  requester: Side;
  addressee: Side;
}

/** The actor is this side, or the person who owns it. */
const speaksFor = (actor: Actor, side: Side): boolean => side.id === actor.participantId || side.ownerId === actor.participantId;

type Denial = { code: ErrorCode; message: string };
type Decision = true | Denial;

const deny = (code: ErrorCode, message: string): Denial => ({ code, message });

const sameWorkspace = (actor: Actor, room: RoomFacts): boolean => actor.workspaceId === room.workspaceId;

/** A private room's existence is not revealed to outsiders: they get ROOM_NOT_FOUND. */
function member({ room, membership }: RoomSubject, actor: Actor): Decision {
  if (!sameWorkspace(actor, room)) return deny("ROOM_NOT_FOUND", "No such room");
  if (membership) return true;
  if (room.visibility === "private") return deny("ROOM_NOT_FOUND", "No such room");
  return deny("NOT_A_MEMBER", "Join the room first");
}

const rules = {
  "room.read": (actor: Actor, s: RoomSubject): Decision => {
    // Members read; anyone but a guest may preview a public channel before joining.
    if (s.membership && sameWorkspace(actor, s.room)) return true;
    if (sameWorkspace(actor, s.room) && s.room.kind === "channel" && s.room.visibility === "public" && actor.role !== "guest") {
      return true;
    }
    return member(s, actor);
  },
  /** Cursors, replay and mode-selected sync belong to members only. */
  "room.cursor": (actor: Actor, s: RoomSubject): Decision => member(s, actor),
  "room.post": (actor: Actor, s: RoomSubject): Decision => {
    const m = member(s, actor);
    if (m !== true) return m;
    if (s.room.archivedAt) return deny("FORBIDDEN", "The room is archived");
    return true;
  },
  "room.join": (actor: Actor, s: RoomSubject): Decision => {
    if (!sameWorkspace(actor, s.room)) return deny("ROOM_NOT_FOUND", "No such room");
    if (s.membership) return true;
    if (s.room.kind !== "channel" || s.room.visibility !== "public") return deny("ROOM_NOT_FOUND", "No such room");
    if (actor.role === "guest") return deny("FORBIDDEN", "Guests join channels by invitation");
    return true;
  },
  "room.invite": (actor: Actor, s: RoomSubject): Decision => {
    const m = member(s, actor);
    if (m !== true) return m;
    if (s.room.kind === "dm") return deny("FORBIDDEN", "A direct message has fixed members; start a group instead");
    if (actor.role === "guest") return deny("FORBIDDEN", "Guests cannot invite");
    return true;
  },
  "room.leave": (actor: Actor, s: RoomSubject): Decision => {
    const m = member(s, actor);
    if (m !== true) return m;
    if (s.room.kind === "dm") return deny("FORBIDDEN", "A direct message cannot be left");
    return true;
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
    if (s.message.authorId !== actor.participantId && !isAdmin(actor)) {
      return deny("FORBIDDEN", "Only the author or an admin can delete a message");
    }
    return true;
  },
  "channel.create": (actor: Actor): Decision =>
    actor.role === "guest" ? deny("FORBIDDEN", "Guests cannot create channels") : true,
  "direct.open": (actor: Actor, s: { participants: { workspaceId: string }[] }): Decision =>
    s.participants.every((p) => p.workspaceId === actor.workspaceId)
      ? true
      : deny("PARTICIPANT_NOT_FOUND", "No such participant"),
  "invite.create": (actor: Actor): Decision =>
    isAdmin(actor) && actor.kind === "human" ? true : deny("FORBIDDEN", "Only owners and admins can create invite links"),
  /** Listing and revoking invite links: owners and admins, like creating them. */
  "invite.manage": (actor: Actor, s: { workspaceId: string }): Decision => {
    if (s.workspaceId !== actor.workspaceId) return deny("NOT_FOUND", "No such invite link");
    return isAdmin(actor) && actor.kind === "human" ? true : deny("FORBIDDEN", "Only owners and admins can manage invite links");
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
  "agent.create": (actor: Actor): Decision =>
    actor.kind === "human" && actor.role !== "guest" ? true : deny("FORBIDDEN", "Only members can create agents"),
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
    actor.kind === "human" && speaksFor(actor, s.addressee) ? true : deny("FORBIDDEN", "Only the addressee, or the agent's owner, can accept"),
  "connection.decline": (actor: Actor, s: ConnectionSides): Decision =>
    speaksFor(actor, s.addressee) ? true : deny("FORBIDDEN", "Only the addressee, or the agent's owner, can decline"),
  "connection.cancel": (actor: Actor, s: ConnectionSides): Decision =>
    speaksFor(actor, s.requester) ? true : deny("FORBIDDEN", "Only the asker can cancel a request"),
  "connection.revoke": (actor: Actor, s: ConnectionSides): Decision =>
    speaksFor(actor, s.requester) || speaksFor(actor, s.addressee) ? true : deny("FORBIDDEN", "Only either side can revoke a connection"),
  "connection.block": (actor: Actor, s: { blocker: Side }): Decision =>
    speaksFor(actor, s.blocker) ? true : deny("FORBIDDEN", "You can block only for yourself or an agent you own"),
  "workspace.configure": (actor: Actor, s: { workspaceId: string }): Decision =>
    actor.workspaceId === s.workspaceId && isAdmin(actor) && actor.kind === "human"
      ? true
      : deny("FORBIDDEN", "Only owners and admins can change workspace settings"),
  /** Owners set any role but owner; admins manage members and guests; nobody changes their own role or the owner's. */
  "member.set_role": (actor: Actor, s: { target: { participantId: string; role: string }; role: string }): Decision => {
    if (!isAdmin(actor) || actor.kind !== "human") return deny("FORBIDDEN", "Only owners and admins manage roles");
    if (s.target.participantId === actor.participantId) return deny("FORBIDDEN", "You cannot change your own role");
    if (s.target.role === "owner") return deny("FORBIDDEN", "The owner's role cannot be changed");
    if (actor.role === "admin" && (s.target.role === "admin" || s.role === "admin")) return deny("FORBIDDEN", "Only the owner manages admins");
    return true;
  },
  /** The workspace's owner may exempt themselves from people's message rate; nobody else is ever exempt. */
  "member.exempt_self": (actor: Actor): Decision =>
    actor.kind === "human" && actor.role === "owner" ? true : deny("FORBIDDEN", "Only the workspace's owner may exempt themselves from the message rate"),
  "audit.read": (actor: Actor, s: { workspaceId: string }): Decision =>
    actor.workspaceId === s.workspaceId && isAdmin(actor) && actor.kind === "human" ? true : deny("FORBIDDEN", "Only owners and admins read the audit log"),
  "workspace.read": (actor: Actor, s: { workspaceId: string }): Decision =>
    actor.workspaceId === s.workspaceId ? true : deny("FORBIDDEN", "Not in this workspace"),
  /** The whole workspace's usage and cost; everyone else sees what their own agents spent. */
  "usage.read_workspace": (actor: Actor, s: { workspaceId: string }): Decision =>
    actor.workspaceId === s.workspaceId && isAdmin(actor) && actor.kind === "human"
      ? true
      : deny("FORBIDDEN", "Only owners and admins see the whole workspace's usage"),
  /**
   * A budget's state (what someone may still spend): the budgeted person or agent, the agent's
   * owner, and owners and admins. To anyone else a budget does not exist.
   */
  "budget.read": (actor: Actor, s: { workspaceId: string; subject: Side }): Decision => {
    if (s.workspaceId !== actor.workspaceId) return deny("NOT_FOUND", "No such budget");
    if (speaksFor(actor, s.subject) || (isAdmin(actor) && actor.kind === "human")) return true;
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

function decide<A extends Action>(actor: Actor, action: A, subject: SubjectOf<A>): Decision {
  const rule = rules[action] as (a: Actor, s: SubjectOf<A>) => Decision;
  return rule(actor, subject);
}
