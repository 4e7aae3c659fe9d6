// The events of a piece of work in one vocabulary, for the involvement view (services/work/involvement.ts)
// and the timelines of a room, a thread or a task (services/work/timeline.ts): messages and questions
// in its conversations, people's answers (approvals among them), tasks made, completed and dropped,
// files touched and what shipped. A person's message or answer is marked as an intervention: a person
// stepping into the agents' work.
//
// Each source is read newest first in one total order, (time, event id), so a timeline pages back
// from a cursor without skipping or repeating an event, even where one report stored many rows at
// the same instant. Event ids are a one-letter source and the row's id (a UUID: the same order in
// JavaScript and in either database).
import { describeAnswer, type QuestionAnswer, type QuestionView } from "@switchboard/sdk/questions";
import { TIMELINE_CURSOR, type FileOperation, type WorkLinkKind } from "@switchboard/sdk/work";
import { getDb, type Prisma } from "../../db";
import { AppError } from "../../errors";
import { can, type Actor } from "../../policies";
import { readableRoomIds } from "../access/rooms";
import { roomViews, withMemberCount } from "../access/views";

export type Who = { id: string; handle: string; displayName: string; kind: "human" | "agent" };
const whoSelect = { id: true, handle: true, displayName: true, kind: true } as const;

/** A room, or one thread of it (its root message's id). */
export interface Conversation {
  roomId: string;
  threadRootId: string | null;
}

/** One runtime session of one agent: its tasks, files and links belong to the work it served. */
export interface AgentSession {
  agentId: string;
  sessionId: string;
}

/** What a piece of work is made of, as its events are read. */
export interface WorkSelection {
  /** Its conversations that the viewer may read (the others are never read). */
  conversations: Conversation[];
  /** Messages and answers in them from `from` through `to` (null: open). */
  from: Date | null;
  to: Date | null;
  /** Its tasks, files and links: named by id, by session, or all of a room (or a thread of it). */
  rows: { taskIds: string[]; linkIds: string[]; sessions: AgentSession[] } | { room: Conversation };
}

interface EventBase {
  /** Unique and stable: `<source letter>:<row id>`. Pass the oldest one seen back as a cursor. */
  id: string;
  at: string;
  who: Who;
  /** A person stepping in: their message, or their answer to a question (an approval among them). */
  intervention: boolean;
  /** What happened, short: the message's first 280 characters, the question, the task, the file, the link. */
  text: string;
  roomId: string | null;
  threadRootId: string | null;
  /** The message itself, or the question's message (an answer). */
  messageId: string | null;
  taskId: string | null;
}

export type WorkEvent =
  | (EventBase & { kind: "message" | "question"; words: number })
  /** `answer`: the answer in words ("Approved", a choice...); `approved`: an approval's decision, else null. */
  | (EventBase & { kind: "answer"; answer: string; approved: boolean | null })
  | (EventBase & { kind: "task_created" | "task_completed" | "task_dropped" })
  | (EventBase & { kind: "file"; file: { path: string; operation: FileOperation; linesAdded: number | null; linesRemoved: number | null } })
  | (EventBase & { kind: "link"; link: { kind: WorkLinkKind; value: string; title: string | null } });

export type WorkEventKind = WorkEvent["kind"];

/** The oldest event a page showed: the next page is what came before it. */
export interface Cursor {
  at: Date;
  id: string;
}

const EXCERPT = 280;

export const words = (text: string): number => (text.trim() ? text.trim().split(/\s+/).length : 0);
const excerpt = (text: string) => (text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text);

export const cursorOf = (event: WorkEvent): string => `${event.at}|${event.id}`;

export function parseCursor(text: string | undefined): Cursor | null {
  if (text === undefined) return null;
  const match = TIMELINE_CURSOR.exec(text); // what `cursorOf` writes; the input's schema checks it too
  const at = match ? new Date(match[1]) : null;
  if (!match || !at || Number.isNaN(at.getTime())) throw new AppError("INVALID_PAYLOAD", "cursor: not a timeline cursor");
  return { at, id: match[2] };
}

