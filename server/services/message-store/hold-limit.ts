// How long a send may hold a room: never indefinitely, whatever it waits for (a rate limiter's store,
// say), since a held room stops every other send to it.
import { AppError } from "../../errors";
import type { BatchWrite, FactsReader, HeldRoom } from "./types";

/** A held room is never held longer than this: the transaction rolls back and its sends are refused as retryable. */
const HOLD_LIMIT_MS = 20_000;

/**
 * Runs `fn` (the work done while a room is held) for at most HOLD_LIMIT_MS. `ended` is called once it
 * settles or times out, so the held room refuses any write `fn` still attempts afterwards.
 */
export async function withinHoldLimit<T>(fn: () => Promise<T>, ended: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError("UNAVAILABLE", "The database took too long; retry")), HOLD_LIMIT_MS);
  });
  try {
    return await Promise.race([fn(), expired]);
  } finally {
    clearTimeout(timer);
    ended();
  }
}

/**
 * Runs `fn` on a room held in the caller's transaction, for at most HOLD_LIMIT_MS: its reads are
 * `reader`'s, its writes `store`'s (false: the room moved, which nothing should do while it is held).
 */
export function whileHeld<T>(
  reader: FactsReader,
  activeAgents: string[],
  store: (write: BatchWrite) => Promise<boolean>,
  fn: (held: HeldRoom) => Promise<T>,
): Promise<T> {
  let ended = false;
  const held: HeldRoom = {
    ...reader,
    activeAgents: new Set(activeAgents),
    async store(write) {
      if (ended) throw new AppError("UNAVAILABLE", "The room is no longer held; retry");
      if (!(await store(write))) throw new AppError("UNAVAILABLE", "The room changed while a send held it; retry");
    },
  };
  return withinHoldLimit(
    () => fn(held),
    () => (ended = true),
  );
}
