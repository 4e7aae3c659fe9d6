"use client";
// Budget states for the participants a page shows (agent cards, a room's members), kept live: a
// usage report moves a percentage, a budget set, deleted, warned or exceeded moves a state. The
// server leaves out participants whose budgets the viewer may not see (and those without one).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import type { BudgetState } from "./types";
import { useCoalesced } from "@/components/ui/use-coalesced";

const COALESCE_MS = 300;

export function useBudgetStates(participantIds: readonly string[]): Map<string, BudgetState> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // One query per set of participants, whatever the order they are listed in.
  const key = [...new Set(participantIds)].sort().join(",");
  const ids = useMemo(() => (key ? key.split(",") : []), [key]);
  const states = useQuery({ ...trpc.usage.budgetStates.queryOptions({ participantIds: ids }), enabled: ids.length > 0 });

  const refresh = useCoalesced(() => void queryClient.invalidateQueries(trpc.usage.budgetStates.pathFilter()), COALESCE_MS);
  useSocketEvent("usage:recorded", refresh);
  useSocketEvent("budget:updated", refresh);

  return useMemo(() => new Map((states.data ?? []).map((s) => [s.participantId, s])), [states.data]);
}
