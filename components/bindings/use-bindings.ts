"use client";
// The browser's runtime bindings: a room's (its header) and an agent's (its card), from tRPC with the
// viewer's `room` and `can`, kept live by `binding:updated`. The event carries the binding as everyone
// sees it, so it is merged into what the query returned (keeping `room` and `can`); a binding the
// query has not seen yet is fetched again, once, to learn them.
import { useMutation, useQuery, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { BindingForViewer, BindingView } from "@switchboard/sdk/bindings";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { applyBinding } from "./binding-list";

function useLiveList(key: QueryKey, includeClosed: boolean, concerns: (b: BindingView) => boolean) {
  const queryClient = useQueryClient();
  const { readyEpoch } = useSocket();
  const apply = (binding: BindingView) => {
    if (!concerns(binding)) return;
    const list = queryClient.getQueryData<BindingForViewer[]>(key);
    // Still loading: what the fetch under way read may be older than this, so it is asked again.
    if (!list) return void queryClient.invalidateQueries({ queryKey: key, exact: true });
    const next = applyBinding(list, binding, includeClosed);
    if (next === "refetch") void queryClient.invalidateQueries({ queryKey: key, exact: true });
    else if (next !== "unchanged") queryClient.setQueryData(key, next);
  };
  useSocketEvent("binding:updated", ({ binding }) => apply(binding));
  // What changed while the socket was not subscribed: refetched each time it is (again). A list fetched
  // while the socket was already subscribed (mounted later) misses nothing, so that epoch is skipped.
  const seenEpoch = useRef(readyEpoch);
  const keyJson = JSON.stringify(key);
  useEffect(() => {
    if (readyEpoch === seenEpoch.current) return;
    seenEpoch.current = readyEpoch;
    void queryClient.invalidateQueries({ queryKey: JSON.parse(keyJson) as QueryKey, exact: true });
  }, [readyEpoch, queryClient, keyJson]);
  return apply;
}

/** The open sessions bound in a room (top level and threads), live. */
export function useRoomBindings(roomId: string) {
  const trpc = useTRPC();
  const input = { roomId, includeClosed: false };
  const query = useQuery(trpc.bindings.ofRoom.queryOptions(input));
  const apply = useLiveList(trpc.bindings.ofRoom.queryKey(input), false, (b) => b.roomId === roomId);
  return { query, apply };
}

/** All of an agent's sessions, closed ones too, newest first, live. */
export function useAgentBindings(agentId: string) {
  const trpc = useTRPC();
  const input = { agentId, includeClosed: true };
  const query = useQuery(trpc.bindings.ofAgent.queryOptions(input));
  const apply = useLiveList(trpc.bindings.ofAgent.queryKey(input), true, (b) => b.agentId === agentId);
  return { query, apply };
}

/** Closes a binding; `onClosed` gets the server's view (applied to the lists that show it). */
export function useCloseBinding(onClosed: (b: BindingView) => void) {
  const trpc = useTRPC();
  return useMutation(trpc.bindings.close.mutationOptions({ onSuccess: onClosed }));
}

/**
 * The time the lists are drawn at: taken again when `bindings` change, every 30 s (relative times move
 * on), and when the first running turn's lease runs out (a runner that died mid-turn sends no event,
 * and its binding must still turn stale on screen). Pass the query's data as it is (a stable reference).
 */
export function useBindingClock(bindings: readonly Pick<BindingView, "status" | "leaseUntil">[] | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  const [seen, setSeen] = useState(bindings);
  if (seen !== bindings) {
    // New data: draw it at the current time (state adjusted while rendering, not in an effect).
    setSeen(bindings);
    setNow(Date.now());
  }
  const nextLease = (bindings ?? [])
    .filter((b) => b.status === "active" && b.leaseUntil)
    .map((b) => Date.parse(b.leaseUntil!))
    .filter((t) => t > now)
    .sort((a, b) => a - b)[0];
  useEffect(() => {
    const wait = nextLease === undefined ? 30_000 : Math.min(30_000, Math.max(0, nextLease - now) + 250);
    const t = setTimeout(() => setNow(Date.now()), wait);
    return () => clearTimeout(t);
  }, [now, nextLease]);
  return now;
}
