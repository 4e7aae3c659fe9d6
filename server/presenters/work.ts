import type { FileTouchView, TaskView, WorkLinkView, WorkStatusView } from "@switchboard/sdk/work";

/** Which component of the workspace a file path belongs to (services/work/components.ts builds one). */
export type ComponentOf = (path: string) => string;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const workStatusSelect = {
  id: true,
  kind: true,
  workState: true,
  workStatus: true,
  workStateAt: true,
  workUntil: true,
  waitingFor: { select: { id: true, handle: true, displayName: true, kind: true } },
} as const;

interface StatusRow {
  id: string;
  kind: "human" | "agent";
  workState: "idle" | "working" | "waiting" | "blocked";
  workStatus: string;
  workStateAt: Date | null;
  workUntil: Date | null;
  waitingFor: { id: string; handle: string; displayName: string; kind: "human" | "agent" } | null;
}

/** A status past its `until` reads as idle, whether or not the sweeper has cleared it yet. */
export function presentWorkStatus(row: StatusRow, now = new Date()): WorkStatusView {
  const expired = row.workUntil !== null && row.workUntil <= now;
  if (expired) return { participantId: row.id, state: "idle", text: "", waitingFor: null, since: row.workUntil!.toISOString(), until: null };
  return {
    participantId: row.id,
    state: row.workState,
    text: row.workStatus,
    waitingFor: row.workState === "waiting" ? row.waitingFor : null,
    since: iso(row.workStateAt),
    until: iso(row.workUntil),
  };
}

interface TaskRow {
  id: string;
  agentId: string;
  sessionId: string;
  key: string;
  title: string;
  status: TaskView["status"];
  parentId: string | null;
  position: number;
  roomId: string | null;
  threadRootId: string | null;
  bindingId: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

export function presentTask(t: TaskRow): TaskView {
  return {
    id: t.id,
    agentId: t.agentId,
    sessionId: t.sessionId || null,
    key: t.key,
    title: t.title,
    status: t.status,
    parentId: t.parentId,
    position: t.position,
    roomId: t.roomId,
    threadRootId: t.threadRootId,
    bindingId: t.bindingId,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    startedAt: iso(t.startedAt),
    completedAt: iso(t.completedAt),
  };
}

interface FileRow {
  id: string;
  agentId: string;
  path: string;
  operation: FileTouchView["operation"];
  linesAdded: number | null;
  linesRemoved: number | null;
  commit: string | null;
  branch: string | null;
  sessionId: string;
  taskId: string | null;
  roomId: string | null;
  threadRootId: string | null;
  at: Date;
}

export function presentFileTouch(f: FileRow, componentOf: ComponentOf): FileTouchView {
  return {
    id: f.id,
    agentId: f.agentId,
    path: f.path,
    operation: f.operation,
    component: f.operation === "run" ? null : componentOf(f.path),
    linesAdded: f.linesAdded,
    linesRemoved: f.linesRemoved,
    commit: f.commit,
    branch: f.branch,
    sessionId: f.sessionId || null,
    taskId: f.taskId,
    roomId: f.roomId,
    threadRootId: f.threadRootId,
    at: f.at.toISOString(),
  };
}

interface LinkRow {
  id: string;
  agentId: string;
  kind: WorkLinkView["kind"];
  value: string;
  title: string | null;
  sessionId: string;
  taskId: string | null;
  roomId: string | null;
  threadRootId: string | null;
  createdAt: Date;
}

export function presentWorkLink(l: LinkRow): WorkLinkView {
  return {
    id: l.id,
    agentId: l.agentId,
    kind: l.kind,
    value: l.value,
    title: l.title,
    sessionId: l.sessionId || null,
    taskId: l.taskId,
    roomId: l.roomId,
    threadRootId: l.threadRootId,
    createdAt: l.createdAt.toISOString(),
  };
}
