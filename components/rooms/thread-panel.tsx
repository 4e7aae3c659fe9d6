"use client";
// The right-hand thread: the root message, its replies (live), and a composer that replies in it.
import { Fragment, type ReactNode, useLayoutEffect, useRef } from "react";
import type { RoomView } from "@switchboard/sdk/contract";
import type { FileView } from "@switchboard/sdk/files";
import { Spinner } from "@/components/ui/button";
import { AlertIcon, ChevronDownIcon, XIcon } from "@/components/ui/icons";
import { Composer, type Mentionable } from "./composer";
import { continuesGroup, replyLabel } from "./format";
import { ListFocusProvider, type EditingState } from "./message-focus";
import { isTextRow, MessageRow, PendingRow, type MessageActions } from "./message-row";
import { TurnBlocks } from "@/components/turns/turn-block";
import type { PendingMessage, ThreadState, TypingEntry } from "./room-store";
import { TypingLine } from "./typing-line";

export function ThreadPanel({
  room,
  thread,
  pending,
  typing,
  me,
  nameOf,
  actions,
  canPost,
  mentionables,
  onClose,
  onLoadEarlier,
  onSend,
  onTyping,
  onEditLast,
  editing,
  notice,
}: {
  room: RoomView;
  thread: ThreadState;
  pending: PendingMessage[];
  typing: TypingEntry[];
  me: { id: string; handle: string; displayName: string; kind: "human" | "agent" };
  nameOf: (id: string) => string;
  actions: MessageActions;
  canPost: boolean;
  mentionables?: Mentionable[];
  onClose: () => void;
  onLoadEarlier: () => void;
  onSend: (body: string, files: FileView[]) => void;
  onTyping: () => void;
  /** ↑ in the empty reply box: edit the viewer's last message in this thread. */
  onEditLast: () => boolean;
  editing: EditingState;
  /** Said above the composer (who a reply's @mentions did not reach). */
  notice?: ReactNode;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const mine = pending.filter((p) => p.threadRootId === thread.rootId);
  // A thread opens at its newest replies: the root's count says how many there are in all.
  const count = Math.max(thread.root?.replyCount ?? 0, thread.replies.length) + mine.length;

  const rendered = [...(thread.root ? [thread.root] : []), ...thread.replies].filter(isTextRow).map((m) => m.id);

  // Stay pinned to the newest reply while the reader is at the bottom.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [count, thread.status]);

  return (
    <aside
      className="flex w-[380px] shrink-0 flex-col border-l border-zinc-200 bg-white max-lg:absolute max-lg:inset-y-0 max-lg:right-0 max-lg:z-20 max-lg:shadow-xl max-sm:fixed max-sm:inset-0 max-sm:z-40 max-sm:w-full max-sm:border-l-0"
      data-testid="thread-panel"
      aria-label="Thread"
    >
      <header className="flex h-14 shrink-0 items-center justify-between gap-2 border-b border-zinc-200 px-4">
        {/* On a phone the thread is the whole screen: back to the room, as apps do. */}
        <button
          type="button"
          onClick={onClose}
          aria-label="Back to the room"
          data-testid="thread-back"
          className="-ml-2 rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 sm:hidden"
        >
          <ChevronDownIcon size={20} className="rotate-90" />
        </button>
        <div className="min-w-0 flex-1">
          <h2 className="text-[15px] font-bold text-zinc-900">Thread</h2>
          <p className="truncate text-xs text-zinc-500">{room.kind === "channel" ? `#${room.title}` : room.title}</p>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close thread"
          data-testid="close-thread"
          className="rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 max-sm:hidden"
        >
          <XIcon size={18} />
        </button>
      </header>
      <ListFocusProvider scope="thread" rendered={rendered} editing={editing}>
        <div
          ref={scrollRef}
          onScroll={(e) => {
            const el = e.currentTarget;
            atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
          }}
          className="scroll-quiet min-h-0 flex-1 overflow-y-auto pb-2"
          data-testid="thread-messages"
          data-message-list="thread"
        >
          {thread.root ? (
            <div className="pt-2" data-testid="thread-root">
              <MessageRow message={thread.root} prev={undefined} meId={me.id} meHandle={me.handle} nameOf={nameOf} actions={actions} inThread />
              <TurnBlocks messageId={thread.root.id} />
            </div>
          ) : null}
          <div className="my-2 flex items-center gap-3 px-5">
            <span className="text-xs font-medium text-zinc-500">{count > 0 ? replyLabel(count) : "No replies yet"}</span>
            <span className="h-px flex-1 bg-zinc-200" />
          </div>
          {thread.status === "loading" && (
            <div className="flex justify-center py-6 text-zinc-500">
              <Spinner />
            </div>
          )}
          {thread.status === "error" && (
            <div className="mx-5 flex items-center gap-2 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700">
              <AlertIcon size={16} /> {thread.error?.message ?? "Could not load this thread"}
            </div>
          )}
          {thread.hasEarlier && (
            <div className="flex justify-center pb-1">
              <button
                type="button"
                onClick={onLoadEarlier}
                disabled={thread.loadingEarlier}
                data-testid="earlier-replies"
                className="rounded-md border border-transparent px-1.5 py-0.5 text-[13px] font-semibold text-indigo-600 hover:border-zinc-200 hover:bg-white disabled:text-zinc-400"
              >
                {thread.loadingEarlier ? <Spinner /> : "Show earlier replies"}
              </button>
            </div>
          )}
          <div data-testid="thread-replies">
            {thread.replies.map((r, i) => (
              <Fragment key={r.seq}>
                <MessageRow message={r} prev={thread.replies[i - 1]} meId={me.id} meHandle={me.handle} nameOf={nameOf} actions={actions} inThread />
                <TurnBlocks messageId={r.id} />
              </Fragment>
            ))}
          </div>
          {mine.map((p, i) => {
            const last = thread.replies.at(-1);
            const grouped = i > 0 || (!!last && last.author.id === me.id && continuesGroup(last, { ...last, createdAt: p.createdAt }));
            return (
              <PendingRow
                key={p.clientMsgId}
                pending={p}
                me={me}
                meHandle={me.handle}
                grouped={grouped}
                onRetry={() => actions.onRetry?.(p.clientMsgId)}
                onDiscard={() => actions.onDiscard?.(p.clientMsgId)}
              />
            );
          })}
        </div>
      </ListFocusProvider>
      {canPost && thread.root && !thread.root.deletedAt ? (
        <div className="pt-2">
          {notice}
          <Composer
            placeholder="Reply…"
            roomId={room.id}
            onSend={onSend}
            onTyping={onTyping}
            mentionables={mentionables}
            testId="thread-composer"
            scope="thread"
            onEditLast={onEditLast}
            autoFocus
            compact
          />
          <TypingLine typing={typing} nameOf={nameOf} threadRootId={thread.rootId} />
        </div>
      ) : (
        <div className="h-4" />
      )}
    </aside>
  );
}
