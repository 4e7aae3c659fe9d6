// Questions to people. A question is a message of kind `question` in a room (ordered, in history,
// replayed like any message) with a `Question` row that says who may answer, until when, and what
// happens then. Every change of state (answered, expired, cancelled) is one conditional update of
// that row (the first wins), the same state written into the message's `data`, and an outcome event
// in the room that mentions the asker, all in one transaction; then the message's update, the event
// and `question:updated` are published.
import type { z } from "zod";
import type { MessageView } from "@switchboard/sdk/contract";
import {
  answerSchema,
  describeAnswer,
  type askQuestionInput,
  type listQuestionsInput,
  type QuestionAnswer,
  type QuestionForViewer,
  type QuestionOutcomeData,
  type QuestionView,
} from "@switchboard/sdk/questions";
import { getDb } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import { authorize, can, hasRoleAtLeast, ROLE_ORDER, type Actor } from "../../policies";
import { presentQuestion, questionInclude } from "../../presenters/question";
import { audience, publish, type Committed } from "../../realtime";
import { recordAudit } from "../governance/audit";
import { fanOutNew } from "../messaging/delivery";
import { notifyQuestion } from "../notifications/outbox";
import { appendToRoom, publishUpdated } from "../messaging/messages";
import { transaction, TX_OPTIONS } from "../../transaction";
import { loadRoomFor } from "../access/rooms";
import { checkThreadRoot } from "../messaging/threads";
import { roomViews, withMemberCount } from "../access/views";
import { sweepEvery } from "../../sweeper";

type AskInput = z.output<typeof askQuestionInput>;
type QuestionRow = NonNullable<Awaited<ReturnType<typeof findQuestion>>>;

const findQuestion = (where: { id: string } | { messageId: string }) =>
  getDb().question.findUnique({
    where,
    include: { ...questionInclude, asker: { select: { id: true, handle: true, displayName: true, kind: true, ownerId: true } } },
  });

/**
 * Asks people a question in a room. Idempotent by `clientMsgId`, like a send. `opts.gate`: the
 * approval an action waits for (services/approvals/approvals.ts).
 */
export async function askQuestion(actor: Actor, input: AskInput, opts: { gate?: { action: string; key: string } } = {}): Promise<QuestionForViewer> {
  const earlier = await askedBefore(actor, input.clientMsgId);
  if (earlier) return earlier;
  const subject = await loadRoomFor(actor, input.roomId);
  authorize(actor, "room.post", subject);
  if (input.threadRootId) await checkThreadRoot(input.roomId, input.threadRootId);
  const target = await resolveAudience(actor, input);
  const onExpiry = expiryDecision(input);
  const asker = await getDb().participant.findUniqueOrThrow({
    where: { id: actor.participantId },
    select: { id: true, handle: true, displayName: true, kind: true },
  });
  const id = newId();
  const messageId = newId();
  const now = new Date();
  const view: QuestionView = {
    id,
    roomId: input.roomId,
    messageId,
    threadRootId: input.threadRootId ?? null,
    asker,
    kind: input.kind,
    prompt: input.prompt,
    options: input.options ?? null,
    fields: input.fields ?? null,
    audience: target.view,
    expiresAt: input.expiresInSeconds ? new Date(now.getTime() + input.expiresInSeconds * 1000).toISOString() : null,
    onExpiry,
    allowReactions: input.allowReactions === true,
    status: "open",
    answer: null,
    answeredBy: null,
    answeredAt: null,
    createdAt: now.toISOString(),
  };
  let message: MessageView;
  let committed: Committed;
  try {
    [message, committed] = await transaction(async (tx) => {
      const stored = await appendToRoom(tx, {
        id: messageId,
        roomId: input.roomId,
        authorId: actor.participantId,
        kind: "question",
        body: input.prompt,
        clientMsgId: input.clientMsgId,
        threadRootId: input.threadRootId ?? null,
        // A named person in the room is mentioned: the question is addressed to them like a mention.
        mentions: target.mention ? [target.mention] : [],
        data: { type: "question", question: view },
      });
      await tx.question.create({
        data: {
          id,
          workspaceId: actor.workspaceId,
          roomId: input.roomId,
          messageId,
          askerId: actor.participantId,
          kind: input.kind,
          prompt: input.prompt,
          options: input.options,
          fields: input.fields,
          audience: input.audience.type,
          audienceId: target.audienceId,
          audienceRole: input.audience.type === "role" ? input.audience.role : null,
          expiresAt: view.expiresAt ? new Date(view.expiresAt) : null,
          onExpiry: onExpiry ?? undefined,
          gateAction: opts.gate?.action,
          gateKey: opts.gate?.key,
          createdAt: now,
        },
      });
      await recordAudit(tx, {
        workspaceId: actor.workspaceId,
        actorId: actor.participantId,
        action: "question.asked",
        subjectType: "question",
        subjectId: id,
        data: { roomId: input.roomId, kind: input.kind, audience: input.audience.type },
      });
      return stored;
    }, TX_OPTIONS);
  } catch (error) {
    // The same ask twice at once: the second finds the first.
    const first = isUniqueViolation(error) ? await askedBefore(actor, input.clientMsgId) : null;
    if (first) return first;
    throw error;
  }
  await fanOutNew(committed, message);
  await announce(committed, view);
  // People who are away hear of it by email too, in their next digest (when SMTP is configured).
  await notifyQuestion(getDb(), {
    workspaceId: actor.workspaceId,
    recipientIds: await recipientsOf(view, actor.workspaceId),
    roomId: input.roomId,
    messageId,
    title: `@${asker.handle} asks`,
  }).catch((error: unknown) => console.error("question notification failed", error));
  return getQuestion(actor, { questionId: id });
}

