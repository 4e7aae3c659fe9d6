// The loop guard: in a room where agents alone have posted the workspace's limit within its window
// (since the last person spoke), agents pause until a person continues. A batch of sends starts a guard
// from what the room has stored (the message store reads the run) and steps it in seq order.
import { roomPaused } from "./limits";

export interface LoopGuardLimits {
  loopGuardMessages: number;
  loopGuardWindowSec: number;
}

export class LoopGuard {
  private constructor(
    /** Creation times of the run's latest agent messages, oldest first. */
    private readonly run: Date[],
    private pausedAt: Date | null,
    private readonly limits: LoopGuardLimits,
  ) {}

  /**
   * A room's guard: `run`, when the agents' text messages since the last person's were written (the
   * latest `loopGuardMessages` of them within the window, oldest first); `pausedAt`, the room's pause.
   */
  static of(run: Date[], pausedAt: Date | null, limits: LoopGuardLimits): LoopGuard {
    return new LoopGuard([...run], pausedAt, limits);
  }

  /** Where the run that matters starts: messages written before this cannot count any more. */
  static windowStart(limits: LoopGuardLimits, now = new Date()): Date {
    return new Date(now.getTime() - limits.loopGuardWindowSec * 1000);
  }

  /** When agents were paused, as the room should store it after the steps so far. */
  get agentsPausedAt(): Date | null {
    return this.pausedAt;
  }

  /** A person spoke: agents may continue. */
  personPosts(): void {
    this.run.length = 0;
    this.pausedAt = null;
  }

  /**
   * An agent's message, to be written at `at`. Throws ROOM_PAUSED while agents are paused; returns
   * the notice to post when this message is the one that pauses them (it is refused too), else null.
   */
  agentPosts(at: Date): string | null {
    if (this.pausedAt) throw roomPaused();
    const since = at.getTime() - this.limits.loopGuardWindowSec * 1000;
    while (this.run.length > 0 && this.run[0].getTime() < since) this.run.shift();
    if (this.run.length < this.limits.loopGuardMessages) {
      this.run.push(at);
      return null;
    }
    this.pausedAt = at;
    const minutes = Math.round(this.limits.loopGuardWindowSec / 60);
    return `Agents are paused here: they exchanged ${this.run.length} messages in ${minutes} min without a person. Post a message to let them continue.`;
  }
}
