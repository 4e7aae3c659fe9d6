"use client";
// The main timeline, virtualized: only the rows near the viewport are in the DOM, so a room with tens
// of thousands of messages scrolls like a short one. The virtualizer anchors to the end (chat mode):
// loading older pages above keeps the reader's place, and new messages follow only when the reader
// is already at the bottom.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { MessageView, RoomView } from "@switchboard/sdk/contract";
import { Spinner } from "@/components/ui/button";
import { ArrowDownIcon, HashIcon, LockIcon, MessageIcon } from "@/components/ui/icons";
import { continuesGroup } from "./format";
import { ListFocusProvider, type EditingState } from "./message-focus";
import { isTextRow, MessageRow, PendingRow, type MessageActions } from "./message-row";
import { TurnBlocks } from "@/components/turns/turn-block";
import type { PendingMessage, RoomStore } from "./room-store";
import { jumpToRenderedMessage } from "@/components/questions/question-message";
import { highlightRendered } from "./reveal-message";

type Entry =
  | { key: string; type: "intro" }
  | { key: string; type: "message"; message: MessageView; prev: MessageView | undefined; firstUnread: boolean }
  | { key: string; type: "pending"; pending: PendingMessage; grouped: boolean };

const LOAD_OLDER_WITHIN_PX = 600;
/** The "loading older" strip sits in the list's top padding, not in its items: the scroll anchor must be a message. */
const LOADER_PX = 48;

