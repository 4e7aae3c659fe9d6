// An agent's tasks as the Work page lists them: each step right after the task it is a step of.
import type { TaskView } from "@switchboard/sdk/work";

export interface TaskNode {
  task: TaskView;
  depth: number;
}

/** Tasks in board order, each step right after its task (a parent the board left out: top level). */
export function nest(tasks: TaskView[]): TaskNode[] {
  const ids = new Set(tasks.map((t) => t.id));
  const children = new Map<string, TaskView[]>();
  for (const t of tasks) if (t.parentId && ids.has(t.parentId)) children.set(t.parentId, [...(children.get(t.parentId) ?? []), t]);
  const out: TaskNode[] = [];
  const visit = (t: TaskView, depth: number) => {
    out.push({ task: t, depth });
    for (const c of children.get(t.id) ?? []) visit(c, depth + 1);
  };
  for (const t of tasks) if (!t.parentId || !ids.has(t.parentId)) visit(t, 0);
  return out;
}
