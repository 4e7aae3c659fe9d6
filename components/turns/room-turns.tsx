"use client";
// A room's turns, live: tRPC `turns.forRoom`, kept up to date by `turn:activity` (merged by
// turn-list.ts), fetched again after every reconnection (what happened while the socket was away).
// Given to the room's rows through a context, so a message's row finds the turn that answers it, and
// whether the viewer folded the room's activity away (kept per room in this browser).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { RoomAgentView, RoomTurns, TurnWithSteps } from "@switchboard/sdk/turns";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { applyActivity } from "./turn-list";

interface RoomTurnsValue {
  /** The turn that answers a message (the latest, when several agents answered it): each agent's, in order. */
  turnsFor: (messageId: string) => TurnWithSteps[];
  canStop: (turn: TurnWithSteps) => boolean;
  folded: boolean;
  setFolded: (folded: boolean) => void;
  meId: string;
  /** The room's agents, whether each is paused here, and whether the viewer may pause (and stop) it. */
  agents: RoomAgentView[];
  canSteer: (agent: Pick<RoomAgentView, "ownerId">) => boolean;
  setPaused: (agentId: string, paused: boolean) => void;
  pauseError: string | null;
  /** The room's setting, and whether the viewer may change it. */
  membersMayStop: boolean;
  canChangeStopping: boolean;
  setMembersMayStop: (value: boolean) => void;
}

const RoomTurnsContext = createContext<RoomTurnsValue | null>(null);

const foldKey = (roomId: string) => `switchboard:activity-folded:${roomId}`;

export function RoomTurnsProvider({ roomId, meId, children }: { roomId: string; meId: string; children: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { roomId, limit: 100 };
  const key = trpc.turns.forRoom.queryKey(input);
  const query = useQuery(trpc.turns.forRoom.queryOptions(input));
  useSocketEvent("turn:activity", ({ turn, steps }) => {
    if (turn.roomId !== roomId) return;
    queryClient.setQueryData<RoomTurns>(key, (data) => (data ? applyActivity(data, turn, steps) : data));
  });
  useSocketEvent("agent:paused", ({ roomId: where, agentId, paused }) => {
    if (where !== roomId) return;
    queryClient.setQueryData<RoomTurns>(key, (data) => (data ? { ...data, agents: data.agents.map((a) => (a.id === agentId ? { ...a, paused } : a)) } : data));
  });
  // Missed while the socket was away: fetched again on each reconnection (not the first connection).
  const { readyEpoch } = useSocket();
  const seenEpoch = useRef(readyEpoch);
  useEffect(() => {
    if (readyEpoch === seenEpoch.current) return;
    seenEpoch.current = readyEpoch;
    void queryClient.invalidateQueries({ queryKey: trpc.turns.forRoom.queryKey({ roomId, limit: 100 }), exact: true });
  }, [readyEpoch, queryClient, trpc, roomId]);

  const [folded, setFoldedState] = useState(false);
  useEffect(() => setFoldedState(window.localStorage.getItem(foldKey(roomId)) === "1"), [roomId]);
  const setFolded = useCallback(
    (value: boolean) => {
      setFoldedState(value);
      if (value) window.localStorage.setItem(foldKey(roomId), "1");
      else window.localStorage.removeItem(foldKey(roomId));
    },
    [roomId],
  );

  const setting = useMutation(
    trpc.turns.setMembersMayStop.mutationOptions({
      onSuccess: ({ membersMayStopTurns }) =>
        queryClient.setQueryData<RoomTurns>(trpc.turns.forRoom.queryKey({ roomId, limit: 100 }), (d) => (d ? { ...d, membersMayStopTurns } : d)),
    }),
  );
  const onPaused = (agentId: string) => (r: { paused: RoomAgentView["paused"] }) =>
    queryClient.setQueryData<RoomTurns>(trpc.turns.forRoom.queryKey({ roomId, limit: 100 }), (d) =>
      d ? { ...d, agents: d.agents.map((a) => (a.id === agentId ? { ...a, paused: r.paused } : a)) } : d,
    );
  const pause = useMutation(trpc.turns.pause.mutationOptions());
  const resume = useMutation(trpc.turns.resume.mutationOptions());
  const data = query.data;
  const value = useMemo<RoomTurnsValue>(() => {
    const byMessage = new Map<string, TurnWithSteps[]>();
    for (const turn of data?.turns ?? []) byMessage.set(turn.messageId, [...(byMessage.get(turn.messageId) ?? []), turn]);
    return {
      turnsFor: (messageId) => byMessage.get(messageId) ?? [],
      canStop: (turn) => turn.state === "running" && (data?.canStopAll === true || turn.agent.ownerId === meId),
      agents: data?.agents ?? [],
      canSteer: (agent) => data?.canStopAll === true || agent.ownerId === meId,
      setPaused: (agentId, paused) => (paused ? pause : resume).mutate({ roomId, agentId }, { onSuccess: onPaused(agentId) }),
      pauseError: pause.error?.message ?? resume.error?.message ?? null,
      folded,
      setFolded,
      meId,
      membersMayStop: data?.membersMayStopTurns ?? false,
      canChangeStopping: data?.canChangeStopping ?? false,
      setMembersMayStop: (value) => setting.mutate({ roomId, membersMayStopTurns: value }),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the mutations' identities change each render; what they do does not
  }, [data, folded, setFolded, meId, setting, roomId, pause.error, resume.error]);
  return <RoomTurnsContext.Provider value={value}>{children}</RoomTurnsContext.Provider>;
}

export function useRoomTurns(): RoomTurnsValue | null {
  return useContext(RoomTurnsContext);
}
