// The measurements themselves, independent of which server answers: a fan-out target is a sender that
// can send one message (resolving on its ack) and receivers that get it (`message:new`, or within a
// `message:batch`).
import type { Socket } from "socket.io-client";
import { percentile, round } from "./stats";

export interface NewEvent {
  roomId: string;
  seq: number;
  message: { clientMsgId: string; seq: number };
}

export interface FanoutTarget {
  receivers: Socket[];
  /** Sends one message; resolves when the server acked it as stored (or, raw, as broadcast). */
  send(clientMsgId: string, body: string): Promise<void>;
}

interface Slot {
  sentAt: number;
  count: number;
  acked: boolean;
  finished: boolean;
}

interface Run {
  slots: Map<string, Slot>;
  onDelivered(slot: Slot, receiver: number, at: number): void;
}

/**
 * Per-receiver order checks and the dispatch of received messages to the run in progress. A receiver
 * should see a room's seqs once each, in increasing order: `reordered` counts events that arrived
 * after a higher seq (emitted out of commit order), `jumps` events that skipped past the next seq
 * (the client would call room:sync), `duplicates` seqs seen twice.
 */
export class Tracker {
  private run: Run | null = null;
  private readonly maxSeq: number[];
  /** Per receiver: every seq below `below` was seen, and which seqs at or above it were. */
  private readonly seen: SeenSeqs[];
  jumps = 0;
  reordered = 0;
  duplicates = 0;
  strays = 0;

  /** `roomId`: only this room's events count (people are in #general too). */
  constructor(
    readonly receivers: Socket[],
    readonly roomId: string,
  ) {
    this.maxSeq = receivers.map(() => 0);
    this.seen = receivers.map(() => new SeenSeqs());
    receivers.forEach((socket, r) => {
      socket.on("message:new", (p: NewEvent) => receive(p, performance.now()));
      // Switchboard's sockets take a batch committed together as one event (the `message:batch` feature).
      socket.on("message:batch", (b: { roomId: string; messages: NewEvent["message"][] }) => {
        const at = performance.now();
        for (const message of b.messages) receive({ roomId: b.roomId, seq: message.seq, message }, at);
      });
      const receive = (p: NewEvent, at: number) => {
        if (p.roomId !== this.roomId) {
          this.strays++;
          return;
        }
        const max = this.maxSeq[r];
        if (!this.seen[r].add(p.seq)) this.duplicates++;
        else {
          if (p.seq < max) this.reordered++;
          else {
            if (max > 0 && p.seq > max + 1) this.jumps++;
            this.maxSeq[r] = p.seq;
          }
        }
        const slot = this.run?.slots.get(p.message.clientMsgId);
        if (!slot) {
          this.strays++;
          return;
        }
        slot.count++;
        this.run!.onDelivered(slot, r, at);
      };
    });
  }

  /** The order counters so far (take differences around a run). */
  counts(): { jumps: number; reordered: number; duplicates: number } {
    return { jumps: this.jumps, reordered: this.reordered, duplicates: this.duplicates };
  }

  start(run: Run): void {
    this.run = run;
  }

  stop(): void {
    this.run = null;
  }
}

/**
 * The seqs one receiver has seen, in memory proportional to the gaps rather than to every seq: the
 * bench's own client process must not grow (and collect) a set per receiver as the runs go on, or
 * later workloads would pay for earlier ones in garbage-collector pauses.
 */
class SeenSeqs {
  /** Every seq from the first one seen up to below this was seen (null: none yet). */
  private below: number | null = null;
  private first = 0;
  /** Seen seqs above the contiguous run, and any below the first one seen (arriving late). */
  private readonly others = new Set<number>();

  /** Records `seq`; false if it was seen before. */
  add(seq: number): boolean {
    if (this.below === null) {
      this.first = seq;
      this.below = seq + 1;
      return true;
    }
    if ((seq >= this.first && seq < this.below) || this.others.has(seq)) return false;
    if (seq !== this.below) this.others.add(seq);
    else {
      this.below++;
      while (this.others.delete(this.below)) this.below++;
    }
    return true;
  }
}

export const body = (prefix: string, i: number): string =>
  `${prefix} message #${i}: the quick brown fox jumps over the lazy dog, then reports its token usage.`;

export interface ThroughputResult {
  messages: number;
  window: number;
  elapsedMs: number;
  msgsPerS: number;
  /** Deliveries per second (messages x receivers). */
  deliveriesPerS: number;
  sendToAllP50Ms: number;
  sendToAllP99Ms: number;
}

/**
 * Sends `n` messages keeping at most `window` in flight (sent and not yet both acked and received by
 * every receiver). Throughput = n / (first send -> last message received by all).
 */
