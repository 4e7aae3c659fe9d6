import type { BindingView } from "@switchboard/sdk/bindings";
import type { Prisma } from "../db";

export const bindingInclude = {
  agent: { select: { id: true, handle: true, displayName: true, ownerId: true } },
  closedBy: { select: { id: true, handle: true } },
} as const;

type BindingRow = Prisma.RuntimeBindingGetPayload<{ include: typeof bindingInclude }>;

/**
 * A binding as everyone who may see it sees it. A turn that took it and never let go before its lease
 * ran out (its runner stopped mid-turn) shows as `stale` until the next turn takes it.
 */
export function presentBinding(b: BindingRow, now = new Date()): BindingView {
  const stale = b.status === "active" && (b.leaseUntil === null || b.leaseUntil <= now);
  const config = b.config && typeof b.config === "object" && !Array.isArray(b.config) ? (b.config as Record<string, unknown>) : null;
  return {
    id: b.id,
    agentId: b.agentId,
    agent: { id: b.agent.id, handle: b.agent.handle, displayName: b.agent.displayName },
    roomId: b.roomId,
    threadRootId: b.threadKey === "" ? null : b.threadKey,
    runtime: b.runtime,
    externalId: b.externalId,
    openTaskId: b.openTaskId,
    runner: b.runner,
    host: b.host,
    workdir: b.workdir,
    config,
    status: stale ? "stale" : b.status,
    lastSeq: b.lastSeq,
    turns: b.turns,
    resumes: b.resumes,
    resumeFailures: b.resumeFailures,
    lastError: b.lastError,
    generation: b.generation,
    leaseUntil: b.status === "active" && !stale ? (b.leaseUntil?.toISOString() ?? null) : null,
    createdAt: b.createdAt.toISOString(),
    lastUsedAt: b.lastUsedAt?.toISOString() ?? null,
    closedAt: b.closedAt?.toISOString() ?? null,
    closedBy: b.closedBy,
  };
}
