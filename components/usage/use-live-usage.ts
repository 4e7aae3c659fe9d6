"use client";
// Live dashboards: every `usage:recorded` the viewer may see (their agents', their requests', or any for admins)
// refetches the usage queries (coalesced, so a burst of reports is one refetch), and every
// session:ready (first subscription, reconnects) refetches what may have been missed before it.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { useCoalesced } from "@/components/ui/use-coalesced";

const COALESCE_MS = 150;

export function useLiveUsage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { status, readyEpoch } = useSocket();
  const [lastEventAt, setLastEventAt] = useState<number | null>(null);
  const [events, setEvents] = useState(0);

  const refresh = useCoalesced(() => {
    for (const filter of [trpc.usage.overview.pathFilter(), trpc.usage.room.pathFilter(), trpc.usage.task.pathFilter(), trpc.usage.budgets.pathFilter()]) {
      void queryClient.invalidateQueries(filter);
    }
  }, COALESCE_MS);

  useSocketEvent("usage:recorded", () => {
    setLastEventAt(Date.now());
    setEvents((n) => n + 1);
    refresh();
  });

  // An agent suspended or resumed (a budget, an admin) shows so in the breakdowns.
  useSocketEvent("participant:updated", ({ participant }) => {
    if (participant.kind === "agent") void queryClient.invalidateQueries(trpc.workspace.participants.pathFilter());
  });

  // The server subscribes a socket to its audiences just before session:ready, so reports made between
  // the page's first fetch and then (or while reconnecting) would be missed: refetch on every ready.
  // (A page opened on an already subscribed socket fetched after the subscription: nothing to catch up.)
  const seenEpoch = useRef(readyEpoch);
  useEffect(() => {
    if (readyEpoch > 0 && readyEpoch !== seenEpoch.current) refresh();
    seenEpoch.current = readyEpoch;
  }, [readyEpoch, refresh]);

  /** Live once the socket is connected and subscribed (session:ready), not merely connected. */
  const live = status === "connected" && readyEpoch > 0;
  return { status, live, lastEventAt, events };
}
