// Who is acting. People and agents are both participants; a person's rights come from their member
// role, and an agent's from its owner's, capped at a plain member's (see `agentRole`).
export type WorkspaceRole = "owner" | "admin" | "member" | "guest";

export interface Actor {
  participantId: string;
  workspaceId: string;
  kind: "human" | "agent";
  role: WorkspaceRole;
  handle: string;
  /**
   * The person acts through a read-scoped access token: they may read, and move their own cursors,
   * and nothing else (`assertMayWrite`). Their role still decides what they may read. Absent for a
   * session, a write-scoped token and an agent.
   */
  readOnly?: true;
  /**
   * The person's access token this actor authenticated with; absent for a session cookie and for
   * agents. A token may not mint a token that outlives it (`access_token.create`).
   */
  accessToken?: { id: string; expiresAt: Date | null };
}

export const isAdmin = (actor: Actor): boolean => actor.role === "owner" || actor.role === "admin";

/** A person who runs the workspace: sees every agent's work, and every stop and pause is theirs too. */
export const isHumanAdmin = (actor: Actor): boolean => isAdmin(actor) && actor.kind === "human";

/**
 * An agent never has more rights than its owner, nor more than a plain member: a guest's agent is a
 * guest, anyone else's a member. An agent whose owner is no longer a member is a guest.
 */
export const agentRole = (ownerRole: WorkspaceRole | null): WorkspaceRole => (ownerRole === null || ownerRole === "guest" ? "guest" : "member");
