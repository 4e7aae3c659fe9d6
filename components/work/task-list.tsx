"use client";
// An agent's tasks: progress (completed of those not dropped), steps indented under their task, the
// one in progress highlighted, completed ones struck through; dropped ones behind a toggle.
import { Link } from "@/components/nav/workspace-routing";
import { useState } from "react";
import type { TaskView } from "@switchboard/sdk/work";
import { CheckIcon, ClockIcon, UsersIcon } from "@/components/ui/icons";
import { nest } from "./task-tree";
import { involvementHref, timelineHref } from "./work-hrefs";

export function Progress({ completed, total }: { completed: number; total: number }) {
  const pct = total === 0 ? 0 : Math.round((completed / total) * 100);
  return (
    <div className="flex items-center gap-2" data-testid="task-progress" data-completed={completed} data-total={total}>
      <div
        className="h-1.5 flex-1 overflow-hidden rounded-full bg-zinc-100"
        role="progressbar"
        aria-label="Tasks completed"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={completed}
      >
        <div className="h-full rounded-full bg-emerald-500 transition-[width] duration-500" style={{ width: `${pct}%` }} />
      </div>
      <span className="shrink-0 text-xs text-zinc-500 tabular-nums">
        {completed}/{total} done
      </span>
    </div>
  );
}

/** With `withLinks`, each task links to its timeline and to who drove it (shown on hover or focus). */
export function TaskList({ tasks, withLinks = false }: { tasks: TaskView[]; withLinks?: boolean }) {
  const [showDropped, setShowDropped] = useState(false);
  const dropped = tasks.filter((t) => t.status === "dropped").length;
  const shown = nest(showDropped ? tasks : tasks.filter((t) => t.status !== "dropped"));
  return (
    <div>
      <ul className="space-y-0.5" data-testid="task-list">
        {shown.map(({ task, depth }) => (
          <li
            key={task.id}
            data-testid="task"
            data-status={task.status}
            title={task.title}
            className={`group/task flex items-start gap-2 rounded-md py-1 pr-2 text-sm ${task.status === "in_progress" ? "bg-indigo-50 font-medium text-indigo-900 ring-1 ring-indigo-100" : ""}`}
            style={{ paddingLeft: 8 + depth * 20 }}
          >
            <TaskMark status={task.status} />
            <span
              className={`min-w-0 flex-1 break-words ${task.status === "completed" ? "text-zinc-500 line-through" : task.status === "dropped" ? "text-zinc-500 italic line-through" : "text-zinc-800"}`}
            >
              {task.title}
            </span>
            {withLinks && <TaskLinks task={task} />}
          </li>
        ))}
      </ul>
      {dropped > 0 && (
        <button
          type="button"
          onClick={() => setShowDropped((v) => !v)}
          aria-expanded={showDropped}
          data-testid="toggle-dropped"
          className="mt-1 ml-2 text-xs font-medium text-zinc-500 hover:text-zinc-800"
        >
          {showDropped ? "Hide dropped" : `Show ${dropped} dropped`}
        </button>
      )}
    </div>
  );
}

const ACTION =
  "flex h-5 w-5 items-center justify-center rounded text-zinc-500 hover:bg-zinc-100 hover:text-indigo-700 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none";

function TaskLinks({ task }: { task: TaskView }) {
  return (
    <span className="flex shrink-0 items-center gap-0.5 opacity-0 transition-opacity group-hover/task:opacity-100 group-focus-within/task:opacity-100 max-md:opacity-100">
      <Link
        href={timelineHref({ taskId: task.id })}
        className={ACTION}
        title="Timeline"
        aria-label={`Timeline of “${task.title}”`}
        data-testid="task-timeline-link"
      >
        <ClockIcon size={13} />
      </Link>
      <Link
        href={involvementHref({ kind: "task", taskId: task.id })}
        className={ACTION}
        title="Who drove this?"
        aria-label={`Who drove “${task.title}”?`}
        data-testid="task-involvement-link"
      >
        <UsersIcon size={13} />
      </Link>
    </span>
  );
}

function TaskMark({ status }: { status: TaskView["status"] }) {
  const label = { pending: "Pending", in_progress: "In progress", completed: "Completed", dropped: "Dropped" }[status];
  const shape =
    status === "completed" ? (
      <span className="flex h-4 w-4 items-center justify-center rounded-full bg-emerald-500 text-white">
        <CheckIcon size={11} strokeWidth={3} />
      </span>
    ) : status === "in_progress" ? (
      <span className="flex h-4 w-4 items-center justify-center rounded-full ring-2 ring-indigo-500 ring-inset">
        <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-indigo-500" />
      </span>
    ) : (
      <span className={`block h-4 w-4 rounded-full ring-1 ring-inset ${status === "dropped" ? "ring-zinc-300" : "ring-zinc-400"}`} />
    );
  return (
    <span className="mt-0.5 shrink-0" title={label}>
      {shape}
      <span className="sr-only">{label}: </span>
    </span>
  );
}
