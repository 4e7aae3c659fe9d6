// Socket.IO rooms that events are addressed to. A socket joins its participant's audience, its
// workspace's, and one per room it is a member of.
export const audience = {
  room: (roomId: string) => `room:${roomId}`,
  participant: (participantId: string) => `participant:${participantId}`,
  workspace: (workspaceId: string) => `workspace:${workspaceId}`,
};