export function throughput(
  target: FanoutTarget,
  tracker: Tracker,
  opts: { n: number; window: number; prefix: string; stallMs?: number },
): Promise<ThroughputResult> {
  const R = target.receivers.length;
  const { n, window, prefix } = opts;
  const toAll = new Float64Array(n);
  const slots = new Map<string, Slot & { i: number }>();
  let next = 0;
  let inflight = 0;
  let done = 0;
  let lastProgress = performance.now();
  const t0 = performance.now();

  return new Promise((resolve, reject) => {
    const watchdog = setInterval(() => {
      if (performance.now() - lastProgress > (opts.stallMs ?? 30_000)) {
        clearInterval(watchdog);
        tracker.stop();
        reject(new Error(`${prefix}: no progress for ${opts.stallMs ?? 30_000} ms (${done}/${n} complete)`));
      }
    }, 1000);

    const finish = (slot: Slot & { i: number }) => {
      if (slot.finished || !slot.acked || slot.count < R) return;
      slot.finished = true;
      lastProgress = performance.now();
      inflight--;
      done++;
      if (done === n) {
        const elapsedMs = performance.now() - t0;
        clearInterval(watchdog);
        tracker.stop();
        resolve({
          messages: n,
          window,
          elapsedMs: round(elapsedMs, 1),
          msgsPerS: round((n * 1000) / elapsedMs, 1),
          deliveriesPerS: round((n * R * 1000) / elapsedMs, 0),
          sendToAllP50Ms: round(percentile(toAll, 50)),
          sendToAllP99Ms: round(percentile(toAll, 99)),
        });
      } else pump();
    };

    const pump = () => {
      while (inflight < window && next < n) {
        const i = next++;
        inflight++;
        const id = `${prefix}-${i}`;
        const slot = { i, sentAt: performance.now(), count: 0, acked: false, finished: false };
        slots.set(id, slot);
        target.send(id, body(prefix, i)).then(
          () => {
            slot.acked = true;
            finish(slot);
          },
          (error: unknown) => {
            clearInterval(watchdog);
            tracker.stop();
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      }
    };

    tracker.start({
      slots,
      onDelivered(slot, _r, at) {
        const s = slot as Slot & { i: number };
        if (s.count === R) {
          toAll[s.i] = at - s.sentAt;
          finish(s);
        }
      },
    });
    pump();
  });
}

export interface LatencyResult {
  ratePerS: number;
  messages: number;
  samples: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** How long the sends took versus the schedule (lag > 0 means the sender could not keep up). */
  sendWindowMs: number;
  drainMs: number;
}

/**
 * Open-loop paced sends at `rate`/s for `n` messages; latency is measured from each message's
 * scheduled send time to its `message:new` at each receiver (every receiver, every message).
 */
export function pacedLatency(
  target: FanoutTarget,
  tracker: Tracker,
  opts: {
    rate: number;
    n: number;
    prefix: string;
    stallMs?: number;
    /** Every sample's latency, and when its message was scheduled (ms after the first), in arrival order. */
    keep?: (samples: Float64Array, scheduledAt: Float64Array) => void;
  },
): Promise<LatencyResult> {
  const R = target.receivers.length;
  const { rate, n, prefix } = opts;
  const samples = new Float64Array(n * R);
  const scheduledAt = new Float64Array(n * R);
  let filled = 0;
  const slots = new Map<string, Slot & { i: number }>();
  let next = 0;
  let complete = 0;
  let lastProgress = performance.now();
  let sendsEndedAt = 0;
  const t0 = performance.now();
  const interval = 1000 / rate;

  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      clearInterval(watchdog);
      tracker.stop();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const watchdog = setInterval(() => {
      if (performance.now() - lastProgress > (opts.stallMs ?? 30_000)) fail(new Error(`${prefix}: no progress (${complete}/${n})`));
    }, 1000);

    const tick = () => {
      const now = performance.now();
      while (next < n && t0 + next * interval <= now) {
        const i = next++;
        const id = `${prefix}-${i}`;
        const slot = { i, sentAt: t0 + i * interval, count: 0, acked: false, finished: false };
        slots.set(id, slot);
        target.send(id, body(prefix, i)).catch(fail);
      }
      if (next < n) setTimeout(tick, Math.max(0, t0 + next * interval - performance.now()));
      else sendsEndedAt = performance.now();
    };

    tracker.start({
      slots,
      onDelivered(slot, _r, at) {
        scheduledAt[filled] = slot.sentAt - t0;
        samples[filled++] = at - slot.sentAt;
        lastProgress = at;
        if (slot.count === R && ++complete === n) {
          clearInterval(watchdog);
          tracker.stop();
          const s = samples.subarray(0, filled);
          opts.keep?.(s, scheduledAt.subarray(0, filled));
          resolve({
            ratePerS: round(rate, 1),
            messages: n,
            samples: filled,
            p50Ms: round(percentile(s, 50)),
            p90Ms: round(percentile(s, 90)),
            p99Ms: round(percentile(s, 99)),
            maxMs: round(percentile(s, 100)),
            sendWindowMs: round(sendsEndedAt - t0, 1),
            drainMs: round(at - sendsEndedAt, 1),
          });
        }
      },
    });
    tick();
  });
}

export interface PooledLatency {
  /** Over every sample of every round. */
  p50Ms: number;
  p99Ms: number;
  samples: number;
  rounds: LatencyResult[];
}

/** Latency over several rounds' samples together, and each round's own figures. */
export function pooled(rounds: { result: LatencyResult; samples: Float64Array }[]): PooledLatency {
  const all = new Float64Array(rounds.reduce((n, r) => n + r.samples.length, 0));
  let at = 0;
  for (const r of rounds) {
    all.set(r.samples, at);
    at += r.samples.length;
  }
  return { p50Ms: round(percentile(all, 50)), p99Ms: round(percentile(all, 99)), samples: all.length, rounds: rounds.map((r) => r.result) };
}
