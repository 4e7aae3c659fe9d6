"use client";
// A message's actions on a phone: a bottom sheet opened by a long press on the message or its ⋯
// button, with every action the desktop toolbar has (reply in thread, react, edit, delete, copy link,
// pin, mark unread). Each action closes the sheet; the caller says which apply.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";
import type { MessageView } from "@switchboard/sdk/contract";
import { COMMON_EMOJI } from "@switchboard/sdk/reactions";
import { LinkIcon, MessageIcon, PencilIcon, TrashIcon } from "@/components/ui/icons";
import { EmojiPicker, PinIcon, SmileIcon, UnreadIcon } from "./reactions";

export interface SheetActions {
  reply?: () => void;
  react?: (emoji: string) => void;
  edit?: () => void;
  remove?: () => void;
  copyLink: () => void;
  pin?: () => void;
  markUnread?: () => void;
}

/** How long a touch is held before it opens the sheet. */
const LONG_PRESS_MS = 450;

/** Touch handlers that call `open` when a finger rests on the element, not when it scrolls or taps. */
export function useLongPress(open: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => cancel, []);
  return {
    onTouchStart: (e: React.TouchEvent) => {
      const t = e.touches[0];
      start.current = { x: t.clientX, y: t.clientY };
      cancel();
      timer.current = setTimeout(() => {
        timer.current = null;
        open();
      }, LONG_PRESS_MS);
    },
    onTouchMove: (e: React.TouchEvent) => {
      const t = e.touches[0];
      if (start.current && Math.hypot(t.clientX - start.current.x, t.clientY - start.current.y) > 10) cancel();
    },
    onTouchEnd: cancel,
    onTouchCancel: cancel,
    // A long press also raises the browser's context menu on touch screens: the sheet is the menu here.
    onContextMenu: (e: React.MouseEvent) => {
      if (e.nativeEvent instanceof PointerEvent && e.nativeEvent.pointerType === "touch") e.preventDefault();
    },
  };
}

export function MessageSheet({ message, pinned, actions, onClose }: { message: MessageView; pinned: boolean; actions: SheetActions; onClose: () => void }) {
  const [picking, setPicking] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const back = document.activeElement as HTMLElement | null;
    panel.current?.querySelector<HTMLElement>("button")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      e.stopPropagation();
      onClose();
    };
    window.addEventListener("keydown", onKey, true);
    return () => {
      window.removeEventListener("keydown", onKey, true);
      back?.focus?.({ preventScroll: true });
    };
  }, [onClose]);
  const run = (action: () => void) => () => {
    onClose();
    action();
  };
  const excerpt = message.body.length > 120 ? `${message.body.slice(0, 120)}…` : message.body;
  // On the page's body: a row of a virtualized list is moved by a transform, which would hold a fixed child.
  return createPortal(
    <div className="fixed inset-0 z-50 flex flex-col justify-end" data-testid="message-sheet">
      <button type="button" aria-label="Close" tabIndex={-1} className="absolute inset-0 bg-zinc-900/40" onClick={onClose} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-label="Message actions"
        className="relative max-h-[85vh] overflow-y-auto rounded-t-2xl bg-white px-3 pt-2 pb-[max(0.75rem,env(safe-area-inset-bottom))] shadow-2xl"
      >
        <div className="mx-auto mb-2 h-1 w-10 rounded-full bg-zinc-300" aria-hidden="true" />
        <p className="truncate px-2 pb-2 text-sm text-zinc-500">
          <b className="font-semibold text-zinc-800">{message.author.displayName}</b> {excerpt}
        </p>
        {actions.react &&
          (picking ? (
            <div className="flex justify-center pb-2">
              <EmojiPicker onPick={(emoji) => run(() => actions.react?.(emoji))()} />
            </div>
          ) : (
            <div className="flex items-center justify-between gap-1 px-1 pb-2" role="group" aria-label="React">
              {COMMON_EMOJI.slice(0, 6).map((emoji) => (
                <button
                  key={emoji}
                  type="button"
                  onClick={run(() => actions.react?.(emoji))}
                  aria-label={`React with ${emoji}`}
                  data-testid="sheet-emoji"
                  data-emoji={emoji}
                  className="flex h-11 w-11 items-center justify-center rounded-full bg-zinc-100 text-xl active:bg-zinc-200"
                >
                  {emoji}
                </button>
              ))}
              <button
                type="button"
                onClick={() => setPicking(true)}
                aria-label="More reactions"
                data-testid="sheet-more-emoji"
                className="flex h-11 w-11 items-center justify-center rounded-full bg-zinc-100 text-zinc-600 active:bg-zinc-200"
              >
                <SmileIcon size={20} />
              </button>
            </div>
          ))}
        <ul className="divide-y divide-zinc-100 border-t border-zinc-100">
          {actions.reply && <SheetItem icon={<MessageIcon size={18} />} label="Reply in thread" testId="sheet-reply" onClick={run(actions.reply)} />}
          {actions.react && !picking && <SheetItem icon={<SmileIcon size={18} />} label="React…" testId="sheet-react" onClick={() => setPicking(true)} />}
          {actions.edit && <SheetItem icon={<PencilIcon size={18} />} label="Edit message" testId="sheet-edit" onClick={run(actions.edit)} />}
          <SheetItem icon={<LinkIcon size={18} />} label="Copy link" testId="sheet-copy-link" onClick={run(actions.copyLink)} />
          {actions.pin && (
            <SheetItem icon={<PinIcon size={18} />} label={pinned ? "Unpin from the room" : "Pin to the room"} testId="sheet-pin" onClick={run(actions.pin)} />
          )}
          {actions.markUnread && (
            <SheetItem icon={<UnreadIcon size={18} />} label="Mark unread from here" testId="sheet-mark-unread" onClick={run(actions.markUnread)} />
          )}
          {actions.remove && <SheetItem icon={<TrashIcon size={18} />} label="Delete message" testId="sheet-delete" onClick={run(actions.remove)} danger />}
        </ul>
      </div>
    </div>,
    document.body,
  );
}

function SheetItem({ icon, label, onClick, testId, danger }: { icon: ReactNode; label: string; onClick: () => void; testId: string; danger?: boolean }) {
  return (
    <li>
      <button
        type="button"
        onClick={onClick}
        data-testid={testId}
        className={`flex min-h-12 w-full items-center gap-3 px-3 text-left text-[15px] active:bg-zinc-100 ${danger ? "text-rose-600" : "text-zinc-800"}`}
      >
        <span className={danger ? "text-rose-500" : "text-zinc-500"}>{icon}</span>
        {label}
      </button>
    </li>
  );
}