/** Newest first: later time, then the larger id. */
export const newestFirst = (a: WorkEvent, b: WorkEvent): number => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Rows of one source older than the cursor in the (time, event id) order. A source's ids all share
 * its letter, so against a cursor of another source only the time decides.
 */
function olderThan<W>(letter: string, column: string, cursor: Cursor | null): W {
  if (!cursor) return {} as W;
  const [cursorLetter, rowId] = [cursor.id[0], cursor.id.slice(2)];
  if (letter < cursorLetter) return { [column]: { lte: cursor.at } } as W;
  if (letter > cursorLetter) return { [column]: { lt: cursor.at } } as W;
  return { OR: [{ [column]: { lt: cursor.at } }, { [column]: cursor.at, id: { lt: rowId } }] } as W;
}

/** Messages of the conversations: a room's (its threads included), or one thread's root and replies. */
function inConversations(conversations: Conversation[]): Prisma.MessageWhereInput {
  return {
    OR: conversations.map((c) =>
      c.threadRootId ? { roomId: c.roomId, OR: [{ id: c.threadRootId }, { threadRootId: c.threadRootId }] } : { roomId: c.roomId },
    ),
  };
}

/** Questions asked in the conversations (in the thread, for a thread). */
function questionsIn(conversations: Conversation[]): Prisma.QuestionWhereInput {
  return {
    OR: conversations.map((c) =>
      c.threadRootId ? { roomId: c.roomId, message: { OR: [{ id: c.threadRootId }, { threadRootId: c.threadRootId }] } } : { roomId: c.roomId },
    ),
  };
}

type RowSource = "task" | "file" | "link";
function rowsOf(sel: WorkSelection, source: RowSource): Prisma.WorkTaskWhereInput & Prisma.FileTouchWhereInput & Prisma.WorkLinkWhereInput {
  if ("room" in sel.rows) {
    const { roomId, threadRootId } = sel.rows.room;
    return threadRootId ? { roomId, threadRootId } : { roomId };
  }
  const { taskIds, linkIds, sessions } = sel.rows;
  const named =
    source === "task" ? [{ id: { in: taskIds } }] : source === "file" ? [{ taskId: { in: taskIds } }] : [{ id: { in: linkIds } }, { taskId: { in: taskIds } }];
  return { OR: [...named, ...sessions.map((s) => ({ agentId: s.agentId, sessionId: s.sessionId }))] };
}

const span = (sel: WorkSelection) => ({ ...(sel.from ? { gte: sel.from } : {}), ...(sel.to ? { lte: sel.to } : {}) });

/**
 * When the work started: the request that set it going (the last person's message in its
 * conversations before its first task or file), else that first task or file; null: nothing yet.
 */
export async function workStart(sel: WorkSelection): Promise<Date | null> {
  const db = getDb();
  const [task, file] = await Promise.all([
    db.workTask.findFirst({ where: rowsOf(sel, "task"), orderBy: { createdAt: "asc" }, select: { createdAt: true } }),
    db.fileTouch.findFirst({ where: rowsOf(sel, "file"), orderBy: { at: "asc" }, select: { at: true } }),
  ]);
  const first = [task?.createdAt, file?.at].filter((d): d is Date => !!d).sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
  if (!first || sel.conversations.length === 0) return first;
  const request = await db.message.findFirst({
    where: { AND: [inConversations(sel.conversations), { kind: "text", deletedAt: null, createdAt: { lte: first }, author: { kind: "human" } }] },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true },
  });
  return request?.createdAt ?? first;
}

/**
 * Up to `take` events of each source older than `cursor`, newest first, merged. Rows of work the
 * viewer may not see (`work.read`) come back with `visible: false`: a page counts them as read, so
 * the next page starts after them, but never shows them.
 */
