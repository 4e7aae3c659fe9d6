"use client";
// Local edits to the cached `rooms.mine` list, so unread counts move the moment an event arrives
// instead of after a refetch.
import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPC } from "@/components/providers/trpc";

export function useSidebarCache() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const key = trpc.rooms.mine.queryKey();
    const update = (roomId: string, fn: (r: { unread: number; mentions: number; readSeq: number; lastSeq: number }) => object) =>
      queryClient.setQueryData(key, (rooms) => rooms?.map((r) => (r.id === roomId ? { ...r, ...fn(r) } : r)));
    return {
      has: (roomId: string) => !!queryClient.getQueryData(key)?.some((r) => r.id === roomId),
      markRead: (roomId: string, seq: number) =>
        update(roomId, (r) => ({ unread: 0, mentions: 0, readSeq: Math.max(r.readSeq, seq), lastSeq: Math.max(r.lastSeq, seq) })),
      bump: (roomId: string, seq: number, counts: { unread: boolean; mention: boolean }) =>
        update(roomId, (r) =>
          seq <= Math.max(r.readSeq, r.lastSeq)
            ? {}
            : { unread: r.unread + (counts.unread ? 1 : 0), mentions: r.mentions + (counts.mention ? 1 : 0), lastSeq: Math.max(r.lastSeq, seq) },
        ),
      refetch: () => queryClient.invalidateQueries({ queryKey: key }),
    };
  }, [trpc, queryClient]);
}
