// A person's membership as the admin console lists it, with what the viewer may change about it.
import type { ParticipantView } from "@switchboard/sdk/contract";
import { can, decide, type Actor, type WorkspaceRole } from "../policies";

type AssignableRole = Exclude<WorkspaceRole, "owner">;
const ASSIGNABLE: AssignableRole[] = ["admin", "member", "guest"];

/** The relations a presented member needs, for Prisma `include`. */
export const memberInclude = {
  account: { select: { email: true } },
  participant: { select: { id: true, handle: true, displayName: true, status: true, lastSeenAt: true, _count: { select: { agents: true } } } },
} as const;

interface MemberRow {
  participantId: string;
  role: WorkspaceRole;
  createdAt: Date;
  account: { email: string };
  participant: { handle: string; displayName: string; status: ParticipantView["status"]; lastSeenAt: Date | null; _count: { agents: number } };
}

/**
 * A member as `viewer` sees it. `can.roles` are the roles the viewer may give this member (its
 * current one included when it may stay); `roleLocked` says why the viewer may change nothing.
 */
export function presentMember(m: MemberRow, viewer: Actor) {
  const target = { participantId: m.participantId, role: m.role };
  const change = decide(viewer, "member.set_role", { target, role: m.role });
  return {
    participantId: m.participantId,
    handle: m.participant.handle,
    displayName: m.participant.displayName,
    email: m.account.email,
    role: m.role,
    status: m.participant.status,
    agents: m.participant._count.agents,
    joinedAt: m.createdAt.toISOString(),
    lastSeenAt: m.participant.lastSeenAt?.toISOString() ?? null,
    can: {
      setRole: change === true,
      roles: ASSIGNABLE.filter((role) => change === true && can(viewer, "member.set_role", { target, role })),
    },
    roleLocked: change === true ? null : change.message,
  };
}