async function readSources(actor: Actor, sel: WorkSelection, cursor: Cursor | null, take: number): Promise<{ event: WorkEvent; visible: boolean }[]> {
  const db = getDb();
  const talk = sel.conversations.length > 0;
  const agent = { select: { ...whoSelect, ownerId: true } } as const;
  const tasks = (letter: string, column: "createdAt" | "completedAt" | "updatedAt", where: Prisma.WorkTaskWhereInput) =>
    db.workTask.findMany({
      where: { AND: [rowsOf(sel, "task"), where, olderThan(letter, column, cursor)] },
      include: { agent },
      orderBy: [{ [column]: "desc" }, { id: "desc" }],
      take,
    });
  const [messages, answers, created, completed, dropped, files, links] = await Promise.all([
    talk
      ? db.message.findMany({
          where: {
            AND: [
              inConversations(sel.conversations),
              { kind: { in: ["text", "question"] }, deletedAt: null, createdAt: span(sel) },
              olderThan("m", "createdAt", cursor),
            ],
          },
          select: { id: true, roomId: true, threadRootId: true, kind: true, body: true, createdAt: true, author: { select: whoSelect } },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take,
        })
      : [],
    talk
      ? db.question.findMany({
          where: {
            AND: [
              questionsIn(sel.conversations),
              { answeredById: { not: null }, answeredAt: { not: null, ...span(sel) } },
              olderThan("a", "answeredAt", cursor),
            ],
          },
          select: {
            id: true,
            roomId: true,
            messageId: true,
            kind: true,
            prompt: true,
            options: true,
            fields: true,
            answer: true,
            answeredAt: true,
            answeredBy: { select: whoSelect },
            message: { select: { threadRootId: true } },
          },
          orderBy: [{ answeredAt: "desc" }, { id: "desc" }],
          take,
        })
      : [],
    tasks("c", "createdAt", {}),
    tasks("d", "completedAt", { status: "completed", completedAt: { not: null } }),
    tasks("x", "updatedAt", { status: "dropped" }),
    db.fileTouch.findMany({
      where: { AND: [rowsOf(sel, "file"), olderThan("f", "at", cursor)] },
      include: { agent },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      take,
    }),
    db.workLink.findMany({
      where: { AND: [rowsOf(sel, "link"), olderThan("l", "createdAt", cursor)] },
      include: { agent },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take,
    }),
  ]);

  const visible = await workReadable(actor, [...created, ...completed, ...dropped, ...files, ...links]);
  const who = ({ ownerId: _owner, ...w }: Who & { ownerId: string | null }): Who => w;
  const out: { event: WorkEvent; visible: boolean }[] = [];
  const base = (id: string, at: Date, w: Who, text: string, where: { roomId: string | null; threadRootId: string | null }) =>
    ({
      id,
      at: at.toISOString(),
      who: w,
      intervention: false,
      text: excerpt(text),
      roomId: where.roomId,
      threadRootId: where.threadRootId,
      messageId: null,
      taskId: null,
    }) satisfies EventBase;

  for (const m of messages) {
    const event = {
      ...base(`m:${m.id}`, m.createdAt, m.author, m.body, m),
      kind: m.kind === "question" ? ("question" as const) : ("message" as const),
      intervention: m.author.kind === "human",
      messageId: m.id,
      words: words(m.body),
    };
    out.push({ event, visible: true });
  }
  for (const q of answers) {
    if (!q.answeredBy || !q.answeredAt) continue;
    const answer = q.answer as QuestionAnswer | null;
    const described = describeAnswer({ kind: q.kind, options: q.options as QuestionView["options"], fields: q.fields as QuestionView["fields"] }, answer);
    const approved = q.kind === "approval" && answer && "approved" in answer ? answer.approved : null;
    const event = {
      ...base(`a:${q.id}`, q.answeredAt, q.answeredBy, q.prompt, { roomId: q.roomId, threadRootId: q.message.threadRootId }),
      kind: "answer" as const,
      intervention: q.answeredBy.kind === "human",
      messageId: q.messageId,
      answer: excerpt(described),
      approved,
    };
    out.push({ event, visible: true });
  }
  const taskEvent =
    (letter: string, kind: "task_created" | "task_completed" | "task_dropped", at: (t: (typeof created)[number]) => Date | null) =>
    (t: (typeof created)[number]) => {
      const when = at(t);
      if (when) out.push({ event: { ...base(`${letter}:${t.id}`, when, who(t.agent), t.title, t), kind, taskId: t.id }, visible: visible(t) });
    };
  created.forEach(taskEvent("c", "task_created", (t) => t.createdAt));
  completed.forEach(taskEvent("d", "task_completed", (t) => t.completedAt));
  dropped.forEach(taskEvent("x", "task_dropped", (t) => t.updatedAt));
  for (const f of files) {
    const lines = f.linesAdded !== null || f.linesRemoved !== null ? ` (+${f.linesAdded ?? 0} −${f.linesRemoved ?? 0})` : "";
    const file = { path: f.path, operation: f.operation, linesAdded: f.linesAdded, linesRemoved: f.linesRemoved };
    out.push({
      event: { ...base(`f:${f.id}`, f.at, who(f.agent), `${f.operation} ${f.path}${lines}`, f), kind: "file", taskId: f.taskId, file },
      visible: visible(f),
    });
  }
  for (const l of links) {
    const link = { kind: l.kind, value: l.value, title: l.title };
    out.push({
      event: { ...base(`l:${l.id}`, l.createdAt, who(l.agent), l.title ? `${l.title} (${l.value})` : l.value, l), kind: "link", taskId: l.taskId, link },
      visible: visible(l),
    });
  }
  return out.sort((a, b) => newestFirst(a.event, b.event));
}

