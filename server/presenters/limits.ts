// The workspace's limits as the admin console shows and edits them (never the workspace row itself).
import type { WorkspaceLimits } from "../services/governance/limits";

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
