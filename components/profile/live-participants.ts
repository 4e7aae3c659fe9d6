"use client";
// Names, handles and statuses change live: `participant:updated` is folded into the workspace's
// directory (what names, pickers and status emoji read), member lists are read again, and the
// sidebar too when a name changed (a direct message is titled by the other person's name).
import { useQueryClient } from "@tanstack/react-query";
import type { ParticipantView } from "@switchboard/sdk/contract";
import { useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";

/** Mount once for the signed-in frame (the sidebar does). */
export function useLiveParticipants(): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useSocketEvent("participant:updated", ({ participant }) => {
    let renamed = false;
    queryClient.setQueriesData<(ParticipantView & { online: boolean })[]>({ queryKey: trpc.workspace.participants.queryKey() }, (list) =>
      list?.map((p) => {
        if (p.id !== participant.id) return p;
        renamed ||= p.displayName !== participant.displayName;
        return { ...p, ...participant };
      }),
    );
    void queryClient.invalidateQueries(trpc.rooms.members.pathFilter());
    if (renamed) void queryClient.invalidateQueries({ queryKey: trpc.rooms.mine.queryKey() });
  });
}
