// A report (`work:changed`, as stored) folded into the Work page's board: the card's tasks, progress,
// files, components and links move at once; what a report alone cannot say (an agent or a room the
// board does not know, a task beyond the card's list, a possible conflict) asks for the board again.
import { describe, expect, it } from "vitest";
import type { FileTouchView, TaskView, WorkChange } from "@switchboard/sdk/work";
import { applyWorkChange } from "../../components/work/apply-work-change";
import type { AgentWork, Board } from "../../components/work/types";

const AT = "2026-12-07T10:00:00.000Z";
const LATER = "2026-12-07T10:05:00.000Z";

const task = (id: string, status: TaskView["status"], position = 0): TaskView => ({
  id,
  agentId: "scout",
  sessionId: "s",
  key: id,
  title: id,
  status,
  parentId: null,
  position,
  roomId: "ops",
  threadRootId: null,
  bindingId: null,
  createdAt: AT,
  updatedAt: AT,
  startedAt: null,
  completedAt: null,
});

const touch = (path: string, operation: FileTouchView["operation"], component: string | null, agentId = "scout", at = LATER): FileTouchView => ({
  id: `${agentId}:${path}:${at}`,
  agentId,
  path,
  operation,
  component,
  linesAdded: 3,
  linesRemoved: 1,
  commit: null,
  branch: null,
  sessionId: "s",
  taskId: null,
  roomId: "ops",
  threadRootId: null,
  at,
});

const card = (id: string, over: Partial<AgentWork> = {}): AgentWork => ({
  agent: { id, handle: id, displayName: id, framework: null, owner: null, online: true, status: "active" },
  status: { participantId: id, state: "working", text: "", waitingFor: null, since: null, until: null },
  tasks: [],
  progress: { completed: 0, total: 0 },
  files: [],
  components: [],
  links: [],
  roomIds: [],
  pausedIn: [],
  lastActivityAt: AT,
  ...over,
});

const board = (agents: AgentWork[]): Board => ({
  since: "2026-12-06T10:00:00.000Z",
  rooms: [{ id: "ops", title: "ops", kind: "channel" }],
  agents,
  components: [],
  conflicts: [],
});

const change = (c: Omit<WorkChange, "agentId" | "roomId">): WorkChange => ({ agentId: "scout", roomId: "ops", ...c });

describe("applyWorkChange", () => {
  it("replaces the card's tasks by id, in the board's order, and moves its progress", () => {
    const before = board([card("scout", { tasks: [task("plan", "in_progress"), task("ship", "pending", 1)], progress: { completed: 0, total: 2 } })]);
    const { board: after, stale } = applyWorkChange(
      before,
      change({
        what: "tasks",
        tasks: [{ ...task("plan", "completed"), updatedAt: LATER }, { ...task("ship", "dropped", 1), updatedAt: LATER }, task("test", "in_progress", 2)],
      }),
    );
    expect(stale).toBe(false);
    const scout = after.agents[0];
    expect(scout.tasks.map((t) => `${t.id}:${t.status}`)).toEqual(["test:in_progress", "plan:completed", "ship:dropped"]);
    expect(scout.progress).toEqual({ completed: 1, total: 2 });
    expect(scout.lastActivityAt).toBe(LATER);
    expect(scout.roomIds).toEqual(["ops"]);
    expect(before.agents[0].tasks[0].status).toBe("in_progress"); // the board it was given is left as it was
  });

  it("folds files into the card's lines (the latest first), its components and the board's panel", () => {
    const before = board([
      card("scout", {
        files: [{ path: "README.md", component: "(root)", operations: ["read"], touches: 1, linesAdded: 0, linesRemoved: 0, lastAt: AT }],
        components: [{ name: "(root)", touches: 1, lastAt: AT }],
      }),
    ]);
    const { board: after, stale } = applyWorkChange(
      before,
      change({ what: "files", files: [touch("server/a.ts", "edit", "server"), touch("README.md", "edit", "(root)")] }),
    );
    expect(stale).toBe(false);
    const scout = after.agents[0];
    expect(scout.files.map((f) => [f.path, f.operations, f.touches, f.linesAdded])).toEqual([
      ["server/a.ts", ["edit"], 1, 3],
      ["README.md", ["read", "edit"], 2, 3],
    ]);
    expect(scout.components).toEqual([
      { name: "(root)", touches: 2, lastAt: LATER },
      { name: "server", touches: 1, lastAt: LATER },
    ]);
    expect(after.components.map((c) => [c.name, c.touches, c.agentsNow.map((a) => a.id)])).toEqual([
      ["server", 1, ["scout"]],
      ["(root)", 1, ["scout"]],
    ]);
  });

  it("puts a new link first and replaces one it has", () => {
    const link = {
      id: "l1",
      agentId: "scout",
      kind: "pull_request" as const,
      value: "https://example.com/pr/1",
      title: null,
      sessionId: "s",
      taskId: null,
      roomId: "ops",
      threadRootId: null,
      createdAt: AT,
    };
    const before = board([card("scout", { links: [link] })]);
    const { board: after } = applyWorkChange(before, change({ what: "links", links: [{ ...link, title: "Export" }] }));
    expect(after.agents[0].links).toEqual([{ ...link, title: "Export" }]);
  });

  it("asks for the board again for what a report cannot say alone", () => {
    const two = board([
      card("scout"),
      card("pilot", { files: [{ path: "server/a.ts", component: "server", operations: ["edit"], touches: 1, linesAdded: 1, linesRemoved: 0, lastAt: AT }] }),
    ]);
    // An agent the board does not have, and a room it has no title for.
    expect(applyWorkChange(two, { ...change({ what: "tasks", tasks: [task("x", "pending")] }), agentId: "newcomer" }).stale).toBe(true);
    expect(applyWorkChange(two, { ...change({ what: "tasks", tasks: [task("x", "pending")] }), roomId: "secret" }).stale).toBe(true);
    // An edit of a file another agent edited within the window may be a conflict; a read is none.
    expect(applyWorkChange(two, change({ what: "files", files: [touch("server/a.ts", "edit", "server")] })).stale).toBe(true);
    expect(applyWorkChange(two, change({ what: "files", files: [touch("server/a.ts", "read", "server")] })).stale).toBe(false);
    // A task the card does not list, when its list is full: the card may have left it out.
    const full = board([card("scout", { tasks: Array.from({ length: 50 }, (_, i) => task(`t${i}`, "pending", i)), progress: { completed: 0, total: 60 } })]);
    expect(applyWorkChange(full, change({ what: "tasks", tasks: [task("t55", "completed", 55)] })).stale).toBe(true);
  });
});
