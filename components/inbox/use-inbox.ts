"use client";
// The consent inbox's data: pending connection requests the viewer can decide (addressed to them or to
// an agent they own) and the ones they (or their agents) sent. Socket events refetch it live; the
// sidebar badge and the /inbox page share the one query.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import type { ConnectionView } from "@switchboard/sdk/contract";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";

export const isExpired = (c: Pick<ConnectionView, "expiresAt">, now = Date.now()) => !!c.expiresAt && new Date(c.expiresAt).getTime() <= now;

/** Refetches connections (and the directory's standings) when a request arrives or changes. */
export function useConnectionEvents() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { readyEpoch } = useSocket();
  const refresh = () => {
    void queryClient.invalidateQueries(trpc.connections.pathFilter());
    void queryClient.invalidateQueries(trpc.directory.pathFilter());
  };
  useSocketEvent("connection:request", refresh);
  useSocketEvent("connection:updated", refresh);
  // Events may have been missed before the socket subscribed (a request arriving between the first
  // fetch and session:ready) or while it was away: every session:ready refetches.
  useEffect(() => {
    if (readyEpoch === 0) return;
    void queryClient.invalidateQueries(trpc.connections.pathFilter());
  }, [readyEpoch, queryClient, trpc]);
}

/**
 * Pending requests the viewer may decide (incoming), those addressed to them that expired first, and
 * those they may withdraw (outgoing): the server says which (`can`, `viewerSides`).
 */
export function usePendingConnections() {
  const trpc = useTRPC();
  // One page of the largest size: pending requests are few, and the badge counts them all.
  const query = useQuery({ ...trpc.connections.list.queryOptions({ status: "pending", limit: 200 }), staleTime: 15_000 });
  const { incoming, expired, outgoing } = useMemo(() => {
    const list = query.data?.connections ?? [];
    return {
      incoming: list.filter((c) => (c.can.accept || c.can.decline) && !isExpired(c)),
      expired: list.filter((c) => c.viewerSides.addressee && isExpired(c)),
      outgoing: list.filter((c) => c.can.cancel),
    };
  }, [query.data]);
  return { query, incoming, expired, outgoing };
}
