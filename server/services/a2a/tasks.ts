// What an agent served over A2A is in the workspace (bridges/a2a/inbound translates it to the protocol).
//
// A caller (an agent's key or a person's token of this workspace) calls a served agent as the caller
// itself: its messages are the caller's messages, in the DM between the two (or a room the caller
// names), under the same consent rules as in rooms. One A2A conversation (`contextId`) is one thread;
// one request (`taskId`) is the caller's messages stored with client ids `a2a:<taskId>:…`. The task's
// progress is read back from the room, never kept beside it: the agent's receipt on the request
// (processing → working; processed → completed; failed → failed), its replies (messages whose cause is
// the request) and an open question it asks that the caller may answer (input required). A canceled
// task stays canceled. So people see and join the whole exchange in the room, live.
import { createHash } from "node:crypto";
import type { AgentView, MessageView } from "../../../sdk/contract";
import type { QuestionAnswer, QuestionKind, QuestionOption } from "../../../sdk/questions";
import { getDb } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { authorize, type Actor } from "../../policies";
import { actorForMember } from "../identity/accounts";
import { actorForAgent, getAgent } from "../identity/agents";
import { recordAudit } from "../governance/audit";
import { assertCanReach } from "../access/reach";
import { answerQuestion, getQuestion } from "../questions/questions";
import { loadMembershipFor } from "../access/rooms";
import { openDirect } from "../rooms/rooms";
import { sendMessage } from "../messaging/sending";

/** The caller's client ids under one task: `a2a:<taskId>:<the A2A message id, or its hash if long>`. */
const taskPrefix = (taskId: string) => `a2a:${taskId}:`;
const clientIdFor = (taskId: string, messageId: string) =>
  taskPrefix(taskId) + (messageId.length <= 64 ? messageId : createHash("sha256").update(messageId).digest("hex"));

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
 * (an agent card fetched anonymously), the one served agent with that handle. AGENT_NOT_FOUND when
 * it is not served, or is suspended.
 */
export async function servedAgent(handle: string, workspaceId?: string): Promise<ServedAgent> {
  const rows = await getDb().participant.findMany({
    where: { handle: handle.toLowerCase(), kind: "agent", a2aServed: true, status: "active", ...(workspaceId ? { workspaceId } : {}) },
    select: { id: true, workspaceId: true, handle: true, displayName: true, description: true, capabilities: true },
    take: 2,
  });
  if (rows.length !== 1) throw new AppError("PARTICIPANT_NOT_FOUND", `No agent @${handle} is served over A2A here`);
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
    await recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.participantId, action: served ? "agent.a2a_served" : "agent.a2a_stopped", subjectType: "participant", subjectId: agentId, data: {} });
  });
  return getAgent(actor, agentId);
}

/** Throws unless the caller may talk to the agent: not itself, and reachable as a DM would need. */
export async function assertMayCall(caller: Actor, agent: ServedAgent): Promise<void> {
  if (caller.workspaceId !== agent.workspaceId) throw new AppError("PARTICIPANT_NOT_FOUND", "No such agent in your workspace");
  if (caller.participantId === agent.id) throw new AppError("FORBIDDEN", "An agent cannot call itself over A2A");
  await assertCanReach(caller, [agent.id]);
}

export interface RequestInput {
  taskId: string;
  contextId: string;
  /** The A2A message's id: a retry of the same message stores nothing twice. */
  messageId: string;
  text: string;
  /** A new context only: the room to hold its thread (else the DM between the caller and the agent). */
  roomId?: string;
}

/**
 * Stores a caller's message for a task: in the context's thread (opening the context, and its room,
 * on first use). Returns the stored message.
 */
export async function postRequest(caller: Actor, agent: ServedAgent, input: RequestInput): Promise<MessageView> {
  const db = getDb();
  const task = await db.a2aTask.findUnique({ where: { id: input.taskId }, select: { callerId: true, agentId: true, contextId: true } });
  if (task && (task.callerId !== caller.participantId || task.agentId !== agent.id)) throw new AppError("NOT_FOUND", "No such task");
  if (task && task.contextId !== input.contextId) throw new AppError("INVALID_PAYLOAD", "contextId: the task belongs to another context");
  const context = await openContext(caller, agent, input.contextId, input.roomId);
  const room = await db.room.findUniqueOrThrow({ where: { id: context.roomId }, select: { kind: true } });
  // Outside a DM an agent in `mentions` mode hears only what names it (its threads' replies too).
  const mention = `@${agent.handle}`;
  const body = room.kind === "dm" || input.text.includes(mention) ? input.text : `${mention} ${input.text}`;
  const message = await sendMessage(caller, {
    roomId: context.roomId,
    body,
    clientMsgId: clientIdFor(input.taskId, input.messageId),
    threadRootId: context.rootMessageId ?? undefined,
  });
  if (!context.rootMessageId) {
    await db.a2aContext.updateMany({ where: { id: context.id, rootMessageId: null }, data: { rootMessageId: message.id } });
  }
  return message;
}

