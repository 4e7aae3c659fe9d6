/**
 * Runs `sweep` every `everyMs` until stopped, one run at a time (a run still going when the next is
 * due skips that turn). Sweeps that any process may run take their decisions by conditional updates.
 */
export function sweepEvery(everyMs: number, what: string, sweep: () => Promise<unknown>): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep()
      .catch((error: unknown) => console.error(`${what} failed`, error))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
