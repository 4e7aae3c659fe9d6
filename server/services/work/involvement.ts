// Involvement: for a pull request, a branch or a task, who drove it. The work's links and tasks name
// the rooms and threads (and runtime sessions) that produced it; the conversation there, from the
// request that set the work going (the last person's message before its first reported task or file)
// to the link (or the task's end, or now), is read for each person's and each agent's part:
// messages and their words, questions people answered (approvals among them), tasks and files. A
// manager reads "was the developer really involved?" off facts, and exports them (CSV).
//
// Only conversations the viewer may read are counted; the others are counted as hidden, never read.
import type { InvolvementInput, TaskView } from "@switchboard/sdk/work";
import { AppError } from "../../errors";
import { getDb } from "../../db";
import { authorize, type Actor } from "../../policies";
import { presentTask } from "../../presenters/work";
import { readableRoomIds } from "../access/rooms";
import { allEvents, roomNames, workStart, type AgentSession, type Conversation, type RoomName, type Who, type WorkEvent, type WorkSelection } from "./events";

export type InvolvementSubject = InvolvementInput;

export interface ParticipantPart {
  participant: Who;
  messages: number;
  words: number;
  /** Questions this person answered (approvals among them): people only. */
  answers: number;
  approvals: number;
  /** Tasks reported and files touched: agents only. */
  tasks: number;
  files: number;
  linesChanged: number;
  firstAt: string | null;
  lastAt: string | null;
}

export interface Involvement {
  subject: { kind: InvolvementSubject["kind"]; value: string; title: string | null };
  from: string | null;
  to: string;
  conversations: Conversation[];
  /** The rooms of those conversations, titled as the viewer sees them. */
  rooms: RoomName[];
  /** Conversations of the work that the viewer may not read: not counted. */
  hiddenConversations: number;
  people: ParticipantPart[];
  agents: ParticipantPart[];
  /** People's share of the messages and of the words in those conversations (0–1); null: none said. */
  share: { messages: number | null; words: number | null };
  /** The latest MAX_TIMELINE events, oldest first; `earlierEvents` more came before them. */
  timeline: WorkEvent[];
  earlierEvents: number;
}

/** Events read per source (messages, answers, tasks, files, links): what the figures count at most. */
const MAX_EVENTS = 5000;
const MAX_TIMELINE = 300;

/** The work a subject names, once the viewer may see it: what to read, and what stays hidden. */
export interface SubjectWork {
  subject: Involvement["subject"];
  selection: WorkSelection;
  hiddenConversations: number;
  /** The task, for a task. */
  task: TaskView | null;
}

interface Scope extends AgentSession {
  roomId: string;
  threadRootId: string | null;
}

/**
 * Resolves a pull request, a branch or a task to its work: its links and tasks name the rooms and
 * threads (and runtime sessions) that produced it; the conversation there counts from the request
 * that set the work going to the link (or the task's end). A task is seen where `work.read` allows
 * (else NOT_FOUND); a link is anyone's to look up, and only what the viewer may read is counted.
 */
export async function subjectWork(actor: Actor, subject: InvolvementSubject): Promise<SubjectWork> {
  const db = getDb();
  const workspaceId = actor.workspaceId;
  let scopes: Scope[] = [];
  let rows: { taskIds: string[]; linkIds: string[] };
  let head: SubjectWork["subject"];
  let to: Date | null = null;
  let task: TaskView | null = null;
  if (subject.kind === "task") {
    const row = await db.workTask.findUnique({ where: { id: subject.taskId } });
    if (!row || row.workspaceId !== workspaceId) throw new AppError("NOT_FOUND", "No such task");
    task = presentTask(row);
    const owner = await db.participant.findUniqueOrThrow({ where: { id: row.agentId }, select: { id: true, ownerId: true } });
    const roomReadable = row.roomId !== null && (await readableRoomIds(actor, [row.roomId])).has(row.roomId);
    authorize(actor, "work.read", { workspaceId, agent: owner, roomReadable });
    head = { kind: "task", value: row.title, title: row.title };
    rows = { taskIds: [row.id, ...(await db.workTask.findMany({ where: { parentId: row.id }, select: { id: true } })).map((t) => t.id)], linkIds: [] };
    if (row.roomId) scopes = [{ roomId: row.roomId, threadRootId: row.threadRootId, sessionId: row.sessionId, agentId: row.agentId }];
    to = row.completedAt;
  } else {
    authorize(actor, "work.read_workspace", { workspaceId }); // which links a pull request or a branch has
    const links = await db.workLink.findMany({ where: { workspaceId, kind: subject.kind, value: subject.value }, orderBy: { createdAt: "asc" } });
    if (links.length === 0) throw new AppError("NOT_FOUND", `No work links to this ${subject.kind === "branch" ? "branch" : "pull request"}`);
    head = { kind: subject.kind, value: subject.value, title: links.find((l) => l.title)?.title ?? null };
    scopes = links.flatMap((l) => (l.roomId ? [{ roomId: l.roomId, threadRootId: l.threadRootId, sessionId: l.sessionId, agentId: l.agentId }] : []));
    rows = { taskIds: links.flatMap((l) => (l.taskId ? [l.taskId] : [])), linkIds: links.map((l) => l.id) };
    to = links.at(-1)!.createdAt;
  }

  // One conversation per room and thread; a room's top level when any scope names no thread.
  const conversations = dedupe(scopes);
  const readable = await readableRoomIds(actor, [...new Set(conversations.map((c) => c.roomId))]);
  const visible = conversations.filter((c) => readable.has(c.roomId));
  // A link or a task names its session: the session's tasks, files and links are the work.
  const selection: WorkSelection = { conversations: visible, from: null, to, rows: { ...rows, sessions: dedupeSessions(scopes) } };
  selection.from = await workStart(selection);
  return { subject: head, selection, hiddenConversations: conversations.length - visible.length, task };
}

