// What an agent served over A2A is in the workspace (bridges/a2a/inbound translates it to the protocol).
//
// A caller (an agent's key or a person's token of this workspace) calls a served agent as the caller
// itself: its messages are the caller's messages, in the DM between the two (or a room the caller
// names), under the same consent rules as in rooms. One A2A conversation (`contextId`) is one thread;
// one request (`taskId`) is the caller's messages stored with client ids `a2a:<taskId>:…`, opened once
// per message id of the caller's (a retry gets the same task: `openTask`). The task's
// progress is read back from the room, never kept beside it: the agent's receipt on the request
// (processing → working; processed → completed; failed → failed), its replies (messages whose cause is
// the request) and an open question it asks that the caller may answer (input required). A canceled
// task stays canceled. So people see and join the whole exchange in the room, live.
import { createHash } from "node:crypto";
import type { AgentView } from "@switchboard/sdk/contract";
import type { QuestionAnswer, QuestionKind, QuestionOption } from "@switchboard/sdk/questions";
import { getDb } from "../../db";
import { newId } from "../../ids";
import { AppError, isUniqueViolation } from "../../errors";
import { a2aTaskScope, authorize, can, type Actor } from "../../policies";
import { actorForMember } from "../identity/accounts";
import { actorForAgent, getAgent } from "../identity/agents";
import { recordAudit } from "../governance/audit";
import { assertCanReach } from "../access/reach";
import { answerQuestion, getQuestion } from "../questions/questions";
import { loadMembershipFor } from "../access/rooms";
import { openDirect } from "../rooms/rooms";
import { sendMessage } from "../messaging/sending";

/** A caller's A2A message id as it is kept (a task's `messageKey`, a request's client id): hashed if long. */
const keyOf = (messageId: string) => (messageId.length <= 64 ? messageId : createHash("sha256").update(messageId).digest("hex"));
/** The caller's client ids under one task: `a2a:<taskId>:<keyOf(the A2A message id)>`. */
const taskPrefix = (taskId: string) => `a2a:${taskId}:`;
const clientIdFor = (taskId: string, messageId: string) => taskPrefix(taskId) + keyOf(messageId);

/** At most this many replies make one task's artifacts. */
const MAX_REPLIES = 200;

export interface ServedAgent {
  id: string;
  workspaceId: string;
  handle: string;
  displayName: string;
  description: string;
  capabilities: string[];
}

/**
 * The agent served at `/a2a/<handle>`: in the caller's workspace when there is a caller; without one
 * (an agent card fetched anonymously), the one served agent with that handle, if only one workspace
 * serves one. PARTICIPANT_NOT_FOUND when it is not served, or is suspended.
 */
export async function servedAgent(handle: string, workspaceId?: string): Promise<ServedAgent> {
  const rows = await getDb().participant.findMany({
    where: { handle: handle.toLowerCase(), kind: "agent", a2aServed: true, status: "active", ...(workspaceId ? { workspaceId } : {}) },
    select: { id: true, workspaceId: true, handle: true, displayName: true, description: true, capabilities: true },
    take: 2,
  });
  if (rows.length > 1)
    throw new AppError("PARTICIPANT_NOT_FOUND", `More than one workspace here serves an agent @${handle}: fetch its card with a credential of its workspace`);
  if (rows.length === 0) throw new AppError("PARTICIPANT_NOT_FOUND", `No agent @${handle} is served over A2A here`);
  const [row] = rows;
  return { ...row, capabilities: Array.isArray(row.capabilities) ? row.capabilities.filter((c): c is string => typeof c === "string") : [] };
}

/** The owner (or an admin) serves an agent over A2A, or stops. */
export async function setA2aServed(actor: Actor, agentId: string, served: boolean): Promise<AgentView> {
  const db = getDb();
  const agent = await db.participant.findFirst({ where: { id: agentId, workspaceId: actor.workspaceId, kind: "agent" }, select: { ownerId: true } });
  if (!agent) throw new AppError("PARTICIPANT_NOT_FOUND", "No such agent");
  authorize(actor, "agent.manage", { workspaceId: actor.workspaceId, ownerId: agent.ownerId });
  await db.$transaction(async (tx) => {
    await tx.participant.update({ where: { id: agentId }, data: { a2aServed: served } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: served ? "agent.a2a_served" : "agent.a2a_stopped",
      subjectType: "participant",
      subjectId: agentId,
      data: {},
    });
  });
  return getAgent(actor, agentId);
}

/** Throws unless the caller may talk to the agent: not itself, and reachable as a DM would need. */
export async function assertMayCall(caller: Actor, agent: ServedAgent): Promise<void> {
  authorize(caller, "a2a.call", { agent });
  await assertCanReach(caller, [agent.id]);
}

