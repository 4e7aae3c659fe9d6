// The work board, read side: per agent (status, tasks with progress, files and components touched,
// what it shipped, last activity), per component (which agents are in it now and lately), and the
// warnings when two agents edit the same file or component at the same time. Each viewer sees an
// agent's work where the policy `work.read` lets them (the room it served, or the agent is theirs, or
// they are an admin); the agents, their statuses and the component map are the workspace's, like
// presence (`work.read_workspace`).
import {
  orderTasks,
  summarizeFiles,
  type FileOperation,
  type FileSummary,
  type FileTouchView,
  type TaskView,
  type WorkLinkView,
  type WorkStatusView,
} from "@switchboard/sdk/work";
import { getDb } from "../../db";
import { authorize, type Actor } from "../../policies";
import { presentFileTouch, presentTask, presentWorkLink, presentWorkStatus, workStatusSelect } from "../../presenters/work";
import { onlineAmong } from "../../realtime/presence";
import { componentMatcherFor } from "./components";
import { roomNames, workReadable, type RoomName } from "./events";
import { groupBy } from "../../collections";

/** Touches within this long count as "now" (a component's agents now), and as "at the same time" (conflicts). */
export const NOW_MS = 15 * 60 * 1000;
export const CONFLICT_WINDOW_MS = 30 * 60 * 1000;
const EDITS = new Set<FileOperation>(["edit", "create", "delete"]);

const MAX_TASKS = 2000;
const MAX_FILES = 5000;
const MAX_LINKS = 500;
const TASKS_PER_AGENT = 50;
const FILES_PER_AGENT = 40;

type Who = { id: string; handle: string; displayName: string };

export interface AgentWork {
  agent: Who & { framework: string | null; owner: Who | null; online: boolean; status: "active" | "suspended" };
  status: WorkStatusView;
  /** Open tasks, then those finished within the board's window, in the agent's order per session. */
  tasks: TaskView[];
  progress: { completed: number; total: number };
  files: FileSummary[];
  components: { name: string; touches: number; lastAt: string }[];
  links: WorkLinkView[];
  /** The rooms its work in the window served that the viewer may read (their titles: the board's `rooms`), latest first. */
  roomIds: string[];
  /** The rooms it is paused in that the viewer may read (their titles: the board's `rooms`). */
  pausedIn: string[];
  lastActivityAt: string | null;
}

export interface ComponentWork {
  name: string;
  touches: number;
  lastAt: string;
  /** Agents that touched it within NOW_MS, and within the window. */
  agentsNow: Who[];
  agentsLately: Who[];
}

/** Two or more agents editing one file (or one component) within CONFLICT_WINDOW_MS of each other. */
export interface WorkConflict {
  kind: "file" | "component";
  /** The file's path, or the component's name. */
  subject: string;
  component: string | null;
  agents: Who[];
  from: string;
  to: string;
}

export interface WorkBoard {
  since: string;
  /** The rooms the agents' work served that the viewer may read, titled as the viewer sees them. */
  rooms: RoomName[];
  agents: AgentWork[];
  components: ComponentWork[];
  conflicts: WorkConflict[];
}