/** The question this asker already asked with `clientMsgId`, or null; CONFLICT if the id went to a message. */
async function askedBefore(actor: Actor, clientMsgId: string): Promise<QuestionForViewer | null> {
  const message = await getDb().message.findUnique({
    where: { authorId_clientMsgId: { authorId: actor.participantId, clientMsgId } },
    select: { question: { select: { id: true } } },
  });
  if (!message) return null;
  if (!message.question) throw new AppError("CONFLICT", "This clientMsgId was used for a message that is not a question");
  return getQuestion(actor, { questionId: message.question.id });
}

/** Who the question is for, as stored and as shown; and whom its message mentions. */
async function resolveAudience(actor: Actor, input: AskInput) {
  const db = getDb();
  const select = { id: true, handle: true, displayName: true, kind: true } as const;
  switch (input.audience.type) {
    case "person": {
      const ref = input.audience.participant;
      const person = await db.participant.findFirst({
        where: { workspaceId: actor.workspaceId, ...(ref.startsWith("@") ? { handle: ref.slice(1).toLowerCase() } : { id: ref }) },
        select: { ...select, roomMembers: { where: { roomId: input.roomId }, select: { roomId: true } } },
      });
      if (!person) throw new AppError("PARTICIPANT_NOT_FOUND", `No such person: ${ref}`);
      if (person.kind !== "human") throw new AppError("INVALID_PAYLOAD", "audience: questions are for people; ask an agent with a message");
      if (person.id === actor.participantId) throw new AppError("INVALID_PAYLOAD", "audience: you cannot ask yourself");
      if (person.roomMembers.length === 0) throw new AppError("NOT_A_MEMBER", `@${person.handle} is not in this room; invite them first`);
      const { roomMembers: _rooms, ...shown } = person;
      return { audienceId: person.id, mention: person.id, view: { type: "person" as const, participant: shown } };
    }
    case "owner": {
      const me = await db.participant.findUniqueOrThrow({
        where: { id: actor.participantId },
        select: { owner: { select: { ...select, roomMembers: { where: { roomId: input.roomId }, select: { roomId: true } } } } },
      });
      if (!me.owner) throw new AppError("INVALID_PAYLOAD", "audience: only an agent has an owner to ask");
      const { roomMembers, ...shown } = me.owner;
      return { audienceId: me.owner.id, mention: roomMembers.length ? me.owner.id : null, view: { type: "owner" as const, participant: shown } };
    }
    case "room": {
      const people = await db.roomMember.count({
        where: { roomId: input.roomId, participantId: { not: actor.participantId }, participant: { kind: "human" } },
      });
      if (people === 0) throw new AppError("INVALID_PAYLOAD", "audience: nobody else in this room is a person");
      return { audienceId: null, mention: null, view: { type: "room" as const } };
    }
    case "role":
      return { audienceId: null, mention: null, view: { type: "role" as const, role: input.audience.role } };
  }
}

