// Involvement: for a pull request, a branch or a task, who drove it. The work's links and tasks name
// the rooms and threads (and runtime sessions) that produced it; the conversation there, from the
// request that set the work going (the last person's message before its first reported task or file)
// to the link (or the task's end, or now), is read for each person's and each agent's part:
// messages and their words, questions people answered (approvals among them), tasks and files. A
// manager reads "was the developer really involved?" off facts, and exports them (CSV).
//
// Only conversations the viewer may read are counted; the others are counted as hidden, never read.
import { AppError } from "../errors";
import { getDb } from "../db";
import { authorize, type Actor } from "../policies";
import { readableRoomIds } from "./room-access";

export type InvolvementSubject = { kind: "pull_request" | "branch"; value: string } | { kind: "task"; taskId: string };

type Who = { id: string; handle: string; displayName: string; kind: "human" | "agent" };

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

export interface InvolvementEvent {
  at: string;
  kind: "message" | "answer" | "task" | "file" | "link";
  who: Who;
  text: string;
  roomId: string;
}

export interface Involvement {
  subject: { kind: InvolvementSubject["kind"]; value: string; title: string | null };
  from: string | null;
  to: string;
  conversations: { roomId: string; threadRootId: string | null }[];
  /** Conversations of the work that the viewer may not read: not counted. */
  hiddenConversations: number;
  people: ParticipantPart[];
  agents: ParticipantPart[];
  /** People's share of the messages and of the words in those conversations (0–1); null: none said. */
  share: { messages: number | null; words: number | null };
  timeline: InvolvementEvent[];
}

const MAX_MESSAGES = 5000;
const MAX_TIMELINE = 300;

const words = (text: string) => (text.trim() ? text.trim().split(/\s+/).length : 0);

interface Scope {
  roomId: string;
  threadRootId: string | null;
  sessionId: string;
  agentId: string;
}

