"use client";
// The shortcuts that work on every signed-in page: Ctrl/⌘+K (the quick switcher), Alt/⌥+↑↓ (the
// sidebar's previous or next conversation), Alt/⌥+Shift+↑↓ (the previous or next unread one, as in
// Slack) and `?` (the shortcuts sheet). None fires while an input method is composing; `?` and the
// arrows are left to text fields, except that the arrows also work from an empty message composer.
import { useEffect, useRef } from "react";
import { anyDialogOpen, isComposing, isEmptyComposer, isTextField } from "./keys";
import { useRouter } from "@/components/nav/workspace-routing";

export interface NavRoom {
  id: string;
  unread: number;
  mentions: number;
}

/** The letter a key stands for; on a non-Latin layout, the Latin letter of the same physical key. */
function letterOf(e: KeyboardEvent): string {
  if (/^[a-z]$/i.test(e.key)) return e.key.toLowerCase();
  return /^Key[A-Z]$/.test(e.code) ? e.code.slice(3).toLowerCase() : e.key;
}

/** The room `step` away from the active one in the sidebar's order; with no active room, the first (or last). */
export function adjacentRoom(rooms: NavRoom[], activeId: string | null, step: 1 | -1): string | null {
  const at = rooms.findIndex((r) => r.id === activeId);
  if (at < 0) return (step === 1 ? rooms[0] : rooms.at(-1))?.id ?? null;
  return rooms[at + step]?.id ?? null;
}

/** The next (or previous) room with something unread, going round the sidebar from the active one. */
export function unreadRoom(rooms: NavRoom[], activeId: string | null, step: 1 | -1): string | null {
  const n = rooms.length;
  const at = rooms.findIndex((r) => r.id === activeId);
  const start = at >= 0 ? at : step === 1 ? -1 : n;
  for (let i = 1; i <= n; i++) {
    const room = rooms[(((start + step * i) % n) + n) % n];
    if (room.id !== activeId && (room.unread > 0 || room.mentions > 0)) return room.id;
  }
  return null;
}

export function useWorkspaceShortcuts(opts: { rooms: NavRoom[]; activeRoomId: string | null; onToggleSwitcher: () => void; onShortcuts: () => void }) {
  const router = useRouter();
  const latest = useRef(opts);
  useEffect(() => {
    latest.current = opts;
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isComposing(e)) return;
      const { rooms, activeRoomId, onToggleSwitcher, onShortcuts } = latest.current;

      if ((e.metaKey || e.ctrlKey) && !e.altKey && !e.shiftKey && letterOf(e) === "k") {
        e.preventDefault();
        onToggleSwitcher();
        return;
      }

      if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
        if (anyDialogOpen() || (isTextField(e.target) && !isEmptyComposer(e.target))) return;
        const step = e.key === "ArrowDown" ? 1 : -1;
        const to = e.shiftKey ? unreadRoom(rooms, activeRoomId, step) : adjacentRoom(rooms, activeRoomId, step);
        e.preventDefault();
        if (to) router.push(`/r/${to}`);
        return;
      }

      if (e.key === "?" && !e.ctrlKey && !e.metaKey && !e.altKey && !isTextField(e.target) && !anyDialogOpen()) {
        e.preventDefault();
        onShortcuts();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router]);
}
