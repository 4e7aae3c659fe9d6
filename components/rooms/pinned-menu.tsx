"use client";
// The room header's pins: how many messages are pinned, and a list of them that jumps to each (its
// link, as a copied link or a search result opens it). Fetched once, then kept by `message:pinned`.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { MessageView } from "@switchboard/sdk/contract";
import { useSocket } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { excerptOf } from "@switchboard/sdk/contract";
import { fullTimeLabel, timeLabel } from "./format";
import { messageHref } from "./message-href";
import { PinIcon, Popover } from "./reactions";
import { Link } from "@/components/nav/workspace-routing";

export function PinnedMenu({ roomId, nameOf }: { roomId: string; nameOf: (id: string) => string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { socket, readyEpoch } = useSocket();
  const [open, setOpen] = useState(false);
  const key = trpc.messages.pinned.queryKey({ roomId });
  const pins = useQuery(trpc.messages.pinned.queryOptions({ roomId }));

  useEffect(() => {
    if (!socket) return;
    const onPinned = (p: { roomId: string }) => p.roomId === roomId && void queryClient.invalidateQueries({ queryKey: key });
    // An edit or a deletion of a pinned message changes what the list shows.
    const onUpdated = (p: { roomId: string; message: MessageView }) =>
      p.roomId === roomId && p.message.pinned && void queryClient.invalidateQueries({ queryKey: key });
    socket.on("message:pinned", onPinned);
    socket.on("message:updated", onUpdated);
    return () => {
      socket.off("message:pinned", onPinned);
      socket.off("message:updated", onUpdated);
    };
  }, [socket, roomId, queryClient, key]);
  useEffect(() => {
    if (readyEpoch > 0) void queryClient.invalidateQueries({ queryKey: key });
  }, [readyEpoch, queryClient, key]);

  const list = pins.data ?? [];
  if (list.length === 0) return null;
  return (
    <div className="relative">
      <button
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        aria-label={`${list.length} pinned ${list.length === 1 ? "message" : "messages"}`}
        title="Pinned messages"
        data-testid="pinned-button"
        className="inline-flex h-8 items-center gap-1 rounded-md px-2 text-sm font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
      >
        <PinIcon size={15} />
        <span data-testid="pinned-count">{list.length}</span>
      </button>
      {open && (
        <Popover onClose={() => setOpen(false)} className="top-9 right-0 w-[min(22rem,calc(100vw-2rem))] p-1">
          <h2 className="px-2 pt-1 pb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Pinned</h2>
          <ul className="max-h-80 overflow-y-auto" data-testid="pinned-list">
            {list.map((m) => (
              <li key={m.id}>
                <Link
                  href={messageHref(m)}
                  onClick={() => setOpen(false)}
                  data-testid="pinned-item"
                  data-message-id={m.id}
                  className="block rounded-md px-2 py-1.5 hover:bg-zinc-50 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
                >
                  <span className="flex items-baseline gap-2 text-[13px]">
                    <b className="truncate font-semibold text-zinc-900">{m.author.displayName}</b>
                    <time className="shrink-0 text-xs text-zinc-500" dateTime={m.createdAt} title={fullTimeLabel(m.createdAt)}>
                      {timeLabel(m.createdAt)}
                    </time>
                  </span>
                  <span className="line-clamp-2 text-sm text-zinc-700">{m.deletedAt ? "message deleted" : excerptOf(m.body, 160)}</span>
                  {m.pinned?.byId && <span className="text-[11px] text-zinc-500">Pinned by {nameOf(m.pinned.byId)}</span>}
                </Link>
              </li>
            ))}
          </ul>
        </Popover>
      )}
    </div>
  );
}
