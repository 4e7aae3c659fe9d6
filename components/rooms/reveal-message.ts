"use client";
// A link to a message (`/r/<room>?message=<id>`, and `&thread=<root>` for a reply: search results,
// copied links): the message loaded (earlier pages of the room, or its thread opened), then scrolled
// into the middle of its list and highlighted for a few seconds. The main timeline is virtualized, so
// it scrolls there itself (MessageList's `reveal`); the thread panel shows every loaded reply.
import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import type { RoomSnapshot, RoomStore } from "./room-store";

/** How far back a link reaches by paging (50 messages a page). */
const MAX_PAGES = 40;
const HIGHLIGHT_MS = 4000;
/** How often, while highlighted, the row is looked for again. */
const HIGHLIGHT_CHECK_MS = 100;

/** The id of the linked message once it is loaded in the timeline (null: none, or it is a thread reply). */
export function useRevealMessage(store: RoomStore): string | null {
  const params = useSearchParams();
  const messageId = params.get("message");
  const threadRoot = params.get("thread");
  const [loaded, setLoaded] = useState<string | null>(null);

  useEffect(() => {
    if (!messageId) return;
    let cancelled = false;
    void (async () => {
      await until(store, (s) => s.status !== "loading");
      if (threadRoot) {
        await store.openThread(threadRoot);
        await nextFrames();
        if (!cancelled) highlightRendered(messageId);
        return;
      }
      for (let page = 0; page < MAX_PAGES && !cancelled; page++) {
        // The list may be loading a page itself (scrolled to its top): that one first.
        await until(store, (s) => !s.loadingOlder);
        const snap = store.getSnapshot();
        if (snap.items.some((m) => m.id === messageId)) return void (cancelled || setLoaded(messageId));
        if (!snap.hasMore || snap.status !== "ready") return;
        await store.loadOlder();
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [store, messageId, threadRoot]);
  return loaded;
}

/**
 * The message's rendered row (the last one, should it be in the timeline and a thread), centred and
 * highlighted for a few seconds. The row may not be rendered yet (a slow device), or be rendered again
 * meanwhile (the virtualized list recreates rows as it settles), so it is looked for again until the
 * highlight ends, and each row rendered for it meanwhile is highlighted.
 */
export function highlightRendered(messageId: string): void {
  const selector = `[data-testid="message"][data-message-id="${CSS.escape(messageId)}"]`;
  const started = performance.now();
  let centred = false;
  const mark = () => {
    const shown = [...document.querySelectorAll<HTMLElement>(selector)].at(-1);
    if (shown && !centred) {
      shown.scrollIntoView({ block: "center" });
      centred = true;
    }
    if (shown) shown.dataset.highlighted = "true";
    if (performance.now() - started < HIGHLIGHT_MS) return void setTimeout(mark, HIGHLIGHT_CHECK_MS);
    for (const row of document.querySelectorAll<HTMLElement>(selector)) delete row.dataset.highlighted;
  };
  mark();
}

const nextFrames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

/** Once the store's state satisfies `done`. */
function until(store: RoomStore, done: (snap: RoomSnapshot) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (done(store.getSnapshot())) return resolve();
    const unsubscribe = store.subscribe(() => {
      if (!done(store.getSnapshot())) return;
      unsubscribe();
      resolve();
    });
  });
}