/** The context `contextId` of this caller and agent, made on first use. */
async function openContext(caller: Actor, agent: ServedAgent, contextId: string, roomId: string | undefined) {
  const db = getDb();
  const existing = await db.a2aContext.findUnique({ where: { id: contextId } });
  if (existing) {
    if (existing.callerId !== caller.participantId || existing.agentId !== agent.id) throw new AppError("NOT_FOUND", "contextId: no such context of yours with this agent");
    return existing;
  }
  let room: string;
  if (roomId) {
    const membership = await loadMembershipFor(caller, roomId);
    authorize(caller, "room.post", membership);
    const agentIn = await db.roomMember.findUnique({ where: { roomId_participantId: { roomId, participantId: agent.id } }, select: { participantId: true } });
    if (!agentIn) throw new AppError("FORBIDDEN", `@${agent.handle} is not a member of that room; invite it first`);
    await assertCanReach(caller, [agent.id], roomId);
    room = roomId;
  } else {
    room = (await openDirect(caller, [agent.id])).id;
  }
  try {
    return await db.a2aContext.create({ data: { id: contextId, workspaceId: caller.workspaceId, agentId: agent.id, callerId: caller.participantId, roomId: room } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return openContext(caller, agent, contextId, roomId); // the same context opened twice at once
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
  /** The SDK's Task, as its own JSON; "" until the bridge first saves it. */
  task: string;
  createdAt: Date;
}

export async function loadTask(taskId: string, callerId: string): Promise<StoredTask | null> {
  const row = await getDb().a2aTask.findUnique({ where: { id: taskId } });
  return row && row.callerId === callerId ? row : null;
}

/** Saves the task's JSON; the first save takes its caller, agent and room from its context. */
export async function saveTask(taskId: string, contextId: string, callerId: string, state: string, task: string): Promise<void> {
  const db = getDb();
  const updated = await db.a2aTask.updateMany({ where: { id: taskId, callerId }, data: { state, task } });
  if (updated.count > 0) return;
  const context = await db.a2aContext.findUnique({ where: { id: contextId } });
  if (!context || context.callerId !== callerId) throw new AppError("NOT_FOUND", "contextId: no such context of yours");
  try {
    await db.a2aTask.create({ data: { id: taskId, workspaceId: context.workspaceId, contextId, agentId: context.agentId, callerId, roomId: context.roomId, state, task } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await db.a2aTask.updateMany({ where: { id: taskId, callerId }, data: { state, task } });
  }
}

export async function listTasks(callerId: string, opts: { contextId?: string; states?: string[]; limit: number; before?: { updatedAt: Date; id: string } }) {
  const where = {
    callerId,
    ...(opts.contextId ? { contextId: opts.contextId } : {}),
    ...(opts.states?.length ? { state: { in: opts.states } } : {}),
  };
  const [rows, total] = await Promise.all([
    getDb().a2aTask.findMany({
      where: opts.before ? { AND: [where, { OR: [{ updatedAt: { lt: opts.before.updatedAt } }, { updatedAt: opts.before.updatedAt, id: { lt: opts.before.id } }] }] } : where,
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
  const [replies, receipt, question] = await Promise.all([
    db.message.findMany({
      where: { roomId: task.roomId, authorId: task.agentId, causeId: { in: ids }, kind: "text" },
      orderBy: { seq: "asc" },
      take: MAX_REPLIES,
      select: { id: true, seq: true, body: true, createdAt: true, editedAt: true, deletedAt: true },
    }),
    db.messageReceipt.findUnique({ where: { messageId_participantId: { messageId: latest.id, participantId: task.agentId } } }),
    db.question.findFirst({
      where: { roomId: task.roomId, askerId: task.agentId, status: "open", createdAt: { gte: requests[0].createdAt } },
      orderBy: { createdAt: "desc" },
      select: { id: true, messageId: true, kind: true, prompt: true, options: true, createdAt: true },
    }),
  ]);
  const answerable = question && (await getQuestion(caller, { questionId: question.id }).then((q) => q.can.answer, () => false));
  return {
    requests,
    replies: replies.map((r) => ({ id: r.id, seq: r.seq, body: r.deletedAt ? "" : r.body, createdAt: r.createdAt, editedAt: r.editedAt, deleted: !!r.deletedAt })),
    receipt: receipt ? { state: receipt.state, reason: receipt.reason, at: receipt.updatedAt } : null,
    question: answerable ? { ...question, options: (question.options as QuestionOption[] | null) ?? null } : null,
  };
}

/**
 * Answers the task's open question with what the caller sent: a data part as the answer itself, or
 * text read as the question's kind asks (an option's value or label, yes/no for an approval).
 */
export async function answerOpenQuestion(caller: Actor, task: { id: string; roomId: string; agentId: string; callerId: string }, reply: { text: string; data?: unknown }): Promise<boolean> {
  const { question } = await taskProgress(task, caller);
  if (!question) return false;
  await answerQuestion(caller, { questionId: question.id, answer: reply.data ?? answerFromText(question, reply.text) });
  return true;
}

function answerFromText(q: { kind: QuestionKind; options: QuestionOption[] | null }, text: string): QuestionAnswer {
  const said = text.trim();
  const option = (word: string) => q.options?.find((o) => o.value.toLowerCase() === word.toLowerCase() || o.label.toLowerCase() === word.toLowerCase())?.value ?? word;
  switch (q.kind) {
    case "single":
      return { choice: option(said) };
    case "multiple":
      return { choices: said.split(/\s*,\s*/).filter(Boolean).map(option) };
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
