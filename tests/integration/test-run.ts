// Which integration run this process belongs to. Other vitest runs (the unit tests, side by side in
// `npm test`) and the benchmarks share the checkout's `.test-server/` folder; what one integration run
// records there (its servers' CPU, its shared servers) is kept under its own id, which its global setup
// sets before any worker starts (workers inherit it).
import { randomUUID } from "node:crypto";
import path from "node:path";

const DIR = path.resolve(import.meta.dirname, "../../.test-server");

/** Marks this process (the run's main process, in its global setup) as an integration run. */
export function beginRun(): void {
  process.env.SWITCHBOARD_TEST_RUN = randomUUID().slice(0, 8);
}

/** A file of this integration run's, or null outside one. */
export function runFile(name: string): string | null {
  const run = process.env.SWITCHBOARD_TEST_RUN;
  return run ? path.join(DIR, `run-${run}`, name) : null;
}
