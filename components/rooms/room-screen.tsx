"use client";
// /r/[roomId]: the header, the timeline, the composer and the side panels (thread, members).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { countsAsUnread, type MessageView, type RoomCan, type RoomView } from "@switchboard/sdk/contract";
import { useDirectory } from "@/components/providers/directory";
import { useSocket } from "@/components/providers/socket-provider";
import { useTRPC, useTRPCClient } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Button, Spinner } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { appErrorOf, errorMessage } from "@/components/ui/errors";
import { documentTitle } from "@/components/ui/document-title";
import { AlertIcon, LockIcon } from "@/components/ui/icons";
import { isComposing } from "@/components/keyboard/keys";
import { Composer, type ComposerHandle } from "./composer";
import { MembersPanel } from "./members-panel";
import { focusComposer, useEditingState, type ListScope } from "./message-focus";
import { MessageList } from "./message-list";
import { RoomTurnsProvider } from "@/components/turns/room-turns";
import { PausedAgents } from "@/components/turns/turn-block";
import type { MessageActions } from "./message-row";
import { RoomHeader } from "./room-header";
import { PinnedMenu } from "./pinned-menu";
import { toast } from "@/components/ui/toast";
import { RoomStore } from "./room-store";
import { useSidebarCache } from "./sidebar-cache";
import { ThreadPanel } from "./thread-panel";
import { useRevealMessage } from "./reveal-message";
import { TypingLine } from "./typing-line";
import { UnreachedNotice } from "./unreached-notice";
import { changesSharing } from "./format";
import { Link, useRouter } from "@/components/nav/workspace-routing";

type RoomDetails = RoomView & { joined: boolean; readSeq: number; can: RoomCan };

export function RoomScreen({ roomId }: { roomId: string }) {
  const trpc = useTRPC();
  const room = useQuery(trpc.rooms.get.queryOptions({ roomId }));

  if (room.isPending) return <RoomSkeleton />;
  if (room.isError) {
    const error = appErrorOf(room.error);
    if (error.code === "ROOM_NOT_FOUND" || error.code === "INVALID_PAYLOAD" || error.code === "NOT_FOUND") return <NoAccess />;
    return (
      <CenteredState title="Couldn't open this room" body={error.message}>
        <Button variant="secondary" onClick={() => void room.refetch()}>
          Try again
        </Button>
      </CenteredState>
    );
  }
  return <RoomLoaded key={roomId} room={room.data} />;
}

