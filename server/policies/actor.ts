// Who is acting. People and agents are both participants; a person's rights come from their member
// role, and an agent's from its owner's, capped at a plain member's (see `agentRole`).
export type WorkspaceRole = "owner" | "admin" | "member" | "guest";

export interface Actor {
  participantId: string;
  workspaceId: string;
  kind: "human" | "agent";
  role: WorkspaceRole;
  handle: string;
}

export const isAdmin = (actor: Actor): boolean => actor.role === "owner" || actor.role === "admin";

/**
 * An agent never has more rights than its owner, nor more than a plain member: a guest's agent is a
 * guest, anyone else's a member. An agent whose owner is no longer a member is a guest.
 */
export const agentRole = (ownerRole: WorkspaceRole | null): WorkspaceRole => (ownerRole === null || ownerRole === "guest" ? "guest" : "member");
