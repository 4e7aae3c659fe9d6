// Where the Work page's links lead: who drove a pull request, a branch or a task (/work/involvement),
// and the timeline of a room, a thread or a task (/work/timeline). The pages read the same parameters.
import type { InvolvementInput } from "@switchboard/sdk/work";

/** What `work.involvement` is asked about. */
export type InvolvementTarget = InvolvementInput;
export type TimelineTarget = { roomId: string; threadRootId?: string | null } | { taskId: string };

export function involvementHref(target: InvolvementTarget): string {
  const q = new URLSearchParams(target.kind === "task" ? { kind: "task", taskId: target.taskId } : { kind: target.kind, value: target.value });
  return `/work/involvement?${q}`;
}

export function timelineHref(target: TimelineTarget): string {
  const q = new URLSearchParams(
    "taskId" in target ? { taskId: target.taskId } : { roomId: target.roomId, ...(target.threadRootId ? { threadRootId: target.threadRootId } : {}) },
  );
  return `/work/timeline?${q}`;
}

/** The page's parameters back, or null when they name nothing (the page says how to get there). */
export function involvementTarget(search: URLSearchParams): InvolvementTarget | null {
  const kind = search.get("kind");
  if (kind === "task") return search.get("taskId") ? { kind, taskId: search.get("taskId")! } : null;
  if ((kind === "pull_request" || kind === "branch") && search.get("value")?.trim()) return { kind, value: search.get("value")!.trim() };
  return null;
}

export function timelineTarget(search: URLSearchParams): TimelineTarget | null {
  if (search.get("taskId")) return { taskId: search.get("taskId")! };
  if (search.get("roomId")) return { roomId: search.get("roomId")!, threadRootId: search.get("threadRootId") || null };
  return null;
}

/** ".../pull/42" → "PR #42"; any other URL as it is. */
export function pullRequestName(url: string): string {
  const n = /\/pulls?\/(\d+)/.exec(url)?.[1];
  return n ? `PR #${n}` : url;
}
