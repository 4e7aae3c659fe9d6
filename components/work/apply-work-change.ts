// An agent's report (`work:changed`, with what it stored) folded into the Work page's board as it comes,
// so the card moves within the event's own latency and no viewer asks the server again. What the board
// cannot fold exactly from a report alone (an agent or room it does not know yet, a task beyond the
// card's list, a possible conflict between agents) says so with `stale`: the board is then read again,
// once for a burst.
import { orderTasks, summarizeFiles, type FileOperation, type FileTouchView, type WorkChange } from "@switchboard/sdk/work";
import type { AgentWork, Board, ComponentWork } from "./types";

/** As the server's board keeps them (server/services/work/board.ts). */
const TASKS_PER_AGENT = 50;
const FILES_PER_AGENT = 40;
const CONFLICT_WINDOW_MS = 30 * 60 * 1000;
const EDITS = new Set<FileOperation>(["edit", "create", "delete"]);

export function applyWorkChange(board: Board, change: WorkChange): { board: Board; stale: boolean } {
  const card = board.agents.find((a) => a.agent.id === change.agentId);
  // An agent made since the board was read, or a room it has no title for.
  if (!card || (change.roomId && !board.rooms.some((r) => r.id === change.roomId))) return { board, stale: true };
  let stale = false;
  let next: AgentWork = { ...card };
  let components = board.components;

  if (change.tasks?.length) {
    const changed = new Map(change.tasks.map((t) => [t.id, t]));
    const progress = { ...card.progress };
    for (const task of change.tasks) {
      const before = card.tasks.find((t) => t.id === task.id);
      // A task the card does not list may be one it left out (it lists 50): the count is the server's to say.
      if (!before && card.tasks.length >= TASKS_PER_AGENT) stale = true;
      if (before && before.status !== "dropped") {
        progress.total--;
        if (before.status === "completed") progress.completed--;
      }
      if (task.status !== "dropped") {
        progress.total++;
        if (task.status === "completed") progress.completed++;
      }
    }
    const tasks = [...card.tasks.filter((t) => !changed.has(t.id)), ...change.tasks];
    next = { ...next, tasks: orderTasks(tasks).slice(0, TASKS_PER_AGENT), progress };
  }

  if (change.files?.length) {
    const files = change.files;
    next = { ...next, files: summarizeFiles(files, card.files).slice(0, FILES_PER_AGENT), components: foldComponents(card.components, files) };
    components = foldBoardComponents(board.components, files, card.agent);
    stale ||= mayConflict(board.agents, card, files);
  }

  if (change.links?.length) {
    const ids = new Set(change.links.map((l) => l.id));
    next = { ...next, links: [...change.links, ...card.links.filter((l) => !ids.has(l.id))] };
  }

  const at = [...(change.tasks ?? []).map((t) => t.updatedAt), ...(change.files ?? []).map((f) => f.at)].sort().at(-1);
  if (at && at > (next.lastActivityAt ?? "")) next.lastActivityAt = at;
  if (change.roomId && (change.tasks || change.files)) next.roomIds = [change.roomId, ...next.roomIds.filter((id) => id !== change.roomId)];

  return { board: { ...board, agents: board.agents.map((a) => (a === card ? next : a)), components }, stale };
}

/** The card's components, the latest touched first. */
function foldComponents(mine: AgentWork["components"], files: FileTouchView[]): AgentWork["components"] {
  const by = new Map(mine.map((c) => [c.name, { ...c }]));
  for (const f of files) {
    if (!f.component) continue;
    const c = by.get(f.component) ?? { name: f.component, touches: 0, lastAt: f.at };
    c.touches++;
    if (f.at > c.lastAt) c.lastAt = f.at;
    by.set(f.component, c);
  }
  return [...by.values()].sort((a, b) => b.lastAt.localeCompare(a.lastAt));
}

/** The board's panel: the agent is in each component it touched, now and lately. */
function foldBoardComponents(all: ComponentWork[], files: FileTouchView[], who: AgentWork["agent"]): ComponentWork[] {
  const me = { id: who.id, handle: who.handle, displayName: who.displayName };
  const by = new Map(all.map((c) => [c.name, c]));
  for (const f of files) {
    if (!f.component) continue;
    const c = by.get(f.component) ?? { name: f.component, touches: 0, lastAt: f.at, agentsNow: [], agentsLately: [] };
    const joined = (list: ComponentWork["agentsNow"]) => (list.some((a) => a.id === me.id) ? list : [...list, me]);
    by.set(f.component, {
      ...c,
      touches: c.touches + 1,
      lastAt: f.at > c.lastAt ? f.at : c.lastAt,
      agentsNow: joined(c.agentsNow),
      agentsLately: joined(c.agentsLately),
    });
  }
  return [...by.values()].sort((a, b) => b.agentsNow.length - a.agentsNow.length || b.lastAt.localeCompare(a.lastAt));
}

/** An edit of a file or component another agent edited within the conflict window: the server says whether it is one. */
function mayConflict(agents: AgentWork[], card: AgentWork, files: FileTouchView[]): boolean {
  const edited = files.filter((f) => EDITS.has(f.operation));
  if (edited.length === 0) return false;
  return agents.some(
    (other) =>
      other !== card &&
      other.files.some(
        (s) =>
          s.operations.some((op) => EDITS.has(op)) &&
          edited.some(
            (f) =>
              (f.path === s.path || (f.component !== null && f.component === s.component)) && Date.parse(f.at) - Date.parse(s.lastAt) <= CONFLICT_WINDOW_MS,
          ),
      ),
  );
}
