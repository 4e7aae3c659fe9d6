"use client";
// Keeps a view of work live: an agent's report (`work:changed`), a message or a question in the rooms
// it shows (or anywhere, when it names none) refetch it, a burst coalesced into one refetch; every
// session:ready refetches what a reconnect may have missed. Returns whether the socket is live.
import { useEffect, useRef } from "react";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useCoalesced } from "@/components/ui/use-coalesced";

const REFETCH_AFTER_MS = 300;

export function useWorkRefetch(refetch: () => void, roomIds: string[] | null): boolean {
  const { status, readyEpoch } = useSocket();
  const coalesced = useCoalesced(refetch, REFETCH_AFTER_MS);
  const inView = (roomId: string) => roomIds === null || roomIds.includes(roomId);
  useSocketEvent("work:changed", coalesced);
  useSocketEvent("message:new", ({ roomId }) => inView(roomId) && coalesced());
  useSocketEvent("message:batch", ({ roomId }) => inView(roomId) && coalesced());
  useSocketEvent("message:updated", ({ roomId }) => inView(roomId) && coalesced());
  useSocketEvent("question:updated", ({ question }) => inView(question.roomId) && coalesced());

  const seenEpoch = useRef(readyEpoch);
  useEffect(() => {
    if (readyEpoch > 0 && readyEpoch !== seenEpoch.current) coalesced();
    seenEpoch.current = readyEpoch;
  }, [readyEpoch, coalesced]);
  return status === "connected" && readyEpoch > 0;
}
