"use client";
// "Dana is typing…" under a composer, from room:typing events (kept ~5 s each by the room store).
import { joinNames } from "./format";
import type { TypingEntry } from "./room-store";

export function TypingLine({ typing, nameOf, threadRootId }: { typing: TypingEntry[]; nameOf: (id: string) => string; threadRootId: string | null }) {
  const who = typing.filter((t) => t.threadRootId === threadRootId).map((t) => nameOf(t.participantId));
  return (
    <div className="h-7 truncate px-6 pt-1 text-xs text-zinc-500" aria-live="polite" data-testid="typing-indicator">
      {who.length > 0 && (
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-flex gap-0.5" aria-hidden="true">
            <span className="typing-dot h-1 w-1 rounded-full bg-zinc-500" />
            <span className="typing-dot h-1 w-1 rounded-full bg-zinc-500" />
            <span className="typing-dot h-1 w-1 rounded-full bg-zinc-500" />
          </span>
          <span>
            <b className="font-semibold text-zinc-700">{who.length > 3 ? "Several people" : joinNames(who)}</b> {who.length === 1 ? "is" : "are"} typing…
          </span>
        </span>
      )}
    </div>
  );
}
