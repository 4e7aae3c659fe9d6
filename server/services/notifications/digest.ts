// One email of everything a person missed: grouped by room, oldest first, each with a link to its room.
// Plain text and a simple HTML twin (inline styles only: mail clients drop stylesheets).
import type { NotificationPreference } from "@switchboard/sdk/contract";

export interface DigestItem {
  kind: "mention" | "message" | "question";
  roomId: string;
  title: string;
  excerpt: string;
}

export interface Digest {
  subject: string;
  text: string;
  html: string;
}

const WHY: Record<Exclude<NotificationPreference, "none">, string> = {
  mentions: "You get these emails for mentions and questions.",
  all: "You get these emails for mentions, questions and every message in your direct messages and groups.",
};

/** `rooms`: each room's title as the recipient sees it (#name, or the other members' names). */
export function composeDigest(
  items: DigestItem[],
  rooms: Map<string, string>,
  opts: { publicUrl: string; preference: Exclude<NotificationPreference, "none"> },
): Digest {
  const base = opts.publicUrl.replace(/\/+$/, "");
  const byRoom = new Map<string, DigestItem[]>();
  for (const item of items) byRoom.set(item.roomId, [...(byRoom.get(item.roomId) ?? []), item]);
  const roomTitle = (roomId: string) => rooms.get(roomId) ?? "a conversation";
  const link = (roomId: string) => `${base}/r/${encodeURIComponent(roomId)}`;
  const settings = `${base}/settings`;

  const subject = items.length === 1 ? `${items[0].title} in ${roomTitle(items[0].roomId)}` : `${items.length} new notifications in Switchboard`;

  const text = [
    "Here is what you missed in Switchboard.",
    ...[...byRoom].map(([roomId, list]) => [``, `${roomTitle(roomId)}  ${link(roomId)}`, ...list.map((i) => `  - ${i.title}: ${i.excerpt}`)].join("\n")),
    "",
    `${WHY[opts.preference]} Change it in your settings: ${settings}`,
  ].join("\n");

  const html = [
    `<div style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;font-size:14px;line-height:1.5;color:#18181b;max-width:560px">`,
    `<p style="margin:0 0 16px">Here is what you missed in Switchboard.</p>`,
    ...[...byRoom].map(
      ([roomId, list]) =>
        `<h2 style="font-size:15px;margin:16px 0 6px"><a href="${escapeHtml(link(roomId))}" style="color:#4f46e5;text-decoration:none">${escapeHtml(roomTitle(roomId))}</a></h2>` +
        `<ul style="margin:0;padding-left:18px">${list
          .map((i) => `<li style="margin:0 0 6px"><strong>${escapeHtml(i.title)}</strong><br><span style="color:#52525b">${escapeHtml(i.excerpt)}</span></li>`)
          .join("")}</ul>`,
    ),
    `<p style="margin:20px 0 0;font-size:12px;color:#71717a">${escapeHtml(WHY[opts.preference])} <a href="${escapeHtml(settings)}" style="color:#71717a">Change it in your settings</a>.</p>`,
    `</div>`,
  ].join("\n");

  return { subject, text, html };
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