function RoomLoaded({ room }: { room: RoomDetails }) {
  const { me } = useViewer();
  const trpc = useTRPC();
  const trpcClient = useTRPCClient();
  const queryClient = useQueryClient();
  const router = useRouter();
  const { socket, readyEpoch, status: connection } = useSocket();
  const { nameOf } = useDirectory();
  const sidebar = useSidebarCache();
  const composer = useRef<ComposerHandle>(null);

  const [store] = useState(
    () =>
      new RoomStore(room.id, me.id, {
        history: (input) => trpcClient.messages.history.query(input),
        thread: (input) => trpcClient.messages.thread.query(input),
      }),
  );
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const reveal = useRevealMessage(store);
  const [membersOpen, setMembersOpen] = useState(false);
  const members = useQuery(trpc.rooms.members.queryOptions({ roomId: room.id }));

  // Where the reader left off: fixed when the first page arrives, not moved by live messages.
  const [unreadMarker, setUnreadMarker] = useState<number | null | undefined>(undefined);
  useEffect(() => {
    if (snap.status !== "ready" || unreadMarker !== undefined) return;
    const first = snap.items.find((m) => m.seq > room.readSeq && countsAsUnread(m, me.id));
    setUnreadMarker(room.joined && first ? first.seq : null);
  }, [snap.status, snap.items, unreadMarker, room.readSeq, room.joined, me.id]);
  const [deleting, setDeleting] = useState<MessageView | null>(null);

  // Live events first, then history: whatever arrives in between merges by seq.
  useEffect(() => {
    store.setSocket(socket);
    if (!socket) return;
    // Shared with another workspace, or no longer: the header says so from the room's view (the sidebar refetches its own).
    const sharingChanged = (roomId: string, messages: MessageView[]) => {
      if (roomId === room.id && messages.some(changesSharing)) void queryClient.invalidateQueries({ queryKey: trpc.rooms.get.queryKey({ roomId: room.id }) });
    };
    const onNew = (p: { roomId: string; message: MessageView }) => {
      if (p.roomId === room.id) store.receiveLive(p.message, true);
      sharingChanged(p.roomId, [p.message]);
    };
    const onBatch = (p: { roomId: string; messages: MessageView[] }) => {
      store.receiveBatch(p.roomId, p.messages);
      sharingChanged(p.roomId, p.messages);
    };
    const onUpdated = (p: { roomId: string; message: MessageView }) => p.roomId === room.id && store.receiveLive(p.message, false);
    const onTyping = (p: { roomId: string; threadRootId: string | null; participantId: string }) => store.receiveTyping(p);
    const onMembers = (p: { roomId: string }) => {
      if (p.roomId !== room.id) return;
      void queryClient.invalidateQueries({ queryKey: trpc.rooms.members.queryKey({ roomId: room.id }) });
      void queryClient.invalidateQueries({ queryKey: trpc.rooms.get.queryKey({ roomId: room.id }) });
    };
    // Joined or left in another tab: what this page may show changes (preview, member, no access).
    const onMembership = (p: { roomId?: string; room?: RoomView }) => {
      if ((p.roomId ?? p.room?.id) === room.id) void queryClient.invalidateQueries({ queryKey: trpc.rooms.get.queryKey({ roomId: room.id }) });
    };
    const onReceipt = (p: Parameters<RoomStore["receiveReceipt"]>[0]) => store.receiveReceipt(p);
    const onReactions = (p: Parameters<RoomStore["receiveReactions"]>[0]) => store.receiveReactions(p);
    const onPinned = (p: { roomId: string; message: MessageView }) => p.roomId === room.id && store.receiveLive(p.message, false);
    const onUnread = (p: { roomId: string; readSeq: number }) => p.roomId === room.id && keepUnread.current(p.readSeq);
    socket.on("message:reactions", onReactions);
    socket.on("message:pinned", onPinned);
    socket.on("room:unread", onUnread);
    socket.on("message:receipt", onReceipt);
    socket.on("room:added", onMembership);
    socket.on("room:removed", onMembership);
    socket.on("room:updated", onMembership); // renamed, a new topic, archived or back
    socket.on("message:new", onNew);
    socket.on("message:batch", onBatch);
    socket.on("message:updated", onUpdated);
    socket.on("room:typing", onTyping);
    socket.on("room:members", onMembers);
    return () => {
      socket.off("message:reactions", onReactions);
      socket.off("message:pinned", onPinned);
      socket.off("room:unread", onUnread);
      socket.off("message:receipt", onReceipt);
      socket.off("room:added", onMembership);
      socket.off("room:removed", onMembership);
      socket.off("room:updated", onMembership);
      socket.off("message:new", onNew);
      socket.off("message:batch", onBatch);
      socket.off("message:updated", onUpdated);
      socket.off("room:typing", onTyping);
      socket.off("room:members", onMembers);
    };
  }, [socket, store, room.id, queryClient, trpc]);

  useEffect(() => {
    void store.loadInitial();
    return () => store.dispose();
  }, [store]);

  // After every (re)connection: fetch what happened while the socket was away.
  useEffect(() => {
    if (readyEpoch === 0) return;
    void store.sync();
    store.retryFailed();
  }, [readyEpoch, store]);

  // Mark read up to the newest seq seen, while the tab is visible; not while the viewer keeps the room
  // unread ("mark unread from here"), until something new arrives or they come back to it.
  const lastRead = useRef(room.readSeq);
  const unreadHeldAt = useRef<number | null>(null);
  const keepUnread = useRef((readSeq: number) => {
    unreadHeldAt.current = store.getSnapshot().cursor;
    lastRead.current = readSeq;
    const first = store.getSnapshot().items.find((m) => m.seq > readSeq && countsAsUnread(m, me.id));
    setUnreadMarker(first ? first.seq : null);
  });
  const markRead = useCallback(() => {
    if (!room.joined || !socket?.connected || document.visibilityState !== "visible") return;
    const seq = store.getSnapshot().cursor;
    if (unreadHeldAt.current !== null && seq <= unreadHeldAt.current) return;
    unreadHeldAt.current = null;
    sidebar.markRead(room.id, seq);
    if (seq <= lastRead.current) return;
    lastRead.current = seq;
    socket.emit("room:read", { roomId: room.id, seq });
  }, [room.joined, room.id, socket, store, sidebar]);
  useEffect(() => {
    const t = setTimeout(markRead, 300);
    return () => clearTimeout(t);
  }, [snap.cursor, markRead, connection]);
  useEffect(() => {
    document.addEventListener("visibilitychange", markRead);
    return () => document.removeEventListener("visibilitychange", markRead);
  }, [markRead]);

  const title = room.kind === "channel" ? `#${room.title}` : room.title;
  useEffect(() => documentTitle.setPage(title), [title]);

  // Escape closes the thread, else the members panel (when nothing else claims the key).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || isComposing(e) || document.querySelector("dialog[open]")) return;
      if (store.getSnapshot().thread) store.closeThread();
      else if (membersOpen) setMembersOpen(false);
      else return;
      composer.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [store, membersOpen]);

  const sendTyping = useCallback(
    (threadRootId: string | null) => socket?.emit("room:typing", threadRootId ? { roomId: room.id, threadRootId } : { roomId: room.id }),
    [socket, room.id],
  );

  const actions = useMemo<MessageActions>(
    () => ({
      onReply: (m) => {
        void store.openThread(m.id, m);
        // An open panel keeps its reply box: focus it, as a newly opened one does.
        requestAnimationFrame(() => focusComposer("thread"));
      },
      onEdit: (m, body) => store.edit(m.id, body),
      onDelete: (m) => setDeleting(m),
      onReact: (m, emoji, on) => void store.react(m.id, emoji, on).then((error) => error && toast(error.message, "error")),
      onPin: (m, pinned) =>
        void store.pin(m.id, pinned).then((error) => (error ? toast(error.message, "error") : toast(pinned ? "Pinned to the room" : "Unpinned"))),
      onMarkUnread: (m) =>
        void trpcClient.messages.markUnread.mutate({ messageId: m.id }).then(
          ({ readSeq }) => {
            keepUnread.current(readSeq);
            void sidebar.markUnread(room.id);
          },
          (error: unknown) => toast(errorMessage(error), "error"),
        ),
      onRetry: (id) => store.retry(id),
      onDiscard: (id) => store.discard(id),
      // The room's flags (from the server's policies) say what the viewer may do with a text message.
      allowed: (m) => {
        const mine = m.author.id === me.id;
        return {
          edit: mine && room.can.editOwn,
          delete: mine ? room.can.deleteOwn : room.can.deleteOthers,
          react: room.can.react,
          pin: room.can.pin,
          markUnread: room.can.markUnread,
        };
      },
    }),
    [store, me.id, room.can, room.id, trpcClient, sidebar],
  );

  // ↑ in an empty composer: edit the viewer's last message in the room's timeline, or in the open thread.
  const editing = useEditingState();
  const { start: startEditing } = editing;
  const editLast = useCallback(
    (scope: ListScope) => {
      const { items, thread } = store.getSnapshot();
      const list = scope === "room" ? items : thread ? [...(thread.root ? [thread.root] : []), ...thread.replies] : [];
      for (let i = list.length - 1; i >= 0; i--) {
        const m = list[i];
        if (m.kind === "text" && !m.deletedAt && actions.allowed(m).edit) {
          startEditing(scope, m.id);
          return true;
        }
      }
      return false;
    },
    [store, actions, startEditing],
  );

  const join = useMutation(
    trpc.rooms.join.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.rooms.get.queryKey({ roomId: room.id }) });
        void sidebar.refetch();
        void store.sync();
      },
    }),
  );
  const leave = useMutation(
    trpc.rooms.leave.mutationOptions({
      onSuccess: async () => {
        await sidebar.refetch();
        router.push("/");
      },
    }),
  );

  const meView = { id: me.id, handle: me.handle, displayName: me.displayName, kind: me.kind };
  const unreachedNotice = (notice: NonNullable<typeof snap.unreached>) => (
    <UnreachedNotice notice={notice} roomId={room.id} roomTitle={title} canInvite={room.can.invite} onDismiss={(id) => store.dismissUnreached(id)} />
  );

  return (
    <RoomTurnsProvider roomId={room.id} meId={me.id}>
      <div className="relative flex h-full min-w-0 flex-1" data-testid="room-view" data-room-id={room.id}>
        <div
          className="flex min-w-0 flex-1 flex-col"
          // Files dropped anywhere on the timeline go to the room's box (the thread's box takes its own).
          onDragOver={(e) => {
            if (room.can.post && e.dataTransfer.types.includes("Files")) e.preventDefault();
          }}
          onDrop={(e) => {
            if (!room.can.post || e.dataTransfer.files.length === 0) return;
            e.preventDefault();
            composer.current?.addFiles(Array.from(e.dataTransfer.files));
          }}
        >
          <RoomHeader
            room={room}
            peer={room.kind === "dm" ? (members.data?.find((m) => m.participant.id !== me.id) ?? null) : null}
            membersOpen={membersOpen}
            onToggleMembers={() => setMembersOpen((v) => !v)}
            onLeave={room.can.leave ? () => leave.mutate({ roomId: room.id }) : undefined}
            leaving={leave.isPending}
            onOpenThread={(rootId) => void store.openThread(rootId)}
            canUpdate={room.can.update}
            pins={<PinnedMenu roomId={room.id} nameOf={nameOf} />}
          />
          {leave.isError && <div className="border-b border-rose-200 bg-rose-50 px-5 py-2 text-sm text-rose-700">{errorMessage(leave.error)}</div>}
          <PausedAgents />
          {snap.status === "loading" ? (
            <TimelineSkeleton />
          ) : snap.status === "error" ? (
            <CenteredState title="Couldn't load messages" body={snap.error?.message ?? "Something went wrong"}>
              <Button variant="secondary" onClick={() => void store.loadInitial(true)}>
                Try again
              </Button>
            </CenteredState>
          ) : (
            <MessageList
              room={room}
              store={store}
              items={snap.items}
              pending={snap.pending}
              hasMore={snap.hasMore}
              loadingOlder={snap.loadingOlder}
              me={meView}
              nameOf={nameOf}
              actions={actions}
              unreadMarker={unreadMarker ?? null}
              editing={editing}
              reveal={reveal}
            />
          )}
          {room.can.post ? (
            <div className="shrink-0">
              {snap.unreached && snap.unreached.threadRootId === null && unreachedNotice(snap.unreached)}
              <Composer
                ref={composer}
                key={room.id}
                placeholder={`Message ${title}`}
                mentionables={members.data?.map((m) => m.participant)}
                roomId={room.id}
                onSend={(body, files) => store.send(body, null, files)}
                onTyping={() => sendTyping(null)}
                onEditLast={() => editLast("room")}
                autoFocus
              />
              <TypingLine typing={snap.typing} nameOf={nameOf} threadRootId={null} />
            </div>
          ) : room.can.join ? (
            <div className="m-5 mt-2 flex items-center justify-between gap-4 rounded-lg border border-zinc-200 bg-zinc-50 px-4 py-3" data-testid="join-bar">
              <div className="text-sm text-zinc-600">
                You are previewing <b className="font-semibold text-zinc-900">{title}</b>.
                {join.isError && <span className="ml-2 text-rose-600">{errorMessage(join.error)}</span>}
              </div>
              <Button onClick={() => join.mutate({ roomId: room.id })} disabled={join.isPending} data-testid="join-room">
                {join.isPending && <Spinner />} Join channel
              </Button>
            </div>
          ) : room.archivedAt ? (
            <div className="m-5 mt-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="archived-bar">
              <b className="font-semibold">{title}</b> is archived: you can read it, but nobody can post.
              {room.can.update && " Its settings (the gear above) can bring it back."}
            </div>
          ) : null}
        </div>
        {snap.thread && (
          <ThreadPanel
            room={room}
            thread={snap.thread}
            pending={snap.pending}
            typing={snap.typing}
            me={meView}
            nameOf={nameOf}
            actions={actions}
            canPost={room.can.post}
            mentionables={members.data?.map((m) => m.participant)}
            onClose={() => store.closeThread()}
            onLoadEarlier={() => void store.loadEarlierReplies()}
            onSend={(body, files) => snap.thread && store.send(body, snap.thread.rootId, files)}
            onTyping={() => snap.thread && sendTyping(snap.thread.rootId)}
            onEditLast={() => editLast("thread")}
            editing={editing}
            notice={snap.unreached && snap.unreached.threadRootId === snap.thread.rootId ? unreachedNotice(snap.unreached) : null}
          />
        )}
        {membersOpen && <MembersPanel room={room} canInvite={room.can.invite} onClose={() => setMembersOpen(false)} />}
        <DeleteDialog
          message={deleting}
          onClose={() => setDeleting(null)}
          onConfirm={async (m) => {
            const error = await store.remove(m.id);
            if (!error) setDeleting(null);
            return error?.message ?? null;
          }}
        />
      </div>
    </RoomTurnsProvider>
  );
}

