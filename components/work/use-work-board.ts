"use client";
// The Work page's board, live: `status:updated` patches an agent's status in place, and `work:changed`
// (an agent's tasks, files or links, as stored) is folded into its card (apply-work-change.ts); what
// neither can say alone (an agent the board does not have yet, a possible conflict) refetches the board,
// a burst coalesced into one refetch; every session:ready refetches what a reconnect may have missed.
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { applyWorkChange } from "./apply-work-change";
import type { Board } from "./types";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { useCoalesced } from "@/components/ui/use-coalesced";

const REFETCH_AFTER_MS = 300;

export function useWorkBoard(sinceHours: number) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { status, readyEpoch } = useSocket();
  const board = useQuery({ ...trpc.work.board.queryOptions({ sinceHours }), placeholderData: keepPreviousData });

  const refetch = useCoalesced(() => void queryClient.invalidateQueries(trpc.work.board.pathFilter()), REFETCH_AFTER_MS);
  // An agent's report, folded in as it comes; what a report alone cannot say is read again.
  useSocketEvent("work:changed", (change) => {
    let stale = false;
    queryClient.setQueriesData<Board>(trpc.work.board.pathFilter(), (old) => {
      if (!old) return old;
      const applied = applyWorkChange(old, change);
      stale ||= applied.stale;
      return applied.board;
    });
    // A read already under way may have started before this report committed, and its answer would
    // overwrite what was just folded in: read again after it.
    if (stale || queryClient.isFetching(trpc.work.board.pathFilter()) > 0) refetch();
  });
  // An agent paused in a room, or resumed: its card says where.
  useSocketEvent("agent:paused", refetch);
  useSocketEvent("status:updated", ({ status: next }) => {
    let unknown = false;
    queryClient.setQueriesData<Board>(trpc.work.board.pathFilter(), (old) => {
      if (!old) return old;
      if (!old.agents.some((a) => a.agent.id === next.participantId)) {
        unknown = true;
        return old;
      }
      return { ...old, agents: old.agents.map((a) => (a.agent.id === next.participantId ? { ...a, status: next } : a)) };
    });
    // An agent made since the board was fetched (a Claude Code session's first hook says only
    // "working"); people, whose statuses hold without a TTL, are not on the board. A read under way
    // may have started before this status changed, and would put the older one back: read again after it.
    if ((unknown && next.until) || queryClient.isFetching(trpc.work.board.pathFilter()) > 0) refetch();
  });
  // An agent suspended or created shows on the board.
  useSocketEvent("participant:updated", ({ participant }) => {
    if (participant.kind === "agent") refetch();
  });

  const seenEpoch = useRef(readyEpoch);
  useEffect(() => {
    if (readyEpoch > 0 && readyEpoch !== seenEpoch.current) refetch();
    seenEpoch.current = readyEpoch;
  }, [readyEpoch, refetch]);

  return { board, live: status === "connected" && readyEpoch > 0 };
}

/** The time now, moving every `ms`, so "since 3 minutes ago" stays true on a page left open. */
export function useNow(ms = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}
