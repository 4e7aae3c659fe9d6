// Usage as it leaves the server: one reported model call, and the workspace's price table.
import type { UsageView } from "@switchboard/sdk/contract";

/** A stored usage record: the view's fields, as the database keeps them. */
type UsageRow = Omit<UsageView, "occurredAt"> & { occurredAt: Date };

export function presentUsage(r: UsageRow): UsageView {
  return {
    id: r.id,
    reportId: r.reportId,
    agentId: r.agentId,
    ownerId: r.ownerId,
    requesterId: r.requesterId,
    roomId: r.roomId,
    messageId: r.messageId,
    taskId: r.taskId,
    model: r.model,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    cachedTokens: r.cachedTokens,
    costUsd: r.costUsd,
    costSource: r.costSource,
    occurredAt: r.occurredAt.toISOString(),
  };
}

/** The columns a presented price needs, for Prisma `select`. */
export const priceSelect = { model: true, inputPerMTok: true, outputPerMTok: true, cachedPerMTok: true, updatedAt: true } as const;

/** A model's price per million tokens (USD). */
export function presentPrice(p: { model: string; inputPerMTok: number; outputPerMTok: number; cachedPerMTok: number; updatedAt: Date }) {
  return { model: p.model, inputPerMTok: p.inputPerMTok, outputPerMTok: p.outputPerMTok, cachedPerMTok: p.cachedPerMTok, updatedAt: p.updatedAt.toISOString() };
}
