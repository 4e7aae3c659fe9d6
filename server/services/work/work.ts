// The work agents report beside their messages: the tasks they make for themselves, the files they
// touch and what their work shipped (branch, commit, pull request). Each report is tied, when known, to
// the room and thread it serves and to the runtime session (the runtime's own session id, or one of
// the agent's runtime bindings, which also says the room and thread).
//
// Reports change rows of the reporting agent only. Each is announced as `work:changed`, with the rows as
// stored, to those the policy (`work.read`) lets read them: a board applies it as it comes.
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { FileTouchView, linkWorkInput, reportFilesInput, reportTasksInput, TaskStatus, TaskView, WorkChange, WorkLinkView } from "@switchboard/sdk/work";
import { getDb } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { presentFileTouch, presentTask, presentWorkLink } from "../../presenters/work";
import { audience, publish, type Committed } from "../../realtime";
import { transaction } from "../../transaction";
import { componentMatcherFor, normalizePath } from "./components";
import { loadMembershipFor } from "../access/rooms";
import { checkThreadRoot } from "../messaging/threads";
import { groupBy } from "../../collections";

interface Scope {
  sessionId: string;
  roomId: string | null;
  threadRootId: string | null;
  bindingId: string | null;
}

type ScopeInput = { roomId?: string; threadRootId?: string; sessionId?: string; bindingId?: string };

/**
 * Where a report belongs. A binding of the agent's names its room, thread and session; a session id
 * that one of its bindings carries does too. A room named outright must be one the agent is in.
 */
export async function resolveScope(actor: Actor, input: ScopeInput): Promise<Scope> {
  const db = getDb();
  let binding: { id: string; roomId: string; threadKey: string; externalId: string | null } | null = null;
  if (input.bindingId) {
    binding = await db.runtimeBinding
      .findUnique({ where: { id: input.bindingId }, select: { id: true, agentId: true, roomId: true, threadKey: true, externalId: true } })
      .then((b) => (b && b.agentId === actor.participantId ? b : null));
    if (!binding) throw new AppError("NOT_FOUND", "bindingId: no such binding of this agent");
  } else if (input.sessionId) {
    binding = await db.runtimeBinding.findFirst({
      where: { agentId: actor.participantId, externalId: input.sessionId },
      select: { id: true, roomId: true, threadKey: true, externalId: true },
      orderBy: { lastUsedAt: { sort: "desc", nulls: "last" } },
    });
  }
  const roomId = input.roomId ?? binding?.roomId ?? null;
  const threadRootId = input.threadRootId ?? (binding && binding.roomId === roomId && binding.threadKey ? binding.threadKey : null);
  if (threadRootId && !roomId) throw new AppError("INVALID_PAYLOAD", "threadRootId: a thread goes with its roomId");
  if (input.roomId) await loadMembershipFor(actor, input.roomId); // NOT_A_MEMBER otherwise
  if (input.threadRootId) await checkThreadRoot(roomId!, input.threadRootId);
  return { sessionId: input.sessionId ?? binding?.externalId ?? "", roomId, threadRootId, bindingId: binding?.id ?? null };
}

/** A task's key when the agent gave none: its title, folded (a todo list names its items by their text). */
export function taskKey(task: { key?: string; title: string }): string {
  if (task.key) return task.key;
  const folded = task.title.toLowerCase().replace(/\s+/g, " ").trim();
  return folded.length <= 200 ? folded : `${folded.slice(0, 150)}#${createHash("sha1").update(folded).digest("hex").slice(0, 16)}`;
}

/**
 * Stores the agent's tasks: each made or updated by its key within the session, in the reported order;
 * with `complete`, the session's tasks the report no longer has are dropped (unless completed). A report
 * of some tasks only (not `complete`, e.g. one task a runtime created) keeps the others' order: tasks
 * already there keep their place, new ones go after the rest. Returns the reported tasks as stored.
 */
