// Human-readable lines for messages and rooms (the JSON output is the protocol's own shapes).
import type { MembershipView, MessageView } from "@switchboard/sdk/contract";

/** `[seq] time @author: body`; replies say whose thread (`in thread [12]`), events and edits are marked. */
export function formatMessage(m: MessageView, seqOf: (messageId: string) => number | undefined, now = new Date()): string {
  const head = `[${m.seq}] ${clock(new Date(m.createdAt), now)}`;
  if (m.kind === "event") return `${head} * @${m.author.handle} ${eventText(m.data)}`;
  const where = m.threadRootId ? ` in thread ${threadRef(m.threadRootId, seqOf)}` : "";
  const who = m.kind === "system" ? "! system" : `@${m.author.handle}`;
  const body = m.deletedAt ? "(deleted)" : m.body.replace(/\n/g, "\n    ") + (m.editedAt ? " (edited)" : "");
  return `${head} ${who}${where}: ${body}`;
}

function threadRef(rootId: string, seqOf: (messageId: string) => number | undefined): string {
  const seq = seqOf(rootId);
  return seq === undefined ? rootId.slice(0, 8) : `[${seq}]`;
}

function eventText(data: unknown): string {
  const event = (data ?? {}) as { type?: string; name?: string; participantIds?: string[] };
  const n = event.participantIds?.length ?? 0;
  switch (event.type) {
    case "room.created":
      return `created #${event.name ?? "the room"}`;
    case "member.joined":
      return "joined";
    case "member.added":
      return `added ${n} member${n === 1 ? "" : "s"}`;
    case "member.left":
      return "left";
    default:
      return event.type ?? "event";
  }
}

/** HH:MM:SS today, YYYY-MM-DD HH:MM before, in local time. */
function clock(at: Date, now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  if (at.toDateString() === now.toDateString()) return `${time}:${pad(at.getSeconds())}`;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`;
}

/** One room per line: its name, kind, members, last seq and (for agents) delivery mode. */
export function formatRoom(m: MembershipView, showMode: boolean): string {
  const r = m.room;
  const name = r.kind === "channel" ? `#${r.name ?? r.title}` : r.title;
  const kind = r.kind === "channel" ? `${r.visibility} channel` : r.kind;
  const mode = showMode ? `  mode ${m.deliveryMode}` : "";
  return `${name.padEnd(24)} ${kind.padEnd(16)} ${String(r.memberCount).padStart(4)} members  seq ${r.lastSeq}${mode}`;
}
