"use client";
// Local edits to the cached `rooms.mine` list, so unread counts move the moment an event arrives
// instead of after a refetch.
//
// A refetch that was already in flight when an event arrived answers with counts from before that
// event, and would silently undo the local edit. So every edit is also kept in a small ledger, and
// each fetched list is reconciled with it: the server's `lastSeq` says which messages its counts
// include, and anything newer that arrived over the socket is applied again.
import { hashKey, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { useTRPC } from "@/components/providers/trpc";

type Counts = { unread: boolean; mention: boolean };
type CachedRoom = { id: string; unread: number; mentions: number; readSeq: number; lastSeq: number; markedUnread?: boolean };
/** `marked`: rooms the viewer marked unread ("mark unread from here"): their counts show even while open. */
type Ledger = { bumps: Map<string, Map<number, Counts>>; reads: Map<string, number>; marked: Set<string> };

/** Only edits newer than an in-flight fetch matter; this bounds the ledger in a tab never refetched. */
const MAX_BUMPS_PER_ROOM = 200;
const ledgers = new WeakMap<QueryClient, Ledger>();

function ledgerOf(queryClient: QueryClient): Ledger {
  let ledger = ledgers.get(queryClient);
  if (!ledger) ledgers.set(queryClient, (ledger = { bumps: new Map(), reads: new Map(), marked: new Set() }));
  return ledger;
}

function applyBump(r: CachedRoom, seq: number, counts: Counts): Partial<CachedRoom> {
  if (seq <= Math.max(r.readSeq, r.lastSeq)) return {};
  return { unread: r.unread + (counts.unread ? 1 : 0), mentions: r.mentions + (counts.mention ? 1 : 0), lastSeq: seq };
}

function applyRead(r: CachedRoom, seq: number): Partial<CachedRoom> {
  return { unread: 0, mentions: 0, readSeq: Math.max(r.readSeq, seq), lastSeq: Math.max(r.lastSeq, seq) };
}

/** A freshly fetched list, with what the socket said after the server counted re-applied. */
function reconcile<R extends CachedRoom>(rooms: R[], ledger: Ledger): R[] {
  const present = new Set(rooms.map((r) => r.id));
  for (const id of ledger.bumps.keys()) if (!present.has(id)) ledger.bumps.delete(id);
  for (const id of ledger.reads.keys()) if (!present.has(id)) ledger.reads.delete(id);
  return rooms.map((fetched) => {
    let room: R = ledger.marked.has(fetched.id) ? { ...fetched, markedUnread: true } : fetched;
    const read = ledger.reads.get(room.id);
    if (read !== undefined) {
      if (read <= fetched.readSeq) ledger.reads.delete(room.id);
      else room = { ...room, ...applyRead(room, read) };
    }
    const bumps = ledger.bumps.get(room.id);
    if (bumps) {
      for (const seq of [...bumps.keys()].sort((a, b) => a - b)) {
        if (seq <= fetched.lastSeq)
          bumps.delete(seq); // counted by the server already
        else room = { ...room, ...applyBump(room, seq, bumps.get(seq)!) };
      }
      if (bumps.size === 0) ledger.bumps.delete(room.id);
    }
    return room;
  });
}

export function useSidebarCache() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const key = trpc.rooms.mine.queryKey();
    const ledger = ledgerOf(queryClient);
    const update = (roomId: string, fn: (r: CachedRoom) => Partial<CachedRoom>) =>
      queryClient.setQueryData(key, (rooms) => rooms?.map((r) => (r.id === roomId ? { ...r, ...fn(r) } : r)));
    return {
      has: (roomId: string) => !!queryClient.getQueryData(key)?.some((r) => r.id === roomId),
      /** Whether the message at `seq` may be among the room's unread counts (after the read cursor, with counts). */
      isUnread: (roomId: string, seq: number) =>
        !!queryClient.getQueryData(key)?.some((r) => r.id === roomId && seq > r.readSeq && (r.unread > 0 || r.mentions > 0)),
      markRead: (roomId: string, seq: number) => {
        ledger.marked.delete(roomId);
        ledger.reads.set(roomId, Math.max(ledger.reads.get(roomId) ?? 0, seq));
        const bumps = ledger.bumps.get(roomId);
        for (const s of bumps?.keys() ?? []) if (s <= seq) bumps!.delete(s);
        update(roomId, (r) => applyRead(r, seq));
      },
      /** The viewer marked the room unread (`room:unread`): what this tab read there no longer counts; the server's counts do. */
      markUnread: (roomId: string) => {
        ledger.reads.delete(roomId);
        ledger.bumps.delete(roomId);
        ledger.marked.add(roomId);
        update(roomId, () => ({ markedUnread: true }));
        return queryClient.invalidateQueries({ queryKey: key });
      },
      bump: (roomId: string, seq: number, counts: Counts) => {
        const bumps = ledger.bumps.get(roomId) ?? new Map<number, Counts>();
        ledger.bumps.set(roomId, bumps.set(seq, counts));
        if (bumps.size > MAX_BUMPS_PER_ROOM) bumps.delete(Math.min(...bumps.keys()));
        update(roomId, (r) => applyBump(r, seq, counts));
      },
      refetch: () => queryClient.invalidateQueries({ queryKey: key }),
    };
  }, [trpc, queryClient]);
}

/** Mount once (the sidebar does): reconciles every fetched `rooms.mine` list with the ledger. */
export function useSidebarReconciler() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useEffect(() => {
    const hash = hashKey(trpc.rooms.mine.queryKey());
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== "updated" || event.action.type !== "success" || event.action.manual) return;
      if (event.query.queryHash !== hash) return;
      const ledger = ledgerOf(queryClient);
      if (ledger.bumps.size === 0 && ledger.reads.size === 0 && ledger.marked.size === 0) return;
      const rooms = event.query.state.data as CachedRoom[] | undefined;
      if (rooms) queryClient.setQueryData(event.query.queryKey, reconcile(rooms, ledger));
    });
  }, [trpc, queryClient]);
}
