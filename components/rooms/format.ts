// How times, days and room events read in the timeline.
import type { MessageView } from "@switchboard/sdk/contract";

export function timeLabel(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
}

export function fullTimeLabel(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
}

export function dayKey(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

export function dayLabel(iso: string): string {
  const d = new Date(iso);
  const today = new Date();
  const yesterday = new Date(today);
  yesterday.setDate(today.getDate() - 1);
  if (dayKey(iso) === dayKey(today.toISOString())) return "Today";
  if (dayKey(iso) === dayKey(yesterday.toISOString())) return "Yesterday";
  return d.toLocaleDateString(undefined, {
    weekday: "long",
    month: "long",
    day: "numeric",
    ...(d.getFullYear() !== today.getFullYear() ? { year: "numeric" } : {}),
  });
}

const GROUP_WINDOW_MS = 5 * 60 * 1000;

/** Whether `m` continues `prev`'s block (same author, within minutes, same day, both text). */
export function continuesGroup(prev: MessageView | undefined, m: MessageView): boolean {
  if (!prev || prev.kind !== "text" || m.kind !== "text") return false;
  if (prev.author.id !== m.author.id) return false;
  if (dayKey(prev.createdAt) !== dayKey(m.createdAt)) return false;
  return new Date(m.createdAt).getTime() - new Date(prev.createdAt).getTime() < GROUP_WINDOW_MS;
}

export function joinNames(names: string[]): string {
  if (names.length <= 1) return names[0] ?? "someone";
  if (names.length === 2) return `${names[0]} and ${names[1]}`;
  if (names.length <= 4) return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `${names.slice(0, 3).join(", ")} and ${names.length - 3} others`;
}

interface EventData {
  type?: string;
  participantIds?: string[];
  name?: string;
  visibility?: string;
  mode?: string;
  workspace?: string;
}

/** "Dana joined", "Dana added Bob and Carol", "Dana created #ops". */
export function eventText(m: MessageView, nameOf: (id: string) => string): string {
  const data = (m.data ?? {}) as EventData;
  const actor = m.author.displayName;
  const ids = data.participantIds ?? [];
  const others = ids.map(nameOf);
  switch (data.type) {
    case "room.created":
      return data.name ? `${actor} created #${data.name}` : `${actor} started this conversation`;
    case "member.joined":
      return ids.length === 1 && ids[0] === m.author.id ? `${actor} joined` : `${joinNames(others)} joined`;
    case "member.added":
      return `${actor} added ${joinNames(others)}`;
    case "member.left":
      return ids.length === 1 && ids[0] === m.author.id ? `${actor} left` : `${joinNames(others)} left`;
    case "member.mode_changed": {
      const hears = data.mode === "all" ? "everything" : data.mode === "mentions" ? "only what is addressed to them" : "nothing";
      return ids.length === 1 && ids[0] === m.author.id ? `${actor} now hears ${hears}` : `${actor} set ${joinNames(others)} to hear ${hears}`;
    }
    case "member.paused":
      return `${actor} paused ${joinNames(others)} here: its messages wait until resumed`;
    case "member.resumed":
      return `${actor} resumed ${joinNames(others)} here`;
    case "room.shared":
      return `${actor} shared this channel with ${data.workspace}`;
    case "room.share_accepted":
      return `${data.workspace} joined this channel: its people and agents can take part`;
    case "room.unshared":
      return `${actor} stopped sharing this channel with ${data.workspace}: its people and agents left`;
    case "room.share_left":
      return `${data.workspace} left this channel: its people and agents left`;
    default:
      return m.body || `${actor} updated the room`;
  }
}

const SHARING_CHANGES = new Set(["room.shared", "room.share_accepted", "room.unshared", "room.share_left"]);

/** A room event that changes with which workspaces a channel is shared: the room's view ("Shared with …") is stale. */
export function changesSharing(m: Pick<MessageView, "kind" | "data">): boolean {
  return m.kind !== "text" && SHARING_CHANGES.has(((m.data ?? {}) as EventData).type ?? "");
}

export function replyLabel(n: number): string {
  return n === 1 ? "1 reply" : `${n} replies`;
}
