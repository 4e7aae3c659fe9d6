// The timeline of a room (or one thread of it) or of a task: the tasks agents made and finished there,
// the files they touched, what they shipped, the messages, and people's interventions (their messages,
// answers and approvals) marked as such, in time order. Paged back from the newest: each page holds at
// most `limit` events (MAX_TIMELINE_PAGE at most, sdk/work.ts) and names the cursor of the page before it.
//
// A room's timeline is for whoever may read the room (`room.read`; all work done for a room is theirs
// to see by `work.read`); a task's is for whoever may see the task (`work.read`), with its
// conversation only where they may read its room, counted as hidden otherwise. A task's work is what
// the involvement view reads for it (its steps, its session's tasks, files and links, its conversation
// from the request that set it going to its end).
import type { TaskView, TimelineInput } from "@switchboard/sdk/work";
import { getDb } from "../../db";
import { authorize, type Actor } from "../../policies";
import { subjectWork } from "./involvement";
import { loadRoomFor } from "../access/rooms";
import { checkThreadRoot } from "../messaging/threads";
import { eventPage, parseCursor, roomNames, type Conversation, type RoomName, type Who, type WorkEvent, type WorkSelection } from "./events";

export interface WorkTimeline {
  scope: { kind: "room"; roomId: string; threadRootId: string | null } | { kind: "task"; task: TaskView; agent: Who };
  /** The scope's title: the room's as the viewer sees it, or the task's. */
  title: string;
  /** Rooms the events happened in that the viewer may read, titled for links. */
  rooms: RoomName[];
  /** The task's conversation when the viewer may not read its room: its messages are left out. */
  hiddenConversations: number;
  /** Oldest first. */
  events: WorkEvent[];
  /** Pass as `cursor` for the events before these; null: these reach the first. */
  nextCursor: string | null;
}

export async function workTimeline(actor: Actor, input: TimelineInput): Promise<WorkTimeline> {
  const cursor = parseCursor(input.cursor);
  let selection: WorkSelection;
  let scope: WorkTimeline["scope"];
  let title: string;
  let hiddenConversations = 0;
  if ("taskId" in input) {
    const work = await subjectWork(actor, { kind: "task", taskId: input.taskId });
    const task = work.task!;
    const agent = await getDb().participant.findUniqueOrThrow({
      where: { id: task.agentId },
      select: { id: true, handle: true, displayName: true, kind: true },
    });
    selection = work.selection;
    scope = { kind: "task", task, agent };
    title = task.title;
    hiddenConversations = work.hiddenConversations;
  } else {
    const conversation: Conversation = { roomId: input.roomId, threadRootId: input.threadRootId ?? null };
    authorize(actor, "room.read", await loadRoomFor(actor, input.roomId)); // ROOM_NOT_FOUND, NOT_A_MEMBER
    if (input.threadRootId) await checkThreadRoot(input.roomId, input.threadRootId); // MESSAGE_NOT_FOUND
    selection = { conversations: [conversation], from: null, to: null, rows: { room: conversation } };
    scope = { kind: "room", ...conversation };
    title = "";
  }
  const page = await eventPage(actor, selection, cursor, input.limit);
  const rooms = await roomNames(actor, [...selection.conversations.map((c) => c.roomId), ...page.events.flatMap((e) => (e.roomId ? [e.roomId] : []))]);
  if (scope.kind === "room") {
    const roomId = scope.roomId;
    title = rooms.find((r) => r.id === roomId)?.title ?? "";
  }
  return { scope, title, rooms, hiddenConversations, events: page.events.reverse(), nextCursor: page.next };
}