function DeleteDialog({
  message,
  onClose,
  onConfirm,
}: {
  message: MessageView | null;
  onClose: () => void;
  onConfirm: (m: MessageView) => Promise<string | null>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setError(null), [message]);
  return (
    <Dialog
      open={message !== null}
      onClose={onClose}
      title="Delete message?"
      description="Everyone in the room will see “message deleted” in its place. This can't be undone."
      testId="delete-dialog"
      width="max-w-md"
      footer={
        <DialogActions
          onCancel={onClose}
          label="Delete"
          variant="danger"
          busy={busy}
          autoFocus
          onConfirm={() => {
            if (!message) return;
            setBusy(true);
            void onConfirm(message).then((error) => {
              setError(error);
              setBusy(false);
            });
          }}
          testId="confirm-delete"
        />
      }
    >
      {message && (
        <div className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm whitespace-pre-wrap text-zinc-700">
          {message.body.length > 280 ? `${message.body.slice(0, 280)}…` : message.body}
        </div>
      )}
      {error && <p className="mt-2 text-sm text-rose-600">{error}</p>}
    </Dialog>
  );
}

export function NoAccess() {
  return (
    <CenteredState
      testId="no-access"
      icon={<LockIcon size={22} />}
      title="This room doesn't exist or you don't have access"
      body="It may be private, or the link may be wrong. Ask a member of the room to add you."
    >
      <Link href="/" className="inline-flex h-10 items-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-500">
        Back to your rooms
      </Link>
    </CenteredState>
  );
}

