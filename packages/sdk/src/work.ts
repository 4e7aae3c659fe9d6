// The work board: what agents say they are doing (a status kept alive by a heartbeat), the tasks they
// make for themselves, the files they touch and what their work shipped (branch, commit, pull request).
// The shapes the socket events (`work:*`), tRPC (`work.*`), the MCP tools and the SDK share; the rules
// are in server/services/work/work.ts and server/services/work/components.ts.
import { z } from "zod";

const id = z.string().min(1).max(64);

export const WORK_STATES = ["idle", "working", "waiting", "blocked"] as const;
export type WorkState = (typeof WORK_STATES)[number];

export const TASK_STATUSES = ["pending", "in_progress", "completed", "dropped"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const FILE_OPERATIONS = ["read", "edit", "create", "delete", "run"] as const;
export type FileOperation = (typeof FILE_OPERATIONS)[number];

export const LINK_KINDS = ["branch", "commit", "pull_request"] as const;
export type WorkLinkKind = (typeof LINK_KINDS)[number];

/** How long a status holds without a heartbeat, unless the report says otherwise. */
export const DEFAULT_STATUS_TTL_SEC = 120;
export const MAX_STATUS_TTL_SEC = 24 * 60 * 60;
/** A state a model set itself (the set_status tool, no `ttl_seconds`) holds this long: a model calls it now and then, not on a timer. */
export const MODEL_STATUS_TTL_SEC = 900;

/**
 * What a participant is doing now. Anything but `idle` holds until `until` unless renewed (sent again:
 * the SDK does so every third of the TTL); past it, it reads as idle, and `status:updated` says so.
 */
export interface WorkStatusView {
  participantId: string;
  state: WorkState;
  text: string;
  /** `waiting`: the person (or agent) it waits for, when it said. */
  waitingFor: { id: string; handle: string; displayName: string; kind: "human" | "agent" } | null;
  /** When the state was set; null: never. */
  since: string | null;
  /** Until when it holds without a heartbeat; null: until changed (idle, and people's statuses). */
  until: string | null;
}

export interface TaskView {
  id: string;
  agentId: string;
  /** The runtime session it serves (a Claude session id, a Codex thread id); null: none said. */
  sessionId: string | null;
  /** The agent's own id for it (or one derived from its title). */
  key: string;
  title: string;
  status: TaskStatus;
  parentId: string | null;
  position: number;
  roomId: string | null;
  threadRootId: string | null;
  bindingId: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

export interface FileTouchView {
  id: string;
  agentId: string;
  /** A file's path relative to the repository (a command, for `run`). */
  path: string;
  operation: FileOperation;
  /** From the workspace's component map; null for commands. */
  component: string | null;
  linesAdded: number | null;
  linesRemoved: number | null;
  commit: string | null;
  branch: string | null;
  sessionId: string | null;
  taskId: string | null;
  roomId: string | null;
  threadRootId: string | null;
  at: string;
}

export interface WorkLinkView {
  id: string;
  agentId: string;
  kind: WorkLinkKind;
  /** The branch's name, the commit's hash, or the pull request's URL. */
  value: string;
  title: string | null;
  sessionId: string | null;
  taskId: string | null;
  roomId: string | null;
  threadRootId: string | null;
  createdAt: string;
}

/**
 * An agent's report, as those who may read it are told (`work:changed`): what changed, as stored. Tasks
 * are every task the report changed (those a whole list dropped too); a report scoped to a room goes to
 * the room's members, the agent, its owner and the workspace's admins.
 */
export interface WorkChange {
  agentId: string;
  what: "tasks" | "files" | "links";
  /** The room the report served (null: none), as each row says too. */
  roomId: string | null;
  tasks?: TaskView[];
  files?: FileTouchView[];
  links?: WorkLinkView[];
}

/** A board's line for one file an agent touched: every touch of it, folded. */
export interface FileSummary {
  path: string;
  component: string | null;
  operations: FileOperation[];
  touches: number;
  linesAdded: number;
  linesRemoved: number;
  lastAt: string;
}

/** One line per path, latest first (`files` are latest first): the board's, and a live change's. */
export function summarizeFiles(files: FileTouchView[], into: FileSummary[] = []): FileSummary[] {
  const byPath = new Map(into.map((s) => [s.path, { ...s, operations: [...s.operations] }]));
  const touched: string[] = [];
  for (const f of files) {
    const s = byPath.get(f.path) ?? { path: f.path, component: f.component, operations: [], touches: 0, linesAdded: 0, linesRemoved: 0, lastAt: f.at };
    if (!s.operations.includes(f.operation)) s.operations.push(f.operation);
    s.touches++;
    s.linesAdded += f.linesAdded ?? 0;
    s.linesRemoved += f.linesRemoved ?? 0;
    if (f.at > s.lastAt) s.lastAt = f.at;
    byPath.set(f.path, s);
    if (!touched.includes(f.path)) touched.push(f.path);
  }
  if (into.length === 0) return [...byPath.values()];
  // Folded into a board's lines: what was just touched goes first.
  return [...touched.map((p) => byPath.get(p)!), ...into.filter((s) => !touched.includes(s.path)).map((s) => byPath.get(s.path)!)];
}

const TASK_RANK = { in_progress: 0, pending: 1, completed: 2, dropped: 3 } as const;
/** In progress first, then pending, in the agent's own order; then the finished, latest first. */
export function orderTasks(tasks: TaskView[]): TaskView[] {
  return [...tasks].sort((a, b) => {
    const r = TASK_RANK[a.status] - TASK_RANK[b.status];
    if (r !== 0) return r;
    if (a.status === "completed" || a.status === "dropped") return b.updatedAt.localeCompare(a.updatedAt);
    return (a.sessionId ?? "").localeCompare(b.sessionId ?? "") || a.position - b.position;
  });
}

/** One entry of a workspace's component map: a name and the globs of the paths that belong to it. */
export interface ComponentRule {
  name: string;
  patterns: string[];
}

/** One component of a draft map, against the paths agents touched lately (`work.previewComponents`). */
export interface ComponentPreview {
  name: string;
  /** No entry of the map matched: the path's top folder. */
  fallback: boolean;
  paths: number;
  examples: string[];
}
/** What a draft map would make of the `paths` agents touched lately. */
export interface ComponentMapPreview {
  components: ComponentPreview[];
  paths: number;
}

// ---- inputs ----

/** What a status says, at most. */
export const STATUS_TEXT_MAX = 200;

export const setWorkStatusInput = z.strictObject({
  state: z.enum(WORK_STATES),
  text: z.string().trim().max(STATUS_TEXT_MAX).default(""),
  /** `waiting`: whom for (a participant id). */
  waitingFor: id.optional(),
  /** Seconds the state holds without being sent again (ignored for `idle`). */
  ttlSec: z.number().int().min(5).max(MAX_STATUS_TTL_SEC).default(DEFAULT_STATUS_TTL_SEC),
});

/**
 * What a report is about, each part optional: the room and thread it serves, and the runtime session
 * (`sessionId`, the runtime's own id) or runtime binding. A session id that one of the agent's runtime
 * bindings carries fills in its room and thread.
 */
const scope = {
  roomId: id.optional(),
  threadRootId: id.optional(),
  sessionId: z.string().trim().min(1).max(255).optional(),
  bindingId: id.optional(),
};
const key = z.string().trim().min(1).max(200);

export const taskInput = z.strictObject({
  /** The agent's own id for the task; the title stands in when it has none. */
  key: key.optional(),
  title: z.string().trim().min(1).max(500),
  status: z.enum(TASK_STATUSES).default("pending"),
  /** A task of this report (its key) that this one is a step of. */
  parentKey: key.optional(),
});

export const MAX_TASKS_PER_REPORT = 200;

/**
 * Tasks, in their order. `complete` (the default): the list is the session's whole list, as a todo
 * tool reports it each time, so tasks it no longer has are dropped (unless they were completed).
 */
export const reportTasksInput = z.strictObject({
  ...scope,
  tasks: z.array(taskInput).max(MAX_TASKS_PER_REPORT),
  complete: z.boolean().default(true),
});

export const fileInput = z.strictObject({
  path: z.string().trim().min(1).max(1000),
  operation: z.enum(FILE_OPERATIONS),
  linesAdded: z.number().int().min(0).max(10_000_000).optional(),
  linesRemoved: z.number().int().min(0).max(10_000_000).optional(),
});

export const MAX_FILES_PER_REPORT = 200;

export const reportFilesInput = z.strictObject({
  ...scope,
  /** The task (its key, in this session) the files were touched for. */
  taskKey: key.optional(),
  commit: z.string().trim().min(4).max(64).optional(),
  branch: z.string().trim().min(1).max(255).optional(),
  files: z.array(fileInput).min(1).max(MAX_FILES_PER_REPORT),
});

export const linkWorkInput = z
  .strictObject({
    ...scope,
    taskKey: key.optional(),
    kind: z.enum(LINK_KINDS),
    value: z.string().trim().min(1).max(1000),
    title: z.string().trim().min(1).max(300).optional(),
  })
  .refine((l) => l.kind !== "pull_request" || /^https?:\/\/\S+$/.test(l.value), { message: "a pull request is its URL (http or https)", path: ["value"] });

export const COMPONENT_NAME_MAX = 80;
export const componentRuleInput = z.strictObject({
  name: z.string().trim().min(1).max(COMPONENT_NAME_MAX),
  patterns: z.array(z.string().trim().min(1).max(300)).min(1).max(50),
});
export const MAX_COMPONENTS = 100;
export const setComponentMapInput = z.strictObject({ components: z.array(componentRuleInput).max(MAX_COMPONENTS) });

// ---- the Work page's reads (tRPC `work.board`, `work.involvement`, `work.timeline`) ----

/** The board's window: the last `sinceHours` hours, a day unless said, thirty days at most. */
export const DEFAULT_BOARD_HOURS = 24;
export const MAX_BOARD_HOURS = 24 * 30;
export const workBoardInput = z.strictObject({ sinceHours: z.number().int().min(1).max(MAX_BOARD_HOURS).default(DEFAULT_BOARD_HOURS) });

/** Who drove a pull request or a branch (by its URL or name), or a task. */
export const involvementInput = z.union([
  z.strictObject({ kind: z.enum(["pull_request", "branch"]), value: z.string().trim().min(1).max(1000) }),
  z.strictObject({ kind: z.literal("task"), taskId: id }),
]);
export type InvolvementInput = z.output<typeof involvementInput>;

/** A timeline page holds this many events unless asked for fewer or more (up to MAX_TIMELINE_PAGE). */
export const TIMELINE_PAGE = 100;
export const MAX_TIMELINE_PAGE = 200;
/** A timeline cursor: the oldest event a page showed, `<time>|<source letter>:<row id>`. */
export const TIMELINE_CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([a-z]:[0-9a-f-]{1,64})$/;
const timelinePage = {
  /** The `nextCursor` of the page after the one wanted (the newest page without it). */
  cursor: z.string().max(120).regex(TIMELINE_CURSOR, "not a timeline cursor").optional(),
  limit: z.number().int().min(1).max(MAX_TIMELINE_PAGE).default(TIMELINE_PAGE),
  /** tRPC's infinite queries add the page `direction`; pages only go forward, to earlier events. */
  direction: z.literal("forward").optional(),
};
/** A room's (or one thread's) timeline, or a task's. */
export const timelineInput = z.union([
  z.strictObject({ roomId: id, threadRootId: id.optional(), ...timelinePage }),
  z.strictObject({ taskId: id, ...timelinePage }),
]);
/** What the service reads: the page's direction is tRPC's alone. */
export type TimelineInput = DistributiveOmit<z.output<typeof timelineInput>, "direction">;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