/** The decision an expiry takes: the asker's (validated like an answer), or an approval's decline. */
function expiryDecision(input: AskInput): QuestionAnswer | null {
  if (input.onExpiry === undefined || input.onExpiry === null) return input.kind === "approval" && input.expiresInSeconds ? { approved: false } : null;
  const parsed = answerSchema({ kind: input.kind, options: input.options ?? null, fields: input.fields ?? null }).safeParse(input.onExpiry);
  if (!parsed.success) throw new AppError("INVALID_PAYLOAD", `onExpiry: ${parsed.error.issues[0]?.message ?? "not an answer to this question"}`);
  return parsed.data;
}

/** Answers a question: the first valid answer wins; the asker hears it as an event addressed to it. */
export async function answerQuestion(actor: Actor, input: { questionId: string; answer: unknown }): Promise<QuestionForViewer> {
  const q = await loadQuestion(actor, input.questionId);
  const subject = await questionSubject(actor, q);
  authorize(actor, "question.read", subject);
  authorize(actor, "question.answer", subject);
  const parsed = answerSchema(presentQuestion(q)).safeParse(input.answer);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new AppError("INVALID_PAYLOAD", first ? `answer.${first.path.join(".")}: ${first.message}` : "Not an answer to this question");
  }
  await settle(q, { status: "answered", answer: parsed.data, byId: actor.participantId });
  return getQuestion(actor, { questionId: q.id });
}

/** Takes a question back while it is open. */
export async function cancelQuestion(actor: Actor, input: { questionId: string }): Promise<QuestionForViewer> {
  const q = await loadQuestion(actor, input.questionId);
  const subject = await questionSubject(actor, q);
  authorize(actor, "question.read", subject);
  authorize(actor, "question.cancel", subject);
  await settle(q, { status: "cancelled", answer: null, byId: actor.participantId });
  return getQuestion(actor, { questionId: q.id });
}

