// Socket.IO rooms that events are addressed to. A socket joins its participant's audience, its
// workspace's, one per room it is a member of, and one that says how it takes new messages.
export const audience = {
  room: (roomId: string) => `room:${roomId}`,
  participant: (participantId: string) => `participant:${participantId}`,
  workspace: (workspaceId: string) => `workspace:${workspaceId}`,
  /** Sockets with the `message:batch` feature: a batch of new messages in one `message:batch` event. */
  batchReceivers: "receivers:batch",
  /** Every other socket: one `message:new` per message. */
  singleReceivers: "receivers:single",
};