export async function workBoard(actor: Actor, input: { sinceHours: number }, now = new Date()): Promise<WorkBoard> {
  const db = getDb();
  const since = new Date(now.getTime() - input.sinceHours * 3600 * 1000);
  const workspaceId = actor.workspaceId;
  authorize(actor, "work.read_workspace", { workspaceId }); // the agents, their statuses and the component map
  const [agents, tasks, files, links, componentOf] = await Promise.all([
    db.participant.findMany({
      where: { workspaceId, kind: "agent" },
      select: {
        ...workStatusSelect,
        handle: true,
        displayName: true,
        framework: true,
        status: true,
        ownerId: true,
        lastSeenAt: true,
        owner: { select: { id: true, handle: true, displayName: true } },
      },
      orderBy: { handle: "asc" },
      take: 1000,
    }),
    db.workTask.findMany({
      where: { workspaceId, OR: [{ status: { in: ["pending", "in_progress"] } }, { updatedAt: { gte: since } }] },
      orderBy: { updatedAt: "desc" },
      take: MAX_TASKS,
    }),
    db.fileTouch.findMany({ where: { workspaceId, at: { gte: since } }, orderBy: { at: "desc" }, take: MAX_FILES }),
    db.workLink.findMany({ where: { workspaceId, createdAt: { gte: since } }, orderBy: { createdAt: "desc" }, take: MAX_LINKS }),
    componentMatcherFor(workspaceId),
  ]);
  const pauses = await db.roomMember.findMany({
    where: { pausedAt: { not: null }, participant: { workspaceId, kind: "agent" } },
    select: { roomId: true, participantId: true },
  });
  const byId = new Map(agents.map((a) => [a.id, a]));
  const visible = await workVisibility(actor, byId, [...tasks, ...files, ...links]);
  const seen = <T extends { agentId: string; roomId: string | null }>(rows: T[]) => rows.filter(visible);

  const fileViews = seen(files).map((f) => presentFileTouch(f, componentOf));
  const taskViews = seen(tasks).map(presentTask);
  const linkViews = seen(links).map(presentWorkLink);
  const [online, rooms] = await Promise.all([
    onlineAmong(agents.map((a) => a.id)),
    roomNames(actor, [...[...taskViews, ...fileViews, ...linkViews].flatMap((r) => (r.roomId ? [r.roomId] : [])), ...pauses.map((p) => p.roomId)]),
  ]);
  const titled = new Set(rooms.map((r) => r.id));
  const who = (id: string): Who => {
    const a = byId.get(id)!;
    return { id: a.id, handle: a.handle, displayName: a.displayName };
  };

  const board: AgentWork[] = agents.map((a) => {
    const mine = taskViews.filter((t) => t.agentId === a.id);
    const myFiles = fileViews.filter((f) => f.agentId === a.id);
    const counted = mine.filter((t) => t.status !== "dropped");
    const activity = [mine[0]?.updatedAt, myFiles[0]?.at, a.lastSeenAt?.toISOString()].filter((d): d is string => !!d).sort();
    return {
      agent: { ...who(a.id), framework: a.framework, owner: a.owner, online: online.has(a.id), status: a.status },
      status: presentWorkStatus(a, now),
      tasks: orderTasks(mine).slice(0, TASKS_PER_AGENT),
      progress: { completed: counted.filter((t) => t.status === "completed").length, total: counted.length },
      files: summarizeFiles(myFiles).slice(0, FILES_PER_AGENT),
      components: componentsOf(myFiles),
      links: linkViews.filter((l) => l.agentId === a.id),
      roomIds: roomsOf([...mine.map((t) => ({ roomId: t.roomId, at: t.updatedAt })), ...myFiles.map((f) => ({ roomId: f.roomId, at: f.at }))], titled),
      pausedIn: pauses.filter((p) => p.participantId === a.id && titled.has(p.roomId)).map((p) => p.roomId),
      lastActivityAt: activity.at(-1) ?? null,
    };
  });
  board.sort((x, y) => rank(x) - rank(y) || (y.lastActivityAt ?? "").localeCompare(x.lastActivityAt ?? "") || x.agent.handle.localeCompare(y.agent.handle));
  return { since: since.toISOString(), rooms, agents: board, components: componentWork(fileViews, who, now), conflicts: conflicts(fileViews, who) };
}

/** Which rows the actor may see (`work.read`), their agents being among `agents`. */
async function workVisibility(actor: Actor, agents: Map<string, { id: string; ownerId: string | null }>, rows: { agentId: string; roomId: string | null }[]) {
  const readable = await workReadable(actor, rows);
  return (row: { agentId: string; roomId: string | null }): boolean => {
    const agent = agents.get(row.agentId);
    return !!agent && readable({ workspaceId: actor.workspaceId, roomId: row.roomId, agent });
  };
}

