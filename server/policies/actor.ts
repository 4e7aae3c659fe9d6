// Who is acting. People and agents are both participants; a person's rights come from their member
// role, and an agent never has more rights than a plain member (its owner's rights cap it later).
export type WorkspaceRole = "owner" | "admin" | "member" | "guest";

export interface Actor {
  participantId: string;
  workspaceId: string;
  kind: "human" | "agent";
  role: WorkspaceRole;
  handle: string;
}

export const isAdmin = (actor: Actor): boolean => actor.role === "owner" || actor.role === "admin";
