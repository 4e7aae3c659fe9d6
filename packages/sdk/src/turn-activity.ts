// A turn's activity as the room watches it (sdk/turns.ts): the Agent opens one per turn and hands it to
// the adapter as `TurnInput.activity`; the adapter reports its framework's steps as they happen (the
// plan, tool calls, notes) and the Agent adds what it knows itself (the work reported, the usage).
// Steps are sent in order, a batch every 100 ms at most; a report never fails a turn (it is logged).
import type { z } from "zod";
import { clipped, oneLine, planStep, summarizeInput, type endTurnInput, type TurnStepInput, type turnStepsInput } from "./turns.ts";

/** What a turn's activity is sent with: the client's `turn:steps` and `turn:end` (SwitchboardClient has both). */
export interface TurnReporting {
  reportTurnSteps(input: z.input<typeof turnStepsInput>): Promise<unknown>;
  endTurn(input: z.input<typeof endTurnInput>): Promise<unknown>;
}

/** What an adapter reports of its turn. Every method returns at once; nothing it does throws. */
export interface TurnActivityReporter {
  /** A step: new by its key, or an update of the step with that key. */
  step(step: TurnStepInput): void;
  /** The plan or todo list as it stands now (the whole list). */
  plan(items: { title: string; status: "pending" | "in_progress" | "completed" }[]): void;
  /** A tool call began (`input` is summarised on one line, secrets blanked by the server). */
  toolStarted(key: string, name: string, input?: unknown): void;
  /** The tool call `key` ended: its result (summarised), or that it failed. */
  toolEnded(key: string, result?: unknown, failed?: boolean): void;
  /** A line of what the agent is doing or thinking. */
  note(text: string, key?: string): void;
  /** The model's tokens (and cost) so far in this turn: the whole amounts. */
  usage(usage: { inputTokens: number; outputTokens: number; costUsd?: number }): void;
}

const FLUSH_MS = 100;
const BATCH_MAX = 50;

/** A reporter that reports nothing: for turns run without a server that shows activity. */
export const NO_ACTIVITY: TurnActivityReporter = {
  step: () => undefined,
  plan: () => undefined,
  toolStarted: () => undefined,
  toolEnded: () => undefined,
  note: () => undefined,
  usage: () => undefined,
};

export class TurnActivity implements TurnActivityReporter {
  private pending = new Map<string, TurnStepInput>();
  private totals: { inputTokens: number; outputTokens: number; costUsd?: number } | null = null;
  private usageChanged = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Sends go one after another, so steps arrive in the order they were reported. */
  private chain: Promise<void> = Promise.resolve();
  private tools = new Map<string, string>();
  private notes = 0;

  constructor(
    private readonly client: TurnReporting,
    readonly turnId: string,
    private readonly log: (line: string) => void,
  ) {}

  step(step: TurnStepInput): void {
    this.pending.set(step.key, { ...this.pending.get(step.key), ...step });
    this.schedule();
  }

  plan(items: { title: string; status: "pending" | "in_progress" | "completed" }[]): void {
    this.step(planStep(items));
  }

  toolStarted(key: string, name: string, input?: unknown): void {
    const title = oneLine(`${name} ${summarizeInput(input)}`.trim());
    this.tools.set(key, title);
    this.step({ key: `tool:${key}`, kind: "tool", title, status: "running" });
  }

  toolEnded(key: string, result?: unknown, failed = false): void {
    const detail = result === undefined ? undefined : clipped(typeof result === "string" ? result : (JSON.stringify(result) ?? ""));
    this.step({
      key: `tool:${key}`,
      kind: "tool",
      title: this.tools.get(key) ?? key,
      status: failed ? "failed" : "done",
      ...(detail !== undefined ? { detail } : {}),
    });
  }

  note(text: string, key?: string): void {
    this.step({ key: key ?? `note:${++this.notes}`, kind: "note", title: oneLine(text), detail: clipped(text), status: "done" });
  }

  usage(usage: { inputTokens: number; outputTokens: number; costUsd?: number }): void {
    this.totals = usage;
    this.usageChanged = true;
    this.schedule();
  }

  /** Sends what waits now, and resolves once everything reported so far was sent. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.pending.size > 0 || this.usageChanged) {
      const steps = [...this.pending.values()].slice(0, BATCH_MAX);
      for (const s of steps) this.pending.delete(s.key);
      const usage = this.usageChanged && this.totals ? this.totals : undefined;
      this.usageChanged = false;
      this.chain = this.chain.then(() =>
        this.client
          .reportTurnSteps({ turnId: this.turnId, steps, ...(usage ? { usage } : {}) })
          .then(() => undefined)
          .catch((error: unknown) => this.log(`switchboard: could not report the turn's steps: ${error instanceof Error ? error.message : String(error)}`)),
      );
    }
    return this.chain;
  }

  /** Ends the turn once what was reported is sent. */
  async end(state: "done" | "failed" | "stopped", error?: string): Promise<void> {
    await this.flush();
    try {
      await this.client.endTurn({
        turnId: this.turnId,
        state,
        ...(error ? { error: error.slice(0, 2000) } : {}),
        ...(this.totals ? { usage: this.totals } : {}),
      });
    } catch (e) {
      this.log(`switchboard: could not end the turn: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private schedule(): void {
    if (this.pending.size >= BATCH_MAX) return void this.flush();
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }
}