export async function involvement(actor: Actor, subject: InvolvementSubject, now = new Date()): Promise<Involvement> {
  const db = getDb();
  const workspaceId = actor.workspaceId;
  let scopes: Scope[] = [];
  let title: string | null = null;
  let value: string;
  let to = now;
  let taskIds: string[] = [];
  if (subject.kind === "task") {
    const task = await db.workTask.findUnique({ where: { id: subject.taskId } });
    if (!task || task.workspaceId !== workspaceId) throw new AppError("NOT_FOUND", "No such task");
    const owner = await db.participant.findUniqueOrThrow({ where: { id: task.agentId }, select: { id: true, ownerId: true } });
    const roomReadable = task.roomId !== null && (await readableRoomIds(actor, [task.roomId])).has(task.roomId);
    authorize(actor, "work.read", { workspaceId, agent: owner, roomReadable });
    value = task.title;
    title = task.title;
    taskIds = [task.id, ...(await db.workTask.findMany({ where: { parentId: task.id }, select: { id: true } })).map((t) => t.id)];
    if (task.roomId) scopes = [{ roomId: task.roomId, threadRootId: task.threadRootId, sessionId: task.sessionId, agentId: task.agentId }];
    if (task.completedAt) to = task.completedAt;
  } else {
    value = subject.value;
    const links = await db.workLink.findMany({ where: { workspaceId, kind: subject.kind, value: subject.value }, orderBy: { createdAt: "asc" } });
    if (links.length === 0) throw new AppError("NOT_FOUND", `No work links to this ${subject.kind === "branch" ? "branch" : "pull request"}`);
    title = links.find((l) => l.title)?.title ?? null;
    scopes = links.flatMap((l) => (l.roomId ? [{ roomId: l.roomId, threadRootId: l.threadRootId, sessionId: l.sessionId, agentId: l.agentId }] : []));
    taskIds = links.flatMap((l) => (l.taskId ? [l.taskId] : []));
    to = links.at(-1)!.createdAt;
    // The sessions' tasks too: a link names the session, the session's tasks are the work.
    const sessions = links.filter((l) => l.sessionId);
    if (sessions.length) {
      const sessionTasks = await db.workTask.findMany({ where: { OR: sessions.map((l) => ({ agentId: l.agentId, sessionId: l.sessionId })) }, select: { id: true } });
      taskIds = [...new Set([...taskIds, ...sessionTasks.map((t) => t.id)])];
    }
  }

  // One conversation per room and thread; a room's top level when any scope names no thread.
  const conversations = dedupe(scopes);
  const readable = await readableRoomIds(actor, [...new Set(conversations.map((c) => c.roomId))]);
  const visible = conversations.filter((c) => readable.has(c.roomId));

  // The work's span: from its sessions' first task or file to the link (or the task's end, or now).
  const sessions = dedupeSessions(scopes);
  const [tasks, files] = await Promise.all([
    db.workTask.findMany({ where: { OR: [{ id: { in: taskIds } }, ...sessions] }, orderBy: { createdAt: "asc" } }),
    db.fileTouch.findMany({ where: { OR: [{ taskId: { in: taskIds } }, ...sessions] }, orderBy: { at: "asc" }, take: MAX_MESSAGES }),
  ]);
  const seenTasks = tasks.filter((t) => t.roomId === null || readable.has(t.roomId));
  const seenFiles = files.filter((f) => f.roomId === null || readable.has(f.roomId));
  const firstWork = [seenTasks[0]?.createdAt, seenFiles[0]?.at].filter((d): d is Date => !!d).sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
  const inConversations = visible.map((c) => (c.threadRootId ? { roomId: c.roomId, OR: [{ id: c.threadRootId }, { threadRootId: c.threadRootId }] } : { roomId: c.roomId }));
  // The work starts with the request that set it going: the last person's message before its first
  // reported task or file (else that first report).
  const request =
    firstWork && visible.length
      ? await db.message.findFirst({ where: { OR: inConversations, kind: "text", deletedAt: null, createdAt: { lte: firstWork }, author: { kind: "human" } }, orderBy: { createdAt: "desc" }, select: { createdAt: true } })
      : null;
  const from = request?.createdAt ?? firstWork;

  const messages = visible.length
    ? await db.message.findMany({
        where: {
          OR: inConversations,
          kind: { in: ["text", "question"] },
          deletedAt: null,
          createdAt: { ...(from ? { gte: from } : {}), lte: to },
        },
        select: { id: true, roomId: true, body: true, createdAt: true, author: { select: { id: true, handle: true, displayName: true, kind: true } } },
        orderBy: { createdAt: "asc" },
        take: MAX_MESSAGES,
      })
    : [];
  const answers = visible.length
    ? await db.question.findMany({
        where: { OR: visible.map((c) => ({ roomId: c.roomId })), answeredAt: { ...(from ? { gte: from } : {}), lte: to }, answeredById: { not: null } },
        select: { kind: true, prompt: true, roomId: true, answeredAt: true, answeredBy: { select: { id: true, handle: true, displayName: true, kind: true } } },
      })
    : [];

  const parts = new Map<string, ParticipantPart>();
  const part = (who: Who) => {
    let p = parts.get(who.id);
    if (!p) parts.set(who.id, (p = { participant: who, messages: 0, words: 0, answers: 0, approvals: 0, tasks: 0, files: 0, linesChanged: 0, firstAt: null, lastAt: null }));
    return p;
  };
  const touch = (p: ParticipantPart, at: Date) => {
    const iso = at.toISOString();
    if (!p.firstAt || iso < p.firstAt) p.firstAt = iso;
    if (!p.lastAt || iso > p.lastAt) p.lastAt = iso;
  };
  const timeline: InvolvementEvent[] = [];
  for (const m of messages) {
    const p = part(m.author);
    p.messages++;
    p.words += words(m.body);
    touch(p, m.createdAt);
    timeline.push({ at: m.createdAt.toISOString(), kind: "message", who: m.author, text: m.body.slice(0, 280), roomId: m.roomId });
  }
  for (const q of answers) {
    if (!q.answeredBy || !q.answeredAt) continue;
    const p = part(q.answeredBy);
    p.answers++;
    if (q.kind === "approval") p.approvals++;
    touch(p, q.answeredAt);
    timeline.push({ at: q.answeredAt.toISOString(), kind: "answer", who: q.answeredBy, text: q.prompt.slice(0, 280), roomId: q.roomId });
  }
  const agents = await agentsById([...new Set([...seenTasks.map((t) => t.agentId), ...seenFiles.map((f) => f.agentId)])]);
  for (const t of seenTasks) {
    const p = part(agents.get(t.agentId)!);
    p.tasks++;
    touch(p, t.createdAt);
    timeline.push({ at: t.createdAt.toISOString(), kind: "task", who: p.participant, text: `${t.title} (${t.status.replace("_", " ")})`, roomId: t.roomId ?? "" });
  }
  for (const f of seenFiles) {
    const p = part(agents.get(f.agentId)!);
    p.files++;
    p.linesChanged += (f.linesAdded ?? 0) + (f.linesRemoved ?? 0);
    touch(p, f.at);
    timeline.push({ at: f.at.toISOString(), kind: "file", who: p.participant, text: `${f.operation} ${f.path}`, roomId: f.roomId ?? "" });
  }

  const all = [...parts.values()];
  const people = all.filter((p) => p.participant.kind === "human").sort(byMessages);
  const agentParts = all.filter((p) => p.participant.kind === "agent").sort(byMessages);
  const total = { messages: messages.length, words: messages.reduce((n, m) => n + words(m.body), 0) };
  const ofPeople = { messages: people.reduce((n, p) => n + p.messages, 0), words: people.reduce((n, p) => n + p.words, 0) };
  return {
    subject: { kind: subject.kind, value, title },
    from: from?.toISOString() ?? null,
    to: to.toISOString(),
    conversations: visible.map((c) => ({ roomId: c.roomId, threadRootId: c.threadRootId })),
    hiddenConversations: conversations.length - visible.length,
    people,
    agents: agentParts,
    share: { messages: total.messages ? round(ofPeople.messages / total.messages) : null, words: total.words ? round(ofPeople.words / total.words) : null },
    timeline: timeline.sort((a, b) => a.at.localeCompare(b.at)).slice(-MAX_TIMELINE),
  };
}