export async function reportTasks(actor: Actor, input: z.output<typeof reportTasksInput>): Promise<{ tasks: TaskView[]; dropped: number }> {
  authorize(actor, "work.report", undefined);
  const scope = await resolveScope(actor, input);
  const reported = input.tasks.map((t, position) => ({ ...t, key: taskKey(t), position }));
  const keys = new Set<string>();
  for (const t of reported) {
    if (keys.has(t.key)) throw new AppError("INVALID_PAYLOAD", `tasks: "${t.key}" is reported twice`);
    keys.add(t.key);
  }
  const now = new Date();
  // Two reports of one session at once (Claude Code's hooks fire together) may both create a key:
  // the one that loses reads the winner's rows and applies itself over them.
  const store = () =>
    transaction(async (tx) => {
      const existing = await tx.workTask.findMany({ where: { agentId: actor.participantId, sessionId: scope.sessionId } });
      const byKey = new Map(existing.map((t) => [t.key, t]));
      for (const t of reported) {
        if (t.parentKey && !keys.has(t.parentKey) && !byKey.has(t.parentKey))
          throw new AppError("INVALID_PAYLOAD", `tasks: parent "${t.parentKey}" of "${t.key}" is not a task of this session`);
        if (t.parentKey === t.key) throw new AppError("INVALID_PAYLOAD", `tasks: "${t.key}" cannot be its own parent`);
      }
      const last = Math.max(-1, ...existing.map((t) => t.position));
      const positionOf = (t: (typeof reported)[number]) => (input.complete ? t.position : (byKey.get(t.key)?.position ?? last + 1 + t.position));
      const ids = new Map<string, string>([...byKey].map(([k, t]) => [k, t.id]));
      for (const t of reported) if (!ids.has(t.key)) ids.set(t.key, newId());
      const stored: string[] = [];
      for (const t of reported) {
        const before = byKey.get(t.key);
        const id = ids.get(t.key)!;
        const data = {
          title: t.title,
          status: t.status,
          position: positionOf(t),
          roomId: scope.roomId ?? before?.roomId ?? null,
          threadRootId: scope.threadRootId ?? before?.threadRootId ?? null,
          bindingId: scope.bindingId ?? before?.bindingId ?? null,
          updatedAt: now,
          startedAt: before?.startedAt ?? (t.status === "in_progress" || t.status === "completed" ? now : null),
          completedAt: t.status === "completed" ? (before?.completedAt ?? now) : null,
        };
        if (before) await tx.workTask.update({ where: { id }, data });
        else
          await tx.workTask.create({
            data: { id, workspaceId: actor.workspaceId, agentId: actor.participantId, sessionId: scope.sessionId, key: t.key, ...data },
          });
        stored.push(id);
      }
      // Parents once every row exists (a parent may come later in the list than its steps).
      for (const t of reported) {
        const parentId = t.parentKey ? ids.get(t.parentKey)! : null;
        if (parentId !== (byKey.get(t.key)?.parentId ?? null)) await tx.workTask.update({ where: { id: ids.get(t.key)! }, data: { parentId } });
      }
      let gone: TaskView[] = [];
      if (input.complete) {
        const dropped = existing.filter((t) => !keys.has(t.key) && t.status !== "completed" && t.status !== "dropped");
        if (dropped.length) await tx.workTask.updateMany({ where: { id: { in: dropped.map((t) => t.id) } }, data: { status: "dropped", updatedAt: now } });
        gone = dropped.map((t) => presentTask({ ...t, status: "dropped", updatedAt: now }));
      }
      const rows = await tx.workTask.findMany({ where: { id: { in: stored } } });
      const order = new Map(stored.map((id, i) => [id, i]));
      return { tasks: rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!).map(presentTask), gone };
    });
  const [result, committed] = await store().catch((error: unknown) => {
    if (isUniqueViolation(error)) return store();
    throw error;
  });
  await changed(committed, actor, { what: "tasks", tasks: [...result.tasks, ...result.gone] });
  return { tasks: result.tasks, dropped: result.gone.length };
}

/**
 * One task of the session changed by its key (a runtime's update that may not repeat its title): its
 * status, its title, or both. Null when the session has no task of that key.
 */
export async function updateTask(actor: Actor, input: { sessionId: string; key: string; status?: TaskStatus; title?: string }): Promise<TaskView | null> {
  authorize(actor, "work.report", undefined);
  const task = await getDb().workTask.findUnique({
    where: { agentId_sessionId_key: { agentId: actor.participantId, sessionId: input.sessionId, key: input.key } },
    select: { title: true, status: true },
  });
  if (!task) return null;
  const { tasks } = await reportTasks(actor, {
    sessionId: input.sessionId,
    tasks: [{ key: input.key, title: input.title ?? task.title, status: input.status ?? (task.status as TaskStatus) }],
    complete: false,
  });
  return tasks[0];
}

