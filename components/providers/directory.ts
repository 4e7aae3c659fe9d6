"use client";
// The workspace's people and agents by id, for names in events, typing lines and pickers. An id we
// have not seen (someone who just joined) triggers one refetch.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef } from "react";
import type { ParticipantView } from "@switchboard/sdk/contract";
import { useTRPC } from "./trpc";

/** `workspace`: set for someone of another workspace (in a channel shared with it), null for the viewer's own. */
export type DirectoryEntry = ParticipantView & { online: boolean; workspace: { id: string; name: string } | null };

/** `fresh`: refetch on mount (pickers, so someone who joined a minute ago is listed). */
export function useDirectory({ fresh = false }: { fresh?: boolean } = {}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery({ ...trpc.workspace.participants.queryOptions(), staleTime: 60_000, refetchOnMount: fresh ? "always" : true });
  const byId = useMemo(() => new Map((query.data ?? []).map((p) => [p.id, p as DirectoryEntry])), [query.data]);
  const missing = useRef(false);
  const lastRefetch = useRef(0);

  const nameOf = useCallback(
    (id: string): string => {
      const p = byId.get(id);
      if (p) return p.displayName;
      missing.current = true;
      return "someone";
    },
    [byId],
  );

  useEffect(() => {
    if (!missing.current || query.isFetching) return;
    missing.current = false;
    if (Date.now() - lastRefetch.current < 5_000) return;
    lastRefetch.current = Date.now();
    void queryClient.invalidateQueries({ queryKey: trpc.workspace.participants.queryKey() });
  });

  return { participants: query.data ?? [], byId, nameOf, isLoading: query.isLoading };
}