/** The rooms of these rows among `titled`, the latest worked in first. */
function roomsOf(rows: { roomId: string | null; at: string }[], titled: Set<string>): string[] {
  const latest = new Map<string, string>();
  for (const r of rows) if (r.roomId && titled.has(r.roomId) && r.at > (latest.get(r.roomId) ?? "")) latest.set(r.roomId, r.at);
  return [...latest].sort((a, b) => b[1].localeCompare(a[1])).map(([id]) => id);
}

const STATE_RANK = { working: 0, waiting: 1, blocked: 2, idle: 3 } as const;
const rank = (a: AgentWork) => STATE_RANK[a.status.state] + (a.agent.status === "suspended" ? 10 : 0);

function componentsOf(files: FileTouchView[]): AgentWork["components"] {
  const by = new Map<string, { name: string; touches: number; lastAt: string }>();
  for (const f of files) {
    if (!f.component) continue;
    const c = by.get(f.component) ?? { name: f.component, touches: 0, lastAt: f.at };
    c.touches++;
    by.set(f.component, c);
  }
  return [...by.values()].sort((a, b) => b.lastAt.localeCompare(a.lastAt));
}

function componentWork(files: FileTouchView[], who: (id: string) => Who, now: Date): ComponentWork[] {
  const by = new Map<string, { name: string; touches: number; lastAt: string; now: Set<string>; lately: Set<string> }>();
  const recent = new Date(now.getTime() - NOW_MS).toISOString();
  for (const f of files) {
    if (!f.component) continue;
    const c = by.get(f.component) ?? { name: f.component, touches: 0, lastAt: f.at, now: new Set<string>(), lately: new Set<string>() };
    c.touches++;
    c.lately.add(f.agentId);
    if (f.at >= recent) c.now.add(f.agentId);
    by.set(f.component, c);
  }
  return [...by.values()]
    .sort((a, b) => b.now.size - a.now.size || b.lastAt.localeCompare(a.lastAt))
    .map((c) => ({ name: c.name, touches: c.touches, lastAt: c.lastAt, agentsNow: [...c.now].map(who), agentsLately: [...c.lately].map(who) }));
}

/**
 * Files (and components) that two or more agents edited within CONFLICT_WINDOW_MS of each other: for
 * each, the agents and the span of their overlapping edits.
 */
export function conflicts(files: FileTouchView[], who: (id: string) => Who): WorkConflict[] {
  const edits = files.filter((f) => EDITS.has(f.operation)).sort((a, b) => a.at.localeCompare(b.at));
  const found: WorkConflict[] = [];
  const overlap = (kind: WorkConflict["kind"], subject: string, component: string | null, group: FileTouchView[]) => {
    // Sweep in time order: a window of edits no two of which are further apart than the window.
    let start = 0;
    for (let end = 0; end < group.length; end++) {
      while (Date.parse(group[end].at) - Date.parse(group[start].at) > CONFLICT_WINDOW_MS) start++;
      const agents = new Set(group.slice(start, end + 1).map((f) => f.agentId));
      if (agents.size < 2) continue;
      const last = found.at(-1);
      const entry = { kind, subject, component, agents: [...agents].map(who), from: group[start].at, to: group[end].at };
      if (last && last.kind === kind && last.subject === subject && last.to >= group[start].at)
        found[found.length - 1] = { ...entry, from: last.from, agents: mergeWho(last.agents, entry.agents) };
      else found.push(entry);
    }
  };
  for (const [path, group] of groupBy(edits, (f) => f.path)) overlap("file", path, group[0].component, group);
  for (const [name, group] of groupBy(
    edits.filter((f) => f.component),
    (f) => f.component!,
  ))
    overlap("component", name, name, group);
  return found.sort((a, b) => b.to.localeCompare(a.to));
}

const mergeWho = (a: Who[], b: Who[]) => [...new Map([...a, ...b].map((w) => [w.id, w])).values()];
