// How long a send may hold a room: never indefinitely, whatever it waits for (a rate limiter's store,
// say), since a held room stops every other send to it.
import { AppError } from "../../errors";

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