export async function involvement(actor: Actor, subject: InvolvementSubject, now = new Date()): Promise<Involvement> {
  const work = await subjectWork(actor, subject);
  const [events, rooms] = await Promise.all([
    allEvents(actor, work.selection, MAX_EVENTS),
    roomNames(
      actor,
      work.selection.conversations.map((c) => c.roomId),
    ),
  ]);

  const parts = new Map<string, ParticipantPart>();
  let messages = 0;
  let totalWords = 0;
  for (const e of events) {
    let p = parts.get(e.who.id);
    if (!p)
      parts.set(
        e.who.id,
        (p = { participant: e.who, messages: 0, words: 0, answers: 0, approvals: 0, tasks: 0, files: 0, linesChanged: 0, firstAt: null, lastAt: null }),
      );
    if (!p.firstAt || e.at < p.firstAt) p.firstAt = e.at;
    if (!p.lastAt || e.at > p.lastAt) p.lastAt = e.at;
    if (e.kind === "message" || e.kind === "question") {
      p.messages++;
      p.words += e.words;
      messages++;
      totalWords += e.words;
    } else if (e.kind === "answer") {
      p.answers++;
      if (e.approved !== null) p.approvals++;
    } else if (e.kind === "task_created") p.tasks++;
    else if (e.kind === "file") {
      p.files++;
      p.linesChanged += (e.file.linesAdded ?? 0) + (e.file.linesRemoved ?? 0);
    }
  }

  const all = [...parts.values()];
  const people = all.filter((p) => p.participant.kind === "human").sort(byMessages);
  const agentParts = all.filter((p) => p.participant.kind === "agent").sort(byMessages);
  const ofPeople = { messages: people.reduce((n, p) => n + p.messages, 0), words: people.reduce((n, p) => n + p.words, 0) };
  return {
    subject: work.subject,
    from: work.selection.from?.toISOString() ?? null,
    to: (work.selection.to ?? now).toISOString(),
    conversations: work.selection.conversations,
    rooms,
    hiddenConversations: work.hiddenConversations,
    people,
    agents: agentParts,
    share: { messages: messages ? round(ofPeople.messages / messages) : null, words: totalWords ? round(ofPeople.words / totalWords) : null },
    timeline: events.slice(0, MAX_TIMELINE).reverse(),
    earlierEvents: Math.max(0, events.length - MAX_TIMELINE),
  };
}

/** The involvement as CSV: one row per participant, every figure a column. */
export function involvementCsv(inv: Involvement): string {
  const header = [
    "subject_kind",
    "subject",
    "participant",
    "handle",
    "kind",
    "messages",
    "words",
    "answers",
    "approvals",
    "tasks",
    "files",
    "lines_changed",
    "first_at",
    "last_at",
  ];
  const rows = [...inv.people, ...inv.agents].map((p) => [
    inv.subject.kind,
    inv.subject.value,
    p.participant.displayName,
    p.participant.handle,
    p.participant.kind,
    p.messages,
    p.words,
    p.answers,
    p.approvals,
    p.tasks,
    p.files,
    p.linesChanged,
    p.firstAt ?? "",
    p.lastAt ?? "",
  ]);
  return [header, ...rows].map((r) => r.map(csvCell).join(",")).join("\n") + "\n";
}

function csvCell(value: string | number): string {
  const text = String(value);
  // Quoted when needed; a leading = + - @ is defused so a spreadsheet never runs it as a formula.
  const safe = /^[=+\-@]/.test(text) && typeof value === "string" ? `'${text}` : text;
  return /[",\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const byMessages = (a: ParticipantPart, b: ParticipantPart) =>
  b.messages - a.messages || b.answers - a.answers || a.participant.handle.localeCompare(b.participant.handle);

function dedupe(scopes: Scope[]): Conversation[] {
  const roomLevel = new Set(scopes.filter((s) => !s.threadRootId).map((s) => s.roomId));
  const out = new Map<string, Conversation>();
  for (const s of scopes) {
    const threadRootId = roomLevel.has(s.roomId) ? null : s.threadRootId;
    out.set(`${s.roomId} ${threadRootId ?? ""}`, { roomId: s.roomId, threadRootId });
  }
  return [...out.values()];
}

function dedupeSessions(scopes: Scope[]): AgentSession[] {
  const out = new Map<string, AgentSession>();
  for (const s of scopes) if (s.sessionId) out.set(`${s.agentId} ${s.sessionId}`, { agentId: s.agentId, sessionId: s.sessionId });
  return [...out.values()];
}
