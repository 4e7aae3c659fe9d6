// What a runtime adapter is: the piece between Switchboard's Agent (sdk/agent.ts: connect, dispatch each
// room's messages in order, bindings loaded and saved around each turn, receipts, usage, signals) and
// one agent framework's own session (a Claude Agent SDK session, a Codex thread, a LangGraph thread).
// An adapter runs one turn: it resumes the binding's external session, or starts one, hands it the
// messages it has not seen, and says what came of it. It never talks to Switchboard itself except
// through the platform tools it is given.
import type { z } from "zod";
import type { BindingStatus, BindingView } from "./bindings.ts";
import type { MembershipView, MessageView, ParticipantView, UsageReport } from "./contract.ts";
import type { TurnActivityReporter } from "./turn-activity.ts";
import type { FileOperation, TaskStatus } from "./work.ts";

export type { TurnActivityReporter } from "./turn-activity.ts";

export type { BindingStatus, BindingView } from "./bindings.ts";

/**
 * A platform tool handed to the model (send a message, look up peers, invite, open a DM, ask to
 * connect, set a status, ask a person...): the same names, descriptions and argument schemas as the
 * MCP server's tools, run by the same server code over the agent's socket.
 */
export interface PlatformTool {
  name: string;
  description: string;
  input: z.ZodObject;
  /** Reads only. */
  readOnly: boolean;
  /** Runs the tool as the agent; resolves with its compact JSON result, or rejects with a SwitchboardError. */
  call(args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** One turn, as the Agent hands it to the adapter. */
export interface TurnInput {
  /** The binding as stored before this turn: `externalId` null means start a new session. */
  binding: BindingView;
  /**
   * What this turn hands to the session, oldest first: the room's (or thread's) messages after
   * `binding.lastSeq`, ending with the message that started the turn.
   */
  messages: MessageView[];
  /** Only when the session starts fresh (new, closed, or its resume failed): recent messages before `messages`, as context. */
  history: MessageView[];
  /** `messages` (and `history`) as one prompt in plain text; adapters may use it as it is. */
  prompt: string;
  /** The agent itself. */
  me: ParticipantView;
  /** The room, as the agent is a member of it. */
  room: MembershipView;
  tools: PlatformTool[];
  /**
   * Aborted when a person stops the turn from its room (its reason a `TurnStopped`), or when the agent
   * is stopping hard (a second SIGINT, or `stop({ abandonTurns: true })`: the turn is left for the next
   * run). Stop the framework's run on it, and throw (or return what there is).
   */
  signal: AbortSignal;
  /**
   * The turn as the room watches it, live under the message it answers: report the framework's steps
   * (its plan, each tool call, notes) and its tokens so far as they happen. The Agent adds the work
   * and usage it reports itself.
   */
  activity: TurnActivityReporter;
  /**
   * A person's messages in the turn's conversation (the thread of the message it answers) while it
   * runs. An adapter whose framework takes input mid-turn calls `listen` once; its callback returns
   * true for each message it handed the framework (the room's block says "redirected"; the message is
   * then no turn of its own). Untaken, each is answered by the next turn, as usual, and the block says so.
   */
  steering: { listen(take: (message: MessageView) => boolean): void };
  /**
   * The answer so far, as it streams (the whole text, not a delta): the room shows it as one message,
   * edited as it grows, which the turn's reply then finishes. Unused: the reply is posted at the end.
   */
  stream?(text: string): void;
  /** Call as soon as the framework's session id is known, before the turn ends: a crash mid-turn then resumes it. */
  onSession(externalId: string): Promise<void>;
  /**
   * What the session works on, for the workspace's Work page: its task list (the whole list, as the
   * framework's todo tool keeps it) and the files it touched, tied to this binding. Never throws: a
   * report that fails is logged, and the turn goes on.
   */
  work: TurnWork;
}

export interface TurnWork {
  tasks(tasks: { key?: string; title: string; status?: TaskStatus; parentKey?: string }[]): Promise<void>;
  files(files: { path: string; operation: FileOperation; linesAdded?: number; linesRemoved?: number }[]): Promise<void>;
}

/** What a turn came to. */
export interface TurnResult {
  /** The framework's session id after the turn (the same one, when it resumed). */
  externalId: string;
  /** Text to post in the room (in the thread the turn is for); null or empty: nothing. */
  reply?: string | null;
  /** The model calls the turn made; each is reported with an id derived from the message. */
  usage?: Omit<UsageReport, "reportId">[];
  /** How the session stands after the turn (default "idle"). */
  status?: Exclude<BindingStatus, "closed" | "stale">;
  openTaskId?: string | null;
  /** The configuration the turn ran with, to show on the binding. */
  config?: Record<string, unknown>;
}

/**
 * Thrown by an adapter when the binding's session cannot be resumed (its file is gone, the thread
 * is unknown): the Agent records the failure on the binding, and runs the turn again in a new session
 * with the room's recent history as context.
 */
export class ResumeFailed extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ResumeFailed";
  }
}

/** A person stopped the turn from its room: the signal's reason, and what the Agent fails the message with ("stopped by @dana"). */
export class TurnStopped extends Error {
  constructor(readonly by: { id: string; handle: string }) {
    super(`stopped by @${by.handle}`);
    this.name = "TurnStopped";
  }
}

/** An agent framework, behind one interface. */
export interface RuntimeAdapter {
  /** The runtime kind stored on bindings: lowercase letters, digits, dots and dashes. */
  readonly runtime: string;
  /** Where sessions live and how the runtime is configured, stored on each binding it uses. */
  where?(): { runner?: string; host?: string; workdir?: string; config?: Record<string, unknown> };
  turn(input: TurnInput): Promise<TurnResult>;
  /** Called once when the Agent stops. */
  close?(): Promise<void>;
}
