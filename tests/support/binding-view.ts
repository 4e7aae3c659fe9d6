import type { BindingView } from "@switchboard/sdk/bindings";

/** A binding as the server presents it, for tests of what consumes one (adapters, the room's list). */
export function sampleBinding(over: Partial<BindingView> = {}): BindingView {
  return {
    id: "binding-1",
    agentId: "agent-1",
    agent: { id: "agent-1", handle: "scout", displayName: "Scout" },
    roomId: "room-1",
    threadRootId: null,
    runtime: "generic",
    externalId: null,
    openTaskId: null,
    runner: null,
    host: null,
    workdir: null,
    config: null,
    status: "idle",
    lastSeq: 0,
    turns: 0,
    resumes: 0,
    resumeFailures: 0,
    lastError: null,
    generation: 1,
    leaseUntil: null,
    createdAt: "2026-12-01T10:00:00.000Z",
    lastUsedAt: null,
    closedAt: null,
    closedBy: null,
    ...over,
  };
}
