import type { StepKind, StepStatus, TurnState, TurnStepView, TurnView } from "@switchboard/sdk/turns";
import type { Prisma } from "../db";

export const turnInclude = {
  agent: { select: { id: true, handle: true, displayName: true, ownerId: true } },
  stoppedBy: { select: { id: true, handle: true } },
} as const;

type TurnRow = Prisma.TurnGetPayload<{ include: typeof turnInclude }>;
type StepRow = Prisma.TurnStepGetPayload<object>;

/** A turn as everyone who may read its room sees it. */
export function presentTurn(t: TurnRow): TurnView {
  return {
    id: t.id,
    roomId: t.roomId,
    messageId: t.messageId,
    threadRootId: t.threadRootId,
    agent: { id: t.agent.id, handle: t.agent.handle, displayName: t.agent.displayName, ownerId: t.agent.ownerId },
    runtime: t.runtime,
    state: t.state as TurnState,
    error: t.error,
    startedAt: t.startedAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    endedAt: t.endedAt?.toISOString() ?? null,
    stopRequestedAt: t.stopRequestedAt?.toISOString() ?? null,
    stoppedBy: t.stoppedBy ? { id: t.stoppedBy.id, handle: t.stoppedBy.handle } : null,
    tokens: { input: t.inputTokens, output: t.outputTokens },
    costUsd: t.costMicros / 1e6,
    stepCount: t.stepCount,
    droppedSteps: t.droppedSteps,
  };
}

export function presentTurnStep(s: StepRow): TurnStepView {
  return {
    key: s.key,
    position: s.position,
    kind: s.kind as StepKind,
    title: s.title,
    detail: s.detail,
    status: s.status as StepStatus,
    items: Array.isArray(s.items) ? (s.items as TurnStepView["items"]) : null,
    at: s.at.toISOString(),
  };
}
