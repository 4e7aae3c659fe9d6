"use client";
// Live events come in bursts (an agent reporting a call per second, a budget crossing 80% and 100%):
// refetching on each would fire a request per event, so a burst is coalesced into one refetch.
import { useCallback, useEffect, useRef } from "react";

/** A trigger that runs `run` once, `ms` after the first call of a burst; later calls join that run. */
export function useCoalesced(run: () => void, ms: number): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(run);
  useEffect(() => {
    latest.current = run;
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      latest.current();
    }, ms);
  }, [ms]);
}
