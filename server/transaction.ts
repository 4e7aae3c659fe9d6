// Writes, and what announces them. `transaction` runs its work in one database transaction and, once
// it committed, returns the result with the proof (`Committed`) that publishing asks for: nothing is
// announced that was not stored, nor before it was, and an event published from inside the work does
// not compile, since no proof exists there yet.
import { getDb, type Tx } from "./db";
import { mintCommitted, type Committed } from "./realtime/committed";

export type { Committed };

/** Room writes wait for the room row under contention rather than failing fast. */
export const TX_OPTIONS = { maxWait: 15_000, timeout: 20_000 } as const;

/** Runs `work` in one transaction; once it committed, returns what it returned, and the proof. */
export async function transaction<T>(work: (tx: Tx) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<[T, Committed]> {
  const result = await getDb().$transaction(work, options);
  return [result, mintCommitted()];
}