/** Applies the expiry decision of every open question past its deadline (any process may; the first wins). */
export async function expireDue(now = new Date()): Promise<number> {
  const due = await getDb().question.findMany({
    where: { status: "open", expiresAt: { lte: now } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: 100,
  });
  let expired = 0;
  for (const { id } of due) {
    const q = await findQuestion({ id });
    if (q && (await settle(q, { status: "expired", answer: (q.onExpiry as QuestionAnswer | null) ?? null, byId: null }))) expired++;
  }
  return expired;
}

type Outcome = { status: "answered" | "expired" | "cancelled"; answer: QuestionAnswer | null; byId: string | null };

/**
 * Moves an open question to its outcome, if it is still open (and, for an answer, not yet past its
 * deadline): the row, its message's `data`, and the outcome event, in one transaction. False if
 * another outcome came first; for an answer, that is the caller's CONFLICT or EXPIRED.
 */
async function settle(q: QuestionRow, outcome: Outcome): Promise<boolean> {
  const now = new Date();
  const [result, committed] = await transaction(async (tx) => {
    const won = await tx.question.updateMany({
      where: { id: q.id, status: "open", ...(outcome.status === "answered" ? { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } : {}) },
      data: { status: outcome.status, answer: outcome.answer ?? undefined, answeredById: outcome.status === "answered" ? outcome.byId : null, answeredAt: now },
    });
    if (won.count === 0) return null;
    const row = await tx.question.findUniqueOrThrow({ where: { id: q.id }, include: questionInclude });
    const view = presentQuestion(row);
    await tx.message.update({ where: { id: q.messageId }, data: { data: { type: "question", question: view } as object } });
    const event = await appendToRoom(tx, outcomeEvent(q, view, outcome));
    await recordAudit(tx, {
      workspaceId: q.workspaceId,
      actorId: outcome.byId,
      action: `question.${outcome.status}`,
      subjectType: "question",
      subjectId: q.id,
      data: { answer: outcome.answer },
    });
    return { view, event };
  }, TX_OPTIONS);
  if (!result) {
    if (outcome.status === "answered") {
      const now2 = await getDb().question.findUnique({ where: { id: q.id }, select: { status: true } });
      if (now2?.status === "expired" || now2?.status === "open") throw new AppError("EXPIRED", "This question has expired");
      throw new AppError("CONFLICT", `This question is already ${now2?.status ?? "gone"}`);
    }
    return false;
  }
  await publishUpdated(committed, q.messageId);
  await fanOutNew(committed, result.event);
  await announce(committed, result.view);
  return true;
}

/**
 * The event that tells the room (and, by its mention, the asker) how the question ended. An answer
 * is the answerer's; an expiry or a cancellation is a notice of the asker's own, like the loop guard's.
 */
function outcomeEvent(q: QuestionRow, view: QuestionView, outcome: Outcome) {
  const data: QuestionOutcomeData = { type: `question.${outcome.status}`, questionId: q.id, questionMessageId: q.messageId, answer: outcome.answer };
  const answered = outcome.status === "answered";
  const decision = describeAnswer(view, outcome.answer);
  const body = answered
    ? `@${q.asker.handle} ${decision}`
    : outcome.status === "expired"
      ? `Expired without an answer${outcome.answer ? `: ${decision}` : ""}`
      : "Cancelled";
  return {
    roomId: q.roomId,
    authorId: answered ? outcome.byId! : q.askerId,
    kind: answered ? ("event" as const) : ("system" as const),
    body,
    clientMsgId: `question:${q.id}:${outcome.status}`,
    threadRootId: view.threadRootId,
    mentions: answered ? [q.askerId] : [],
    data: data as unknown as object,
  };
}

/**
 * `question:updated` to the people it is for (`forYou: true`; a room's sockets include the asker's,
 * which knows itself by `asker.id`), and to the asker and its owner (`forYou: false`).
 */
async function announce(committed: Committed, view: QuestionView): Promise<void> {
  const asker = await getDb().participant.findUnique({ where: { id: view.asker.id }, select: { ownerId: true, workspaceId: true } });
  const askers = [view.asker.id, ...(asker?.ownerId ? [asker.ownerId] : [])].map(audience.participant);
  const forThem = await audienceTargets(view, asker?.workspaceId ?? "");
  publish(committed, forThem, "question:updated", { question: view, forYou: true });
  publish(
    committed,
    askers.filter((a) => !forThem.includes(a)),
    "question:updated",
    { question: view, forYou: false },
  );
}

/** The Socket.IO audiences of the people a question is for. */
async function audienceTargets(view: QuestionView, workspaceId: string): Promise<string[]> {
  if (view.audience.type === "person" || view.audience.type === "owner")
    return view.audience.participant ? [audience.participant(view.audience.participant.id)] : [];
  if (view.audience.type === "room") return [audience.room(view.roomId)];
  return (await peopleWithRole(workspaceId, view.audience.role)).map(audience.participant);
}

const peopleWithRole = async (workspaceId: string, role: string) =>
  (await getDb().member.findMany({ where: { workspaceId, role: { in: rolesAtLeast(role) } }, select: { participantId: true } })).map((m) => m.participantId);

/** The people an open question is for, by id (for email): as `askedOf` decides (policies). */
async function recipientsOf(view: QuestionView, workspaceId: string): Promise<string[]> {
  if (view.audience.type === "person" || view.audience.type === "owner") return view.audience.participant ? [view.audience.participant.id] : [];
  if (view.audience.type === "role") return (await peopleWithRole(workspaceId, view.audience.role)).filter((id) => id !== view.asker.id);
  const members = await getDb().roomMember.findMany({
    where: { roomId: view.roomId, participantId: { not: view.asker.id }, participant: { kind: "human" } },
    select: { participantId: true },
  });
  return members.map((m) => m.participantId);
}

const rolesAtLeast = (role: string) => ROLE_ORDER.filter((r) => hasRoleAtLeast(r, role));
const rolesAtMost = (role: string) => ROLE_ORDER.filter((r) => hasRoleAtLeast(role, r));

async function loadQuestion(actor: Actor, questionId: string): Promise<QuestionRow> {
  const q = await findQuestion({ id: questionId });
  if (!q || q.workspaceId !== actor.workspaceId) throw new AppError("NOT_FOUND", "No such question");
  return q;
}

async function questionSubject(actor: Actor, q: QuestionRow) {
  const membership = await getDb().roomMember.findUnique({
    where: { roomId_participantId: { roomId: q.roomId, participantId: actor.participantId } },
    select: { roomId: true },
  });
  return { question: { ...q, askerOwnerId: q.asker.ownerId }, roomMember: membership !== null };
}

/** One question, as the actor sees it. */
export async function getQuestion(actor: Actor, input: { questionId: string }): Promise<QuestionForViewer> {
  const q = await loadQuestion(actor, input.questionId);
  const subject = await questionSubject(actor, q);
  authorize(actor, "question.read", subject);
  const [room] = await roomViews([await getDb().room.findUniqueOrThrow({ where: { id: q.roomId }, include: withMemberCount })], actor.participantId);
  return forViewer(actor, q, subject, { id: room.id, title: room.title });
}

function forViewer(actor: Actor, q: QuestionRow, subject: Awaited<ReturnType<typeof questionSubject>>, room: { id: string; title: string }): QuestionForViewer {
  return { ...presentQuestion(q), room, can: { answer: can(actor, "question.answer", subject), cancel: can(actor, "question.cancel", subject) } };
}

/**
 * The actor's questions, oldest first: those it may answer (`for: "me"`, the Needs-you queue: for it
 * by name, as an agent's owner, as a person in the room, or by role) or those it asked.
 */
export async function listQuestions(actor: Actor, input: z.output<typeof listQuestionsInput>): Promise<QuestionForViewer[]> {
  const rows = await getDb().question.findMany({
    where: { ...questionsWhere(actor, input.for), ...(input.status === "open" ? { status: "open" } : {}), ...(input.roomId ? { roomId: input.roomId } : {}) },
    include: { ...questionInclude, asker: { select: { id: true, handle: true, displayName: true, kind: true, ownerId: true } } },
    orderBy: { createdAt: input.status === "open" ? "asc" : "desc" },
    take: input.limit,
  });
  const roomIds = [...new Set(rows.map((q) => q.roomId))];
  const [rooms, memberOf] = await Promise.all([
    getDb().room.findMany({ where: { id: { in: roomIds } }, include: withMemberCount }),
    getDb().roomMember.findMany({ where: { participantId: actor.participantId, roomId: { in: roomIds } }, select: { roomId: true } }),
  ]);
  const titles = new Map((await roomViews(rooms, actor.participantId)).map((r) => [r.id, r.title]));
  const member = new Set(memberOf.map((m) => m.roomId));
  return rows.map((q) =>
    forViewer(
      actor,
      q,
      { question: { ...q, askerOwnerId: q.asker.ownerId }, roomMember: member.has(q.roomId) },
      { id: q.roomId, title: titles.get(q.roomId) ?? "" },
    ),
  );
}

/** How many open questions the actor may answer (the Needs-you badge). */
export async function countOpenForMe(actor: Actor): Promise<number> {
  if (actor.kind !== "human") return 0;
  return getDb().question.count({ where: { ...questionsWhere(actor, "me"), status: "open" } });
}

/** `for: "me"` is the `askedOf` rule (policies) as a query; `"asked"`: the actor's own questions. */
function questionsWhere(actor: Actor, which: "me" | "asked") {
  if (which === "asked") return { workspaceId: actor.workspaceId, askerId: actor.participantId };
  if (actor.kind !== "human") return { id: "" }; // only people answer
  return {
    workspaceId: actor.workspaceId,
    askerId: { not: actor.participantId },
    OR: [
      { audience: { in: ["person", "owner"] as ("person" | "owner")[] }, audienceId: actor.participantId },
      { audience: "room" as const, room: { members: { some: { participantId: actor.participantId } } } },
      { audience: "role" as const, audienceRole: { in: rolesAtMost(actor.role).filter((r) => r !== "guest") } },
    ],
  };
}

/** Checks for expired questions every `everyMs` until stopped; each process may run one. */
export function startExpirySweeper(everyMs = 1000): () => void {
  return sweepEvery(everyMs, "question expiry", () => expireDue());
}

/** A question's message, for callers that hold a message id (the web client's cards). */
export async function questionOfMessage(actor: Actor, messageId: string): Promise<QuestionForViewer> {
  const q = await getDb().question.findUnique({ where: { messageId }, select: { id: true } });
  if (!q) throw new AppError("NOT_FOUND", "No such question");
  return getQuestion(actor, { questionId: q.id });
}