/**
 * A page of the work's events, newest first: at most `limit`, older than `cursor`. `next` is the
 * cursor of the page before it, null when this page reaches the first event.
 */
export async function eventPage(actor: Actor, sel: WorkSelection, cursor: Cursor | null, limit: number): Promise<{ events: WorkEvent[]; next: string | null }> {
  const read = await readSources(actor, sel, cursor, limit + 1);
  const page = read.slice(0, limit);
  return { events: page.filter((r) => r.visible).map((r) => r.event), next: read.length > limit ? cursorOf(page.at(-1)!.event) : null };
}

/** Every event of the work the viewer may see, newest first, up to `cap` of each source. */
export async function allEvents(actor: Actor, sel: WorkSelection, cap: number): Promise<WorkEvent[]> {
  return (await readSources(actor, sel, null, cap)).filter((r) => r.visible).map((r) => r.event);
}

/**
 * Which rows of agents' work the actor may see (`work.read`): those of agents they speak for,
 * everything for admins, and the rest where it was done for a room they may read.
 */
export async function workReadable(actor: Actor, rows: { roomId: string | null }[]): Promise<(row: WorkRow) => boolean> {
  const readable = await readableRoomIds(actor, [...new Set(rows.flatMap((r) => (r.roomId ? [r.roomId] : [])))]);
  return (row) => can(actor, "work.read", { workspaceId: row.workspaceId, agent: row.agent, roomReadable: row.roomId !== null && readable.has(row.roomId) });
}

/** A row of an agent's work, as `work.read` decides on it. */
export interface WorkRow {
  workspaceId: string;
  roomId: string | null;
  agent: { id: string; ownerId: string | null };
}

export interface RoomName {
  id: string;
  /** As the viewer sees it: a channel's name, a conversation's people. */
  title: string;
  kind: "channel" | "dm" | "group";
}

/** Of these rooms, those the actor may read, with their titles: what a view links to. */
export async function roomNames(actor: Actor, roomIds: string[]): Promise<RoomName[]> {
  const readable = await readableRoomIds(actor, [...new Set(roomIds)]);
  if (readable.size === 0) return [];
  const rooms = await getDb().room.findMany({ where: { id: { in: [...readable] } }, include: withMemberCount });
  return (await roomViews(rooms, actor.participantId)).map((r) => ({ id: r.id, title: r.title, kind: r.kind }));
}
