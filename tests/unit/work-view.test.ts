// The Work page's pure parts: tasks nested under the task they are steps of (a parent the board left
// out makes its steps top level), and `status:updated` applied to the list of statuses that are not idle.
import { describe, expect, it } from "vitest";
import { patchStatuses } from "../../components/work/status-list";
import { nest } from "../../components/work/task-tree";
import type { TaskView, WorkStatusView } from "@switchboard/sdk/work";

const task = (id: string, parentId: string | null = null): TaskView => ({
  id,
  agentId: "agent-1",
  sessionId: "s",
  key: id,
  title: id,
  status: "pending",
  parentId,
  position: 0,
  roomId: null,
  threadRootId: null,
  bindingId: null,
  createdAt: "2026-12-02T08:00:00.000Z",
  updatedAt: "2026-12-02T08:00:00.000Z",
  startedAt: null,
  completedAt: null,
});

const status = (participantId: string, state: WorkStatusView["state"], text = ""): WorkStatusView => ({
  participantId,
  state,
  text,
  waitingFor: null,
  since: null,
  until: null,
});

describe("nest", () => {
  it("puts each step right after its task, one level deeper, keeping the board's order otherwise", () => {
    const out = nest([task("a"), task("b"), task("a2", "a"), task("a2x", "a2"), task("a1", "a")]);
    expect(out.map((n) => [n.task.id, n.depth])).toEqual([
      ["a", 0],
      ["a2", 1],
      ["a2x", 2],
      ["a1", 1],
      ["b", 0],
    ]);
  });

  it("lists a step whose task is not on the board at the top level", () => {
    expect(nest([task("orphan", "gone"), task("b")]).map((n) => [n.task.id, n.depth])).toEqual([
      ["orphan", 0],
      ["b", 0],
    ]);
  });
});

describe("patchStatuses", () => {
  it("replaces a participant's status, adds a new one, and drops one that turned idle", () => {
    const list = [status("p1", "working", "a"), status("p2", "blocked")];
    expect(patchStatuses(list, status("p1", "waiting", "b"))).toEqual([status("p2", "blocked"), status("p1", "waiting", "b")]);
    expect(patchStatuses(list, status("p3", "working"))).toHaveLength(3);
    expect(patchStatuses(list, status("p2", "idle"))).toEqual([status("p1", "working", "a")]);
  });
});