export interface NewRequest {
  /** The A2A message's id: the caller's key for this request. */
  messageId: string;
  /** The context the caller continues, or names for a new one; none: a new one. */
  contextId?: string;
  /** The request as it is stored in the room. */
  text: string;
  /** A new context only: the room to hold its thread (else the DM between the caller and the agent). */
  roomId?: string;
}

/** How the bridge records a task it opens: its state, and its own JSON once its ids are known. */
export interface OpenedRecord {
  state: string;
  task: (ids: { taskId: string; contextId: string }) => string;
}

/**
 * Opens the task for a caller's new request (an A2A message without a taskId), once per message:
 * the task keeps the message's id (`messageKey`, unique per caller and agent), so a retry of the same
 * message, later or racing it, gets the same task back (`created: false`) and the request is stored
 * in the room once. The same messageId with other content (text, contextId or room) is refused with
 * A2A_MESSAGE_ID_REUSED. The request itself is stored by `postRequest`, when the task runs.
 */
export async function openTask(caller: Actor, agent: ServedAgent, request: NewRequest, opened: OpenedRecord): Promise<{ task: StoredTask; created: boolean }> {
  if (!request.text.trim()) throw new AppError("MESSAGE_EMPTY", "The message has no text or data part");
  const db = getDb();
  const key = { callerId: caller.participantId, agentId: agent.id, messageKey: keyOf(request.messageId) };
  const hash = requestHash(request);
  const found = await db.a2aTask.findUnique({ where: { callerId_agentId_messageKey: key } });
  if (found) return { task: await retried(caller, agent, found, request, hash, opened.state), created: false };
  const context = await contextFor(caller, agent, request);
  const taskId = newId();
  try {
    // A new context is stored with its first task, so a retry that loses the race leaves none behind.
    const task = await db.$transaction(async (tx) => {
      if (context.isNew) await tx.a2aContext.create({ data: context.row });
      const { id: contextId, roomId, workspaceId } = context.row;
      return tx.a2aTask.create({
        data: { id: taskId, workspaceId, contextId, roomId, ...key, requestHash: hash, state: opened.state, task: opened.task({ taskId, contextId }) },
      });
    });
    return { task, created: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A retry of the same message opened its task first, or another request the same new context:
    // the next pass finds them.
    return openTask(caller, agent, request, opened);
  }
}

/** What a new request asks, to tell a retry (the same) from a messageId used again for another. */
function requestHash(request: NewRequest): string {
  return createHash("sha256")
    .update(JSON.stringify([request.text, request.contextId ?? null, request.roomId ?? null]))
    .digest("hex");
}

/** A retry of the message that opened `task`: refused if it asks something else. */
async function retried(caller: Actor, agent: ServedAgent, task: StoredTask, request: NewRequest, hash: string, openedState: string): Promise<StoredTask> {
  if (task.requestHash !== hash) {
    throw new AppError(
      "A2A_MESSAGE_ID_REUSED",
      `messageId ${request.messageId.slice(0, 64)} already opened task ${task.id} with other content; send another request with a new messageId`,
    );
  }
  // Still as opened: the first attempt may have stopped (a crash) before storing the request. Stored
  // once whoever gets there first, so this is a lookup when it did not.
  if (task.state === openedState) await postRequest(caller, agent, { taskId: task.id, messageId: request.messageId, text: request.text });
  return task;
}

/** Where a new request goes: the caller's context it names, or a new one (not yet stored) in the room named, else the DM. */
async function contextFor(caller: Actor, agent: ServedAgent, request: NewRequest) {
  const db = getDb();
  const existing = request.contextId ? await db.a2aContext.findUnique({ where: { id: request.contextId } }) : null;
  if (existing) {
    authorize(caller, "a2a.task.read", { ...existing, calledAgentId: agent.id });
    return { isNew: false, row: existing };
  }
  const roomId = request.roomId ? await roomForContext(caller, agent, request.roomId) : (await openDirect(caller, [agent.id])).id;
  return { isNew: true, row: { id: request.contextId ?? newId(), workspaceId: caller.workspaceId, agentId: agent.id, callerId: caller.participantId, roomId } };
}

/** A room the caller names for a new context: the caller may post there, and the agent is in it and reachable there. */
async function roomForContext(caller: Actor, agent: ServedAgent, roomId: string): Promise<string> {
  const membership = await loadMembershipFor(caller, roomId);
  authorize(caller, "room.post", membership);
  const agentIn = await getDb().roomMember.findUnique({
    where: { roomId_participantId: { roomId, participantId: agent.id } },
    select: { participantId: true },
  });
  if (!agentIn) throw new AppError("FORBIDDEN", `@${agent.handle} is not a member of that room; invite it first`);
  await assertCanReach(caller, [agent.id], roomId);
  return roomId;
}

export interface RequestInput {
  taskId: string;
  /** The A2A message's id: a retry of the same message stores nothing twice. */
  messageId: string;
  text: string;
}

/** Stores a caller's message for its task, in the task's thread, once: a retry finds it stored. */
export async function postRequest(caller: Actor, agent: ServedAgent, input: RequestInput): Promise<void> {
  const db = getDb();
  const task = await db.a2aTask.findUnique({ where: { id: input.taskId }, select: { workspaceId: true, callerId: true, agentId: true, contextId: true } });
  if (!task) throw new AppError("NOT_FOUND", "No such task of yours");
  authorize(caller, "a2a.task.read", { ...task, calledAgentId: agent.id });
  const context = await db.a2aContext.findUniqueOrThrow({ where: { id: task.contextId } });
  const clientMsgId = clientIdFor(input.taskId, input.messageId);
  // Looked up after the context is read: a context's first request becomes its thread's root, and
  // sent again as a reply in that thread it would not match the original (sendMessage's CONFLICT).
  let message = await db.message.findUnique({ where: { authorId_clientMsgId: { authorId: caller.participantId, clientMsgId } }, select: { id: true } });
  if (!message) {
    const room = await db.room.findUniqueOrThrow({ where: { id: context.roomId }, select: { kind: true } });
    // Outside a DM an agent in `mentions` mode hears only what names it (its threads' replies too).
    const mention = `@${agent.handle}`;
    const body = room.kind === "dm" || input.text.includes(mention) ? input.text : `${mention} ${input.text}`;
    message = await sendMessage(caller, { roomId: context.roomId, body, clientMsgId, threadRootId: context.rootMessageId ?? undefined });
  }
  if (!context.rootMessageId) {
    await db.a2aContext.updateMany({ where: { id: context.id, rootMessageId: null }, data: { rootMessageId: message.id } });
  }
}

// ---- the task store's rows ----

export interface StoredTask {
  id: string;
  contextId: string;
  agentId: string;
  callerId: string;
  roomId: string;
  state: string;
  /** The SDK's Task, as its own JSON. */
  task: string;
  /** The caller's message that opened it (`keyOf` its A2A id), and what it asked (`requestHash`). */
  messageKey: string | null;
  requestHash: string | null;
  createdAt: Date;
}

/** The caller's task, or null: another's does not exist for it (`a2a.task.read`). */
export async function loadTask(taskId: string, caller: Actor): Promise<StoredTask | null> {
  const row = await getDb().a2aTask.findUnique({ where: { id: taskId } });
  return row && can(caller, "a2a.task.read", row) ? row : null;
}

/** Saves the task's JSON (every task is opened by `openTask` first). */
export async function saveTask(taskId: string, caller: Actor, state: string, task: string): Promise<void> {
  const updated = await getDb().a2aTask.updateMany({ where: { id: taskId, ...a2aTaskScope(caller) }, data: { state, task } });
  if (updated.count === 0) throw new AppError("NOT_FOUND", "No such task of yours");
}

/** The caller's tasks, newest first (`a2a.task.read` as a filter). */
export async function listTasks(caller: Actor, opts: { contextId?: string; states?: string[]; limit: number; before?: { updatedAt: Date; id: string } }) {
  const where = {
    ...a2aTaskScope(caller),
    ...(opts.contextId ? { contextId: opts.contextId } : {}),
    ...(opts.states?.length ? { state: { in: opts.states } } : {}),
  };
  const [rows, total] = await Promise.all([
    getDb().a2aTask.findMany({
      where: opts.before
        ? { AND: [where, { OR: [{ updatedAt: { lt: opts.before.updatedAt } }, { updatedAt: opts.before.updatedAt, id: { lt: opts.before.id } }] }] }
        : where,
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: opts.limit,
    }),
    getDb().a2aTask.count({ where }),
  ]);
  return { rows, total };
}

export const storedTask = (taskId: string): Promise<StoredTask | null> => getDb().a2aTask.findUnique({ where: { id: taskId } });

/** Every task not in one of the `terminal` states, oldest first, to follow again after a restart. */
export const openTasks = (terminal: string[]) =>
  getDb().a2aTask.findMany({ where: { state: { notIn: terminal } }, select: { id: true, roomId: true }, orderBy: { createdAt: "asc" } });

// ---- a task's progress, read back from the room ----

export interface TaskProgress {
  requests: { id: string; seq: number; body: string; createdAt: Date }[];
  replies: { id: string; seq: number; body: string; createdAt: Date; editedAt: Date | null; deleted: boolean }[];
  /** The agent's receipt on the latest request. */
  receipt: { state: "processing" | "processed" | "failed"; reason: string | null; at: Date } | null;
  /** An open question of the agent's, asked since the task began, that the caller may answer. */
  question: { id: string; messageId: string; kind: QuestionKind; prompt: string; options: QuestionOption[] | null; createdAt: Date } | null;
}

export async function taskProgress(task: { id: string; roomId: string; agentId: string; callerId: string }, caller: Actor): Promise<TaskProgress> {
  const db = getDb();
  const requests = await db.message.findMany({
    where: { authorId: task.callerId, clientMsgId: { startsWith: taskPrefix(task.id) }, roomId: task.roomId },
    orderBy: { seq: "asc" },
    select: { id: true, seq: true, body: true, createdAt: true },
  });
  if (requests.length === 0) return { requests, replies: [], receipt: null, question: null };
  const ids = requests.map((r) => r.id);
  const latest = requests[requests.length - 1];
  // The receipt first, then the replies: an agent replies before it marks the request processed, so
  // replies read after a "processed" receipt include every one it sent. Read side by side (on
  // PostgreSQL, two connections) the replies could be read first and a completed task lose its answer.
  const receipt = await db.messageReceipt.findUnique({ where: { messageId_participantId: { messageId: latest.id, participantId: task.agentId } } });
  const [replies, question] = await Promise.all([
    db.message.findMany({
      where: { roomId: task.roomId, authorId: task.agentId, causeId: { in: ids }, kind: "text" },
      orderBy: { seq: "asc" },
      take: MAX_REPLIES,
      select: { id: true, seq: true, body: true, createdAt: true, editedAt: true, deletedAt: true },
    }),
    db.question.findFirst({
      where: { roomId: task.roomId, askerId: task.agentId, status: "open", createdAt: { gte: requests[0].createdAt } },
      orderBy: { createdAt: "desc" },
      select: { id: true, messageId: true, kind: true, prompt: true, options: true, createdAt: true },
    }),
  ]);
  const answerable =
    question &&
    (await getQuestion(caller, { questionId: question.id }).then(
      (q) => q.can.answer,
      () => false,
    ));
  return {
    requests,
    replies: replies.map((r) => ({
      id: r.id,
      seq: r.seq,
      body: r.deletedAt ? "" : r.body,
      createdAt: r.createdAt,
      editedAt: r.editedAt,
      deleted: !!r.deletedAt,
    })),
    receipt: receipt ? { state: receipt.state, reason: receipt.reason, at: receipt.updatedAt } : null,
    question: answerable ? { ...question, options: (question.options as QuestionOption[] | null) ?? null } : null,
  };
}

/**
 * Answers the task's open question with what the caller sent: a data part as the answer itself, or
 * text read as the question's kind asks (an option's value or label, yes/no for an approval).
 */
export async function answerOpenQuestion(
  caller: Actor,
  task: { id: string; roomId: string; agentId: string; callerId: string },
  reply: { text: string; data?: unknown },
): Promise<boolean> {
  const { question } = await taskProgress(task, caller);
  if (!question) return false;
  await answerQuestion(caller, { questionId: question.id, answer: reply.data ?? answerFromText(question, reply.text) });
  return true;
}

function answerFromText(q: { kind: QuestionKind; options: QuestionOption[] | null }, text: string): QuestionAnswer {
  const said = text.trim();
  const option = (word: string) =>
    q.options?.find((o) => o.value.toLowerCase() === word.toLowerCase() || o.label.toLowerCase() === word.toLowerCase())?.value ?? word;
  switch (q.kind) {
    case "single":
      return { choice: option(said) };
    case "multiple":
      return {
        choices: said
          .split(/\s*,\s*/)
          .filter(Boolean)
          .map(option),
      };
    case "approval":
      return { approved: /^(y|yes|approve|approved|ok|okay|go|lgtm)\b/i.test(said), comment: said };
    case "form":
      throw new AppError("INVALID_PAYLOAD", "This question is a form: answer with a data part holding { values: { field: value } }");
    default:
      return { text: said };
  }
}

/** The caller cancels a task: the room is told, in the task's thread, so the agent and people see it. */
export async function postCancel(caller: Actor, task: { id: string; contextId: string }): Promise<void> {
  const context = await getDb().a2aContext.findUniqueOrThrow({ where: { id: task.contextId } });
  await sendMessage(caller, {
    roomId: context.roomId,
    body: "Canceled this request.",
    clientMsgId: `a2a-cancel:${task.id}`,
    threadRootId: context.rootMessageId ?? undefined,
  });
}

/** The caller of a stored task as it acts now (its role today), for reading the task back in its name. */
export async function callerActor(callerId: string): Promise<Actor | null> {
  const row = await getDb().participant.findUnique({ where: { id: callerId }, select: { kind: true } });
  if (!row) return null;
  return row.kind === "agent" ? actorForAgent(callerId) : actorForMember(callerId);
}
