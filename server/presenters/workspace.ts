// What the signed-in viewer may do across their workspace, asked of the policy table once per page
// load, so the browser shows only what it may use and never re-derives a rule from the role.
import { can, type Actor } from "../policies";

export interface WorkspaceCan {
  /** The admin console: members and roles, agents, settings, limits, prices and budgets. */
  manage: boolean;
  /** Invite links for members and guests; `inviteAdmins` for admins (the owner's alone). */
  invite: boolean;
  inviteAdmins: boolean;
  /** The whole workspace's usage; otherwise only what the viewer's own agents spent. */
  readAllUsage: boolean;
  createChannel: boolean;
  browseChannels: boolean;
  createAgent: boolean;
}

export function workspaceCan(actor: Actor): WorkspaceCan {
  const workspace = { workspaceId: actor.workspaceId };
  return {
    manage: can(actor, "workspace.configure", workspace),
    invite: can(actor, "invite.create", { role: "member" }),
    inviteAdmins: can(actor, "invite.create", { role: "admin" }),
    readAllUsage: can(actor, "usage.read_workspace", workspace),
    createChannel: can(actor, "channel.create", undefined),
    browseChannels: can(actor, "channel.browse", undefined),
    createAgent: can(actor, "agent.create", undefined),
  };
}