/** Records files the agent touched (or commands it ran), for a task of the session when it names one. */
export async function reportFiles(actor: Actor, input: z.output<typeof reportFilesInput>): Promise<{ files: FileTouchView[] }> {
  authorize(actor, "work.report", undefined);
  const scope = await resolveScope(actor, input);
  const taskId = input.taskKey ? await taskIdOf(actor, scope, input.taskKey) : null;
  const at = new Date();
  const rows = input.files.map((f) => ({
    id: newId(),
    workspaceId: actor.workspaceId,
    agentId: actor.participantId,
    path: f.operation === "run" ? f.path : normalizePath(f.path),
    operation: f.operation,
    linesAdded: f.linesAdded ?? null,
    linesRemoved: f.linesRemoved ?? null,
    commit: input.commit ?? null,
    branch: input.branch ?? null,
    sessionId: scope.sessionId,
    taskId,
    roomId: scope.roomId,
    threadRootId: scope.threadRootId,
    bindingId: scope.bindingId,
    at,
  }));
  const [, committed] = await transaction((tx) => tx.fileTouch.createMany({ data: rows }));
  const componentOf = await componentMatcherFor(actor.workspaceId);
  const files = rows.map((r) => presentFileTouch(r, componentOf));
  await changed(committed, actor, { what: "files", files });
  return { files };
}

/** Ties a branch, commit or pull request to the session (and task) that produced it; once per session. */
export async function linkWork(actor: Actor, input: z.output<typeof linkWorkInput>): Promise<WorkLinkView> {
  authorize(actor, "work.report", undefined);
  const scope = await resolveScope(actor, input);
  const taskId = input.taskKey ? await taskIdOf(actor, scope, input.taskKey) : null;
  const key = { agentId_kind_value_sessionId: { agentId: actor.participantId, kind: input.kind, value: input.value, sessionId: scope.sessionId } };
  const update = {
    ...(input.title ? { title: input.title } : {}),
    ...(taskId ? { taskId } : {}),
    ...(scope.roomId ? { roomId: scope.roomId, threadRootId: scope.threadRootId } : {}),
    ...(scope.bindingId ? { bindingId: scope.bindingId } : {}),
  };
  const create = {
    id: newId(),
    workspaceId: actor.workspaceId,
    agentId: actor.participantId,
    kind: input.kind,
    value: input.value,
    sessionId: scope.sessionId,
    title: input.title ?? null,
    taskId,
    roomId: scope.roomId,
    threadRootId: scope.threadRootId,
    bindingId: scope.bindingId,
  };
  let stored;
  try {
    stored = await transaction((tx) => tx.workLink.upsert({ where: key, update, create }));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    stored = await transaction((tx) => tx.workLink.update({ where: key, data: update })); // made meanwhile by a concurrent report
  }
  const [row, committed] = stored;
  const link = presentWorkLink(row);
  await changed(committed, actor, { what: "links", links: [link] });
  return link;
}

async function taskIdOf(actor: Actor, scope: Scope, key: string): Promise<string> {
  const task = await getDb().workTask.findUnique({
    where: { agentId_sessionId_key: { agentId: actor.participantId, sessionId: scope.sessionId, key } },
    select: { id: true },
  });
  if (!task) throw new AppError("NOT_FOUND", `taskKey: no task "${key}" in this session`);
  return task.id;
}

/**
 * Tells those who may read the report what it changed, as stored (`work.read`): the members of the room
 * it served, the agent, its owner and the admins; one event per room (a task keeps the room it was first
 * reported for). Someone who may read the room without being in it (a public channel's reader) sees it
 * at their board's next read.
 */
async function changed(committed: Committed, actor: Actor, change: Omit<WorkChange, "agentId" | "roomId">): Promise<void> {
  const agent = await getDb().participant.findUnique({ where: { id: actor.participantId }, select: { ownerId: true } });
  const readers = [audience.participant(actor.participantId), audience.admins(actor.workspaceId)];
  if (agent?.ownerId) readers.push(audience.participant(agent.ownerId));
  const rows: { id: string; roomId: string | null }[] = change.tasks ?? change.files ?? change.links ?? [];
  for (const [room, group] of groupBy(rows, (r) => r.roomId ?? "")) {
    const ids = new Set(group.map((r) => r.id));
    const only = <T extends { id: string }>(list: T[] | undefined) => list?.filter((r) => ids.has(r.id));
    publish(committed, room ? [...readers, audience.room(room)] : readers, "work:changed", {
      agentId: actor.participantId,
      what: change.what,
      roomId: room || null,
      tasks: only(change.tasks),
      files: only(change.files),
      links: only(change.links),
    });
  }
}
