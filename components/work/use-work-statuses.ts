"use client";
// Everyone's work state, for the dots and chips beside names: one query of the statuses that are not
// idle (tRPC work.statuses), patched in place by `status:updated` and fetched again on every
// session:ready (what a reconnect may have missed). The shell listens once (useWorkStatusEvents);
// any component reads (useWorkStatuses).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { WorkStatusView } from "@switchboard/sdk/work";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { patchStatuses } from "./status-list";

const EMPTY: ReadonlyMap<string, WorkStatusView> = new Map();
const byParticipant = (list: WorkStatusView[]) => new Map(list.map((s) => [s.participantId, s]));

/** The statuses by participant id; an absent id is idle. */
export function useWorkStatuses(): ReadonlyMap<string, WorkStatusView> {
  const trpc = useTRPC();
  const { data } = useQuery({ ...trpc.work.statuses.queryOptions(), staleTime: Infinity, select: byParticipant });
  return data ?? EMPTY;
}

export function useWorkStatusEvents() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { readyEpoch } = useSocket();
  useSocketEvent("status:updated", ({ status }) => {
    const queryKey = trpc.work.statuses.queryKey();
    queryClient.setQueryData(queryKey, (old) => (old ? patchStatuses(old, status) : old));
    // A fetch in flight (the one after session:ready, say) may have read the store before this change
    // and would put the older state back when it lands: it is replaced by one that reads after it.
    if (queryClient.isFetching({ queryKey }) > 0) void queryClient.invalidateQueries({ queryKey });
  });
  const seenEpoch = useRef(readyEpoch);
  useEffect(() => {
    if (readyEpoch > 0 && readyEpoch !== seenEpoch.current) void queryClient.invalidateQueries({ queryKey: trpc.work.statuses.queryKey() });
    seenEpoch.current = readyEpoch;
  }, [readyEpoch, queryClient, trpc]);
}
