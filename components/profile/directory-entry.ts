"use client";
// One participant of the workspace's directory (the query names and pickers share), for what knows
// only an id: a message's author's status and avatar. Kept live by `useLiveParticipants`.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";

export function useDirectoryEntry(id: string) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.workspace.participants.queryOptions(),
    staleTime: 60_000,
    select: (list) => list.find((p) => p.id === id) ?? null,
  }).data;
}
