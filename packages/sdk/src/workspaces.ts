// The workspaces one account belongs to (tRPC `workspaces.*`): listing them, joining another by an
// invite link, creating another. Each input written once, as in admin.ts; the rules are in
// server/services/identity/workspace-joins.ts.
import { z } from "zod";
import { TOKEN_MAX, WORKSPACE_NAME_MAX } from "./admin.ts";
import { DISPLAY_NAME_MAX, handleSchema } from "./contract.ts";

/** Who the account is in a workspace it joins or creates: a person of that workspace, named afresh there. */
const profile = {
  handle: handleSchema,
  displayName: z.string().trim().min(1).max(DISPLAY_NAME_MAX),
};

/** A signed-in account accepts an invite link into another workspace (tRPC `workspaces.joinByInvite`). */
export const joinByInviteInput = z.strictObject({ token: z.string().min(1).max(TOKEN_MAX), ...profile });
export type JoinByInviteInput = z.output<typeof joinByInviteInput>;

/** A signed-in account creates another workspace it owns, where the operator allows it (tRPC `workspaces.create`). */
export const createWorkspaceInput = z.strictObject({ name: z.string().trim().min(1).max(WORKSPACE_NAME_MAX), ...profile });
export type CreateWorkspaceInput = z.output<typeof createWorkspaceInput>;

/** An invite link as the signed-in account sees it (tRPC `workspaces.invite`). */
export const inviteForAccountInput = z.strictObject({ token: z.string().min(1).max(TOKEN_MAX) });

export type MembershipRole = "admin" | "guest" | "member" | "owner";

/** One of the account's workspaces (tRPC `workspaces.mine`), in the order it joined them. */
export interface WorkspaceMembershipView {
  id: string;
  name: string;
  role: MembershipRole;
  /** Who the account is there: a participant of that workspace alone. */
  participantId: string;
  handle: string;
  displayName: string;
  /** Unread messages over its rooms (`UNREAD` in the contract, as the sidebar counts them per room). */
  unread: number;
  /** Unread mentions of the account's participant there. */
  mentions: number;
}

/** What a workspace join or creation answers: where to go next. */
export interface JoinedWorkspace {
  workspaceId: string;
  participantId: string;
}

/**
 * An invite link for a signed-in account: the workspace it leads to, and whether the account is in it
 * already (`memberOf`: that workspace's id, for a link there); `suggested`: the account's name and
 * handle in its first workspace, for the join form; `handleTaken`: that handle is someone's there.
 */
export type InviteForAccount =
  | { valid: false }
  | {
      valid: true;
      workspaceName: string;
      invitedBy: string;
      role: Exclude<MembershipRole, "owner">;
      memberOf: string | null;
      suggested: { handle: string; displayName: string } | null;
      handleTaken: boolean;
    };