export function CenteredState({
  title,
  body,
  children,
  icon = <AlertIcon size={22} />,
  testId,
}: {
  title: string;
  body: string;
  children?: React.ReactNode;
  icon?: React.ReactNode;
  testId?: string;
}) {
  return (
    <div className="flex flex-1 items-center justify-center p-8" data-testid={testId}>
      <div className="max-w-sm text-center">
        <div className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-xl bg-zinc-100 text-zinc-500">{icon}</div>
        <h1 className="text-lg font-semibold text-zinc-900">{title}</h1>
        <p className="mt-1 text-sm text-zinc-500">{body}</p>
        {children && <div className="mt-5 flex justify-center gap-2">{children}</div>}
      </div>
    </div>
  );
}

function RoomSkeleton() {
  return (
    <div className="flex min-w-0 flex-1 flex-col" aria-busy="true">
      <div className="flex h-14 items-center gap-3 border-b border-zinc-200 px-5">
        <div className="h-4 w-40 animate-pulse rounded bg-zinc-200" />
        <div className="h-3 w-64 animate-pulse rounded bg-zinc-100" />
      </div>
      <TimelineSkeleton />
    </div>
  );
}

function TimelineSkeleton() {
  return (
    <div className="flex flex-1 flex-col justify-end gap-5 px-5 pb-6" role="status" aria-busy="true" aria-label="Loading messages">
      {[0.7, 0.45, 0.85, 0.55].map((w, i) => (
        <div key={i} className="flex gap-3">
          <div className="h-9 w-9 animate-pulse rounded-full bg-zinc-200" />
          <div className="flex-1 space-y-2 pt-1">
            <div className="h-3 w-32 animate-pulse rounded bg-zinc-200" />
            <div className="h-3 animate-pulse rounded bg-zinc-100" style={{ width: `${w * 100}%` }} />
          </div>
        </div>
      ))}
    </div>
  );
}
