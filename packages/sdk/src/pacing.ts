// How a client keeps its requests within what the server accepts, so that it is never the client the
// server closes for flooding (a socket refused too often is closed: docs/protocol.md, "Limits"):
// at most `maxInFlight` requests await their answer at once, and after a RATE_LIMITED answer to an
// event, no request of that event is sent until its `retryAfterMs` has passed, and then one at a
// time until one is accepted.

interface Hold {
  until: number;
  /** A probe is out: the others of this event wait for its answer. */
  probing: boolean;
}

export type PaceOutcome = { ok: true } | { ok: false; rateLimited: boolean; retryAfterMs?: number };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class RequestPacer {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly holds = new Map<string, Hold>();
  /** Requests of a held event waiting for its probe's answer. */
  private readonly held = new Map<string, (() => void)[]>();

  constructor(
    readonly maxInFlight = 64,
    /** The wait after a RATE_LIMITED answer that names none. */
    private readonly defaultWaitMs = 1000,
  ) {}

  /** Resolves when a request of `event` may be sent; call `settle` with its answer. */
  async acquire(event: string): Promise<void> {
    for (;;) {
      const hold = this.holds.get(event);
      const wait = hold ? hold.until - Date.now() : 0;
      if (wait > 0) await sleep(wait);
      else if (hold?.probing) await new Promise<void>((resolve) => this.queueOf(event).push(resolve));
      else if (this.inFlight >= this.maxInFlight) await new Promise<void>((resolve) => this.waiting.push(resolve));
      else {
        this.inFlight++;
        if (hold) hold.probing = true; // the first one after the wait goes alone
        return;
      }
    }
  }

  /** The answer (or no answer: `{ ok: false, rateLimited: false }`) to a request `acquire` let out. */
  settle(event: string, outcome: PaceOutcome): void {
    this.inFlight--;
    this.waiting.shift()?.();
    const hold = this.holds.get(event);
    if (!outcome.ok && outcome.rateLimited) {
      this.holds.set(event, { until: Date.now() + (outcome.retryAfterMs ?? this.defaultWaitMs), probing: false });
    } else if (outcome.ok) {
      this.holds.delete(event);
    } else if (hold) {
      hold.probing = false; // the probe failed otherwise: the next one probes
    } else return;
    // Whoever waited on this event looks again: sent now, or waiting for the new hold to pass.
    for (const wake of this.held.get(event)?.splice(0) ?? []) wake();
  }

  private queueOf(event: string): (() => void)[] {
    let queue = this.held.get(event);
    if (!queue) this.held.set(event, (queue = []));
    return queue;
  }
}
