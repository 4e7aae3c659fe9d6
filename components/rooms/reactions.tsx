"use client";
// Reactions under a message (each emoji with its count and who reacted; a click toggles the viewer's
// own) and the picker that adds one: a curated set, and a field that takes any single emoji. The
// server decides what an emoji is (sdk/reactions.ts); the field checks the same rule before sending.
import { useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from "react";
import type { MessageView } from "@switchboard/sdk/contract";
import { COMMON_EMOJI, isSingleEmoji, type ReactionView } from "@switchboard/sdk/reactions";
import { Icon, type IconProps } from "@/components/ui/icons";

export const SmileIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M8.5 14.5a4.5 4.5 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
  </Icon>
);
export const PinIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9 4h6l-1 6 4 4H6l4-4-1-6ZM12 14v7" />
  </Icon>
);
export const MoreIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 12h.01M12 12h.01M18 12h.01" strokeWidth={3} />
  </Icon>
);
export const UnreadIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M20 12v6a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h8" />
    <circle cx="19" cy="6" r="2.5" fill="currentColor" />
  </Icon>
);

/** Who reacted, for a chip's tooltip: "Dana, Erin and 3 others reacted with 👍". */
export function reactedBy(r: ReactionView, nameOf: (id: string) => string, meId: string): string {
  const names = r.participantIds.map((id) => (id === meId ? "You" : nameOf(id)));
  const shown = names.length > 5 ? [...names.slice(0, 5), `${names.length - 5} others`] : names;
  const list = shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}` : shown[0];
  return `${list} reacted with ${r.emoji}`;
}

/** The message's reactions as chips, and a button that opens the picker (when the viewer may react). */
export function ReactionBar({
  m,
  meId,
  nameOf,
  onReact,
  offerAlways = false,
  hint,
}: {
  /** Said beside the reactions (an approval that a reaction answers). */
  hint?: string;
  m: MessageView;
  meId: string;
  nameOf: (id: string) => string;
  onReact?: (emoji: string, on: boolean) => void;
  /** Show the add button when there are no reactions yet (a question card, which has no toolbar). */
  offerAlways?: boolean;
}) {
  const [picking, setPicking] = useState(false);
  if (!m.reactions?.length && !(offerAlways && onReact)) return null;
  return (
    <div className="relative mt-1 flex flex-wrap items-center gap-1" data-testid="reactions">
      {m.reactions.map((r) => {
        const mine = r.participantIds.includes(meId);
        const who = reactedBy(r, nameOf, meId);
        return (
          <button
            key={r.emoji}
            type="button"
            disabled={!onReact}
            onClick={() => onReact?.(r.emoji, !mine)}
            title={who}
            aria-label={`${who}${onReact ? (mine ? ". Remove your reaction" : ". React with it too") : ""}`}
            aria-pressed={mine}
            data-testid="reaction"
            data-emoji={r.emoji}
            data-mine={mine || undefined}
            className={`inline-flex h-6 items-center gap-1 rounded-full border px-2 text-[13px] leading-none ${
              mine ? "border-indigo-300 bg-indigo-50 text-indigo-800" : "border-zinc-200 bg-white text-zinc-700 hover:border-zinc-300"
            }`}
          >
            <span aria-hidden="true">{r.emoji}</span>
            <span className="text-xs font-medium tabular-nums" data-testid="reaction-count">
              {r.count}
            </span>
          </button>
        );
      })}
      {onReact && (
        <button
          type="button"
          onClick={() => setPicking((v) => !v)}
          aria-label="Add a reaction"
          title="Add a reaction"
          aria-expanded={picking}
          className="inline-flex h-6 items-center rounded-full border border-zinc-200 bg-white px-1.5 text-zinc-500 hover:border-zinc-300 hover:text-zinc-800"
        >
          <SmileIcon size={14} />
        </button>
      )}
      {hint && onReact && (
        <span className="text-xs text-zinc-500" data-testid="reaction-hint">
          {hint}
        </span>
      )}
      {picking && onReact && (
        <Popover onClose={() => setPicking(false)} className="top-7 left-0">
          <EmojiPicker
            onPick={(emoji) => {
              setPicking(false);
              onReact(emoji, true);
            }}
          />
        </Popover>
      )}
    </div>
  );
}

/** A small panel over the timeline, closed by Escape or a click outside it. */
export function Popover({ onClose, className, children }: { onClose: () => void; className: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const outside = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose();
    };
    // Escape closes it first, wherever focus is (the room's own Escape skips a handled key).
    const escape = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      onClose();
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("keydown", escape, true);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("keydown", escape, true);
    };
  }, [onClose]);
  return (
    <div ref={ref} className={`absolute z-30 rounded-lg border border-zinc-200 bg-white p-2 shadow-lg ${className}`}>
      {children}
    </div>
  );
}

/** The curated emoji as a grid, and a field for any other one emoji. */
export function EmojiPicker({ onPick, autoFocus = true }: { onPick: (emoji: string) => void; autoFocus?: boolean }) {
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLButtonElement>(null);
  const fieldId = useId();
  useEffect(() => {
    if (autoFocus) first.current?.focus();
  }, [autoFocus]);
  const submit = () => {
    const emoji = typed.trim();
    if (!isSingleEmoji(emoji)) return setError("Type one emoji");
    onPick(emoji);
  };
  const onKeyDown = (e: ReactKeyboardEvent<HTMLInputElement>) => {
    if (e.key !== "Enter" || e.nativeEvent.isComposing) return;
    e.preventDefault();
    submit();
  };
  return (
    <div className="w-[272px]" role="group" aria-label="Pick a reaction" data-testid="emoji-picker">
      <div className="grid grid-cols-8 gap-0.5">
        {COMMON_EMOJI.map((emoji, i) => (
          <button
            key={emoji}
            ref={i === 0 ? first : undefined}
            type="button"
            onClick={() => onPick(emoji)}
            aria-label={`React with ${emoji}`}
            data-testid="emoji-option"
            data-emoji={emoji}
            className="flex h-8 w-8 items-center justify-center rounded-md text-lg hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
          >
            {emoji}
          </button>
        ))}
      </div>
      <div className="mt-2 flex items-center gap-1.5 border-t border-zinc-100 pt-2">
        <label htmlFor={fieldId} className="sr-only">
          Any emoji
        </label>
        <input
          id={fieldId}
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setError(null);
          }}
          onKeyDown={onKeyDown}
          placeholder="Any emoji…"
          maxLength={32}
          data-testid="emoji-input"
          aria-invalid={error ? true : undefined}
          className="h-8 min-w-0 flex-1 rounded-md border border-zinc-300 px-2 text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/20 focus:outline-none"
        />
        <button type="button" onClick={submit} className="h-8 rounded-md bg-indigo-600 px-2.5 text-sm font-medium text-white hover:bg-indigo-500">
          Add
        </button>
      </div>
      {error && (
        <p className="mt-1 text-xs text-rose-600" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