/** The involvement as CSV: one row per participant, every figure a column. */
export function involvementCsv(inv: Involvement): string {
  const header = ["subject_kind", "subject", "participant", "handle", "kind", "messages", "words", "answers", "approvals", "tasks", "files", "lines_changed", "first_at", "last_at"];
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
const byMessages = (a: ParticipantPart, b: ParticipantPart) => b.messages - a.messages || b.answers - a.answers || a.participant.handle.localeCompare(b.participant.handle);

function dedupe(scopes: Scope[]): { roomId: string; threadRootId: string | null }[] {
  const roomLevel = new Set(scopes.filter((s) => !s.threadRootId).map((s) => s.roomId));
  const out = new Map<string, { roomId: string; threadRootId: string | null }>();
  for (const s of scopes) {
    const threadRootId = roomLevel.has(s.roomId) ? null : s.threadRootId;
    out.set(`${s.roomId} ${threadRootId ?? ""}`, { roomId: s.roomId, threadRootId });
  }
  return [...out.values()];
}

function dedupeSessions(scopes: Scope[]): { agentId: string; sessionId: string }[] {
  const out = new Map<string, { agentId: string; sessionId: string }>();
  for (const s of scopes) if (s.sessionId) out.set(`${s.agentId} ${s.sessionId}`, { agentId: s.agentId, sessionId: s.sessionId });
  return [...out.values()];
}

async function agentsById(ids: string[]): Promise<Map<string, Who>> {
  const rows = await getDb().participant.findMany({ where: { id: { in: ids } }, select: { id: true, handle: true, displayName: true, kind: true } });
  return new Map(rows.map((r) => [r.id, r]));
}
