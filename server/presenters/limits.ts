// The workspace's limits as the admin console shows and edits them (never the workspace row itself).

/** A workspace's message limits: what the send path enforces and the admin console edits. */
export interface WorkspaceLimits {
  agentMessagesPerMinute: number;
  agentBurst: number;
  peopleMessagesPerMinute: number;
  peopleBurst: number;
  loopGuardMessages: number;
  loopGuardWindowSec: number;
}

/** The columns presented limits need, for Prisma `select`. */
export const workspaceLimitsSelect = {
  agentMessagesPerMinute: true,
  agentBurst: true,
  peopleMessagesPerMinute: true,
  peopleBurst: true,
  loopGuardMessages: true,
  loopGuardWindowSec: true,
} as const;

export function presentWorkspaceLimits(w: WorkspaceLimits): WorkspaceLimits {
  return {
    agentMessagesPerMinute: w.agentMessagesPerMinute,
    agentBurst: w.agentBurst,
    peopleMessagesPerMinute: w.peopleMessagesPerMinute,
    peopleBurst: w.peopleBurst,
    loopGuardMessages: w.loopGuardMessages,
    loopGuardWindowSec: w.loopGuardWindowSec,
  };
}
