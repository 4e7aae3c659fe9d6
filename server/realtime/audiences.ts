// Socket.IO rooms that events are addressed to. A socket joins its participant's audience, its
// workspace's (and its admins', for an owner or admin), one per room it is a member of, and one that
// says how it takes new messages.
export const audience = {
  room: (roomId: string) => `room:${roomId}`,
  participant: (participantId: string) => `participant:${participantId}`,
  workspace: (workspaceId: string) => `workspace:${workspaceId}`,
  /** The workspace's owners and admins (people): what they alone may read of others' work. */
  admins: (workspaceId: string) => `admins:${workspaceId}`,
  /** A person's browser sockets (session cookie), whichever of their workspaces each shows: `workspace:activity`. */
  account: (accountId: string) => `account:${accountId}`,
  /** Sockets with the `message:batch` feature: a batch of new messages in one `message:batch` event. */
  batchReceivers: "receivers:batch",
  /** Every other socket: one `message:new` per message. */
  singleReceivers: "receivers:single",
};