export function MessageList({
  room,
  store,
  items,
  pending,
  hasMore,
  loadingOlder,
  me,
  nameOf,
  actions,
  unreadMarker,
  editing,
  reveal,
}: {
  room: RoomView;
  store: RoomStore;
  items: MessageView[];
  pending: PendingMessage[];
  hasMore: boolean;
  loadingOlder: boolean;
  me: { id: string; handle: string; displayName: string; kind: "human" | "agent" };
  nameOf: (id: string) => string;
  actions: MessageActions;
  /** The seq of the first message that was unread when the room opened: a "New" line goes above it. */
  unreadMarker: number | null;
  /** What the room is editing: ↑ in the composer may start on a message scrolled out of view. */
  editing: EditingState;
  /** A message a link points at, once loaded: scrolled into the rendered window and highlighted (reveal-message.ts). */
  reveal: string | null;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [awayFromBottom, setAwayFromBottom] = useState(false);
  const jumpButton = useRef<HTMLButtonElement>(null);

  const entries = useMemo<Entry[]>(() => {
    const out: Entry[] = hasMore ? [] : [{ key: "intro", type: "intro" }];
    for (let i = 0; i < items.length; i++) {
      out.push({ key: `m:${items[i].seq}`, type: "message", message: items[i], prev: items[i - 1], firstUnread: items[i].seq === unreadMarker });
    }
    let last: MessageView | undefined = items.at(-1);
    let lastWasPending = false;
    for (const p of pending) {
      if (p.threadRootId) continue;
      const grouped = lastWasPending || (last?.kind === "text" && last.author.id === me.id && !continuesBreak(last));
      out.push({ key: `p:${p.clientMsgId}`, type: "pending", pending: p, grouped });
      last = undefined;
      lastWasPending = true;
    }
    return out;
  }, [items, pending, hasMore, me.id, unreadMarker]);

  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => {
      const e = entries[i];
      if (!e) return 48;
      if (e.type === "intro") return 140;
      if (e.type === "message" && e.message.kind === "question") return 200;
      if (e.type === "message" && e.message.kind !== "text") return 30;
      return e.type === "message" && continuesGroup(e.prev, e.message) ? 28 : 64;
    },
    getItemKey: (i) => entries[i]?.key ?? i,
    overscan: 8,
    anchorTo: "end",
    followOnAppend: true,
    scrollEndThreshold: 24,
    paddingStart: hasMore ? LOADER_PX : 0,
    paddingEnd: 8,
  });

  // Open at the newest message.
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current || items.length === 0) return;
    opened.current = true;
    virtualizer.scrollToIndex(entries.length - 1, { align: "end" });
  }, [items.length, entries.length, virtualizer]);

  // My own send always scrolls to it, wherever I was.
  const pendingCount = pending.filter((p) => !p.threadRootId).length;
  const prevPending = useRef(pendingCount);
  useEffect(() => {
    if (pendingCount > prevPending.current) virtualizer.scrollToIndex(entries.length - 1, { align: "end" });
    prevPending.current = pendingCount;
  }, [pendingCount, entries.length, virtualizer]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    if (el.scrollTop < LOAD_OLDER_WITHIN_PX) void store.loadOlder();
    setAwayFromBottom(el.scrollHeight - el.scrollTop - el.clientHeight > 400);
  }, [store]);

  // Still near the top after a page landed (a short first page, or a reader pinned to the top):
  // load the next one. Anchoring moves a reader down by the page's height, so this does not cascade.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !hasMore || loadingOlder || items.length === 0) return;
    const t = setTimeout(() => {
      if (el.scrollTop < LOAD_OLDER_WITHIN_PX) void store.loadOlder();
    }, 50);
    return () => clearTimeout(t);
  }, [hasMore, loadingOlder, items.length, store]);

  // "View question" on an outcome line: scroll its card into the rendered window, then focus it.
  // Entries are read through a ref so that rows (memoized on `actions`) do not re-render per message.
  const entriesRef = useRef(entries);
  useEffect(() => {
    entriesRef.current = entries;
  }, [entries]);
  const listActions = useMemo<MessageActions>(
    () => ({
      ...actions,
      onJump: (messageId) => {
        const index = entriesRef.current.findIndex((e) => e.type === "message" && e.message.id === messageId);
        if (index < 0) return;
        virtualizer.scrollToIndex(index, { align: "center" });
        setTimeout(() => jumpToRenderedMessage(messageId), 80);
      },
    }),
    [actions, virtualizer],
  );

  useEffect(() => {
    if (!reveal) return;
    const index = entriesRef.current.findIndex((e) => e.type === "message" && e.message.id === reveal);
    if (index < 0) return;
    virtualizer.scrollToIndex(index, { align: "center" });
    const t = setTimeout(() => highlightRendered(reveal), 80);
    return () => clearTimeout(t);
  }, [reveal, virtualizer]);

  // ↑ in the composer edits a message that may be scrolled out of the rendered window: bring it in.
  const edited = editing.editing?.scope === "room" ? editing.editing.id : null;
  useEffect(() => {
    if (!edited) return;
    const index = entriesRef.current.findIndex((e) => e.type === "message" && e.message.id === edited);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: "auto" });
  }, [edited, virtualizer]);

  // "Jump to latest" goes away once pressed: focus moves to the newest message rather than to nothing.
  const jumped = useRef(false);
  useEffect(() => {
    if (awayFromBottom || !jumped.current) return;
    jumped.current = false;
    const frame = requestAnimationFrame(() => {
      const rows = scrollRef.current?.querySelectorAll<HTMLElement>("[data-message-row]");
      (rows?.[rows.length - 1] ?? scrollRef.current)?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [awayFromBottom]);

  const virtualItems = virtualizer.getVirtualItems();
  const rendered = virtualItems.flatMap((vi) => {
    const e = entries[vi.index];
    return e?.type === "message" && isTextRow(e.message) ? [e.message.id] : [];
  });

  return (
    <ListFocusProvider scope="room" rendered={rendered} editing={editing}>
      <div className="relative min-h-0 flex-1">
        <div
          ref={scrollRef}
          onScroll={onScroll}
          className="scroll-quiet h-full overflow-y-auto overscroll-contain focus:outline-none"
          tabIndex={-1}
          data-testid="timeline"
          data-message-list="room"
          role="log"
          aria-live="polite"
          aria-label={`Messages in ${room.kind === "channel" ? `#${room.title}` : room.title}`}
        >
          {/* A short conversation sits at the bottom, next to the composer, as in any chat. */}
          <div aria-hidden="true" style={{ height: Math.max(0, (virtualizer.scrollRect?.height ?? 0) - virtualizer.getTotalSize()) }} />
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
            {hasMore && (
              <div
                className="absolute inset-x-0 top-0 flex items-center justify-center text-zinc-500"
                style={{ height: LOADER_PX }}
                data-testid="loading-older"
              >
                {loadingOlder ? <Spinner /> : <span className="text-xs">Scroll up for older messages</span>}
              </div>
            )}
            <div className="absolute inset-x-0 top-0" style={{ transform: `translateY(${virtualItems[0]?.start ?? 0}px)` }}>
              {virtualItems.map((vi) => {
                const entry = entries[vi.index];
                if (!entry) return null;
                return (
                  <div key={vi.key} data-index={vi.index} ref={virtualizer.measureElement}>
                    {entry.type === "intro" ? (
                      <RoomIntro room={room} />
                    ) : entry.type === "message" ? (
                      <>
                        {entry.firstUnread && <NewMessagesLine />}
                        <MessageRow message={entry.message} prev={entry.prev} meId={me.id} meHandle={me.handle} nameOf={nameOf} actions={listActions} />
                        <TurnBlocks messageId={entry.message.id} />
                      </>
                    ) : (
                      <PendingRow
                        pending={entry.pending}
                        me={me}
                        meHandle={me.handle}
                        grouped={entry.grouped}
                        onRetry={() => store.retry(entry.pending.clientMsgId)}
                        onDiscard={() => store.discard(entry.pending.clientMsgId)}
                      />
                    )}
                  </div>
                );
              })}
            </div>
          </div>
        </div>
        {awayFromBottom && (
          <button
            type="button"
            onClick={() => {
              jumped.current = document.activeElement === jumpButton.current;
              virtualizer.scrollToIndex(entries.length - 1, { align: "end" });
            }}
            // A click leaves focus where it was (the composer); from the keyboard it goes to the newest message.
            onMouseDown={(e) => e.preventDefault()}
            ref={jumpButton}
            className="absolute bottom-3 left-1/2 inline-flex -translate-x-1/2 items-center gap-1.5 rounded-full bg-indigo-600 px-3 py-1.5 text-xs font-semibold text-white shadow-lg hover:bg-indigo-500"
            data-testid="jump-to-latest"
          >
            <ArrowDownIcon size={14} /> Jump to latest
          </button>
        )}
      </div>
    </ListFocusProvider>
  );
}

function continuesBreak(last: MessageView): boolean {
  return Date.now() - new Date(last.createdAt).getTime() > 5 * 60 * 1000;
}

function RoomIntro({ room }: { room: RoomView }) {
  const channel = room.kind === "channel";
  return (
    <div className="px-5 pt-10 pb-4" data-testid="room-intro">
      <div className="mb-3 inline-flex h-12 w-12 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100">
        {channel ? room.visibility === "private" ? <LockIcon size={22} /> : <HashIcon size={22} /> : <MessageIcon size={22} />}
      </div>
      <h2 className="text-xl font-bold text-zinc-900">{channel ? `Welcome to #${room.title}` : room.title}</h2>
      <p className="mt-1 max-w-xl text-sm text-zinc-500">
        {channel
          ? `This is the very beginning of the ${room.visibility === "private" ? "private " : ""}#${room.title} channel.`
          : `This is the very beginning of your conversation with ${room.title}.`}
      </p>
      {channel && room.topic && (
        <p className="mt-2 max-w-xl text-sm text-zinc-700">
          <span className="font-medium text-zinc-500">Topic:</span> {room.topic}
        </p>
      )}
    </div>
  );
}

function NewMessagesLine() {
  return (
    <div className="relative flex items-center justify-end px-5 py-1" role="separator" aria-label="New messages" data-testid="new-messages-line">
      <div className="absolute inset-x-5 top-1/2 h-px bg-rose-400" />
      <span className="relative rounded bg-rose-700 px-1.5 py-px text-[10px] font-bold tracking-wide text-white uppercase">New</span>
    </div>
  );
}
