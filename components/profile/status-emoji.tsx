"use client";
// The profile status beside a name: its emoji, its words as the tooltip (and for screen readers);
// nothing once its time has passed, as the server presents it too.
import type { ParticipantView } from "@switchboard/sdk/contract";
import { useDirectoryEntry } from "./directory-entry";

export type ProfileStatus = Pick<ParticipantView, "statusEmoji" | "statusText" | "statusUntil">;

/** The app's text fonts come first in its stack and some claim emoji they draw as boxes: emoji get emoji fonts. */
export const EMOJI_FONT = { fontFamily: '"Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", sans-serif' } as const;

/** The status as it stands now, or null (none set, or it ran out while the page was open). */
export function currentStatus(s: ProfileStatus | null | undefined): { emoji: string; text: string } | null {
  if (!s || (!s.statusEmoji && !s.statusText)) return null;
  if (s.statusUntil && Date.parse(s.statusUntil) <= Date.now()) return null;
  return { emoji: s.statusEmoji || "💬", text: s.statusText };
}

/** "until 3:30 PM", "until Fri 5:00 PM": when a status clears, for people. */
export function untilLabel(iso: string | null): string {
  if (!iso) return "";
  const at = new Date(iso);
  const sameDay = at.toDateString() === new Date().toDateString();
  const time = at.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
  return `until ${sameDay ? time : `${at.toLocaleDateString(undefined, { weekday: "short", month: "short", day: "numeric" })} ${time}`}`;
}

export function StatusEmoji({ status, className = "" }: { status: ProfileStatus | null | undefined; className?: string }) {
  const now = currentStatus(status);
  if (!now) return null;
  const says = now.text || now.emoji;
  return (
    <span
      role="img"
      aria-label={`Status: ${says}`}
      title={says}
      data-testid="status-emoji"
      data-status-text={now.text}
      className={`shrink-0 cursor-default text-[13px] leading-none select-none ${className}`}
      style={EMOJI_FONT}
    >
      {now.emoji}
    </span>
  );
}

/** The status of a participant known by id only (a message's author), read from the workspace's directory. */
export function ParticipantStatus({ id, className }: { id: string; className?: string }) {
  return <StatusEmoji status={useDirectoryEntry(id)} className={className} />;
}
