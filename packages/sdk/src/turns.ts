// A turn, watched live where it was asked: while an agent answers a message, its steps (the plan as it
// changes, each tool call with a one-line summary of its input and result, files touched, notes), its
// tokens and cost and how long it has run show under that message, for every person in the room; a
// person allowed to stops it. The shapes the socket events (`turn:*`), tRPC (`turns.*`) and the SDK
// share; the rules are in server/services/work/turns.ts.
//
// Activity is never a message: it does not move the room's seq, no delivery mode hands it to an agent,
// and it mentions nobody.
import { z } from "zod";

const id = z.string().min(1).max(64);

export const TURN_STATES = ["running", "done", "failed", "stopped"] as const;
export type TurnState = (typeof TURN_STATES)[number];

export const STEP_KINDS = ["plan", "tool", "file", "note"] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export const STEP_STATUSES = ["running", "done", "failed"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export const PLAN_ITEM_STATUSES = ["pending", "in_progress", "completed"] as const;

/** What the server keeps of a step: a title of this many characters at most, a detail of this many. */
export const STEP_TITLE_MAX = 200;
export const STEP_DETAIL_MAX = 1000;
/** A turn keeps this many steps (the rest are counted, not kept) and this many bytes of them. */
export const TURN_STEPS_MAX = 200;
export const TURN_BYTES_MAX = 64 * 1024;
/** A room keeps the steps of its latest turns, this many; older turns keep their summary alone. */
export const ROOM_TURNS_WITH_STEPS = 200;
/** After a Stop, a turn still running this long is said to be not stopping (its owner can then suspend the agent). */
export const STOP_GRACE_MS = 10_000;

/**
 * One step, as an agent reports it: new by its `key`, or an update of the step with that key (a tool
 * call reported `running`, then `done` or `failed` with its result). Longer text is cut to the bounds
 * above, and what looks like a secret (a key, a token, a password) is blanked by the server.
 */
export const turnStepInput = z.strictObject({
  /** The agent's own id for the step: a tool call's id, "plan", a file's path. */
  key: z.string().min(1).max(200),
  kind: z.enum(STEP_KINDS),
  /** One line: a tool call's name and what it was given, a file's path, a note. */
  title: z.string().max(10_000),
  /** A tool call's result, a note's text: a few lines at most are kept. */
  detail: z.string().max(100_000).optional(),
  status: z.enum(STEP_STATUSES).optional(),
  /** A plan's items, in order (the whole list each time). */
  items: z
    .array(z.strictObject({ title: z.string().min(1).max(500), status: z.enum(PLAN_ITEM_STATUSES) }))
    .max(100)
    .optional(),
});
export type TurnStepInput = z.input<typeof turnStepInput>;

/** A plan or todo list as its step: the whole list, titled by how much of it is done. */
export function planStep(items: { title: string; status: (typeof PLAN_ITEM_STATUSES)[number] }[]): TurnStepInput {
  const done = items.filter((i) => i.status === "completed").length;
  return { key: "plan", kind: "plan", title: `Plan: ${done} of ${items.length} done`, items: items.slice(0, 100), status: "done" };
}

/** The model's tokens and cost so far in the turn (the whole amounts, not increments). */
const turnUsage = z.strictObject({
  inputTokens: z.number().int().min(0).max(1e12),
  outputTokens: z.number().int().min(0).max(1e12),
  costUsd: z.number().min(0).max(1e6).optional(),
});

export const startTurnInput = z.strictObject({
  /** The message the turn answers (in a room the agent is in). */
  messageId: id,
  /** The framework the turn runs on (its adapter's runtime), to show beside it. */
  runtime: z
    .string()
    .max(40)
    .regex(/^[a-z0-9.-]*$/)
    .optional(),
});

export const turnStepsInput = z.strictObject({
  turnId: id,
  steps: z.array(turnStepInput).max(50).default([]),
  usage: turnUsage.optional(),
});

export const endTurnInput = z.strictObject({
  turnId: id,
  state: z.enum(["done", "failed", "stopped"]),
  error: z.string().max(2000).optional(),
  usage: turnUsage.optional(),
});

export const turnIdInput = z.strictObject({ turnId: id });

export const roomTurnsInput = z.strictObject({
  roomId: id,
  /** The latest this many turns (default 50). */
  limit: z.number().int().min(1).max(200).default(50),
});

export const roomStopSettingInput = z.strictObject({ roomId: id, membersMayStopTurns: z.boolean() });

/** An agent paused (or resumed) in a room: it is handed none of the room's messages meanwhile; they wait, in order. */
export const agentPauseInput = z.strictObject({ roomId: id, agentId: id });

/** Since when an agent is paused in a room, and by whom. */
export interface PauseView {
  at: string;
  by: { id: string; handle: string } | null;
}

/** An agent member of the room, and whether it is paused there. */
export interface RoomAgentView {
  id: string;
  handle: string;
  displayName: string;
  ownerId: string | null;
  paused: PauseView | null;
}

export interface TurnStepView {
  key: string;
  position: number;
  kind: StepKind;
  title: string;
  detail: string;
  status: StepStatus;
  items: { title: string; status: (typeof PLAN_ITEM_STATUSES)[number] }[] | null;
  at: string;
}

export interface TurnView {
  id: string;
  roomId: string;
  messageId: string;
  threadRootId: string | null;
  agent: { id: string; handle: string; displayName: string; ownerId: string | null };
  runtime: string;
  state: TurnState;
  error: string | null;
  startedAt: string;
  updatedAt: string;
  endedAt: string | null;
  /** A Stop was asked for (by `stoppedBy`), and when. */
  stopRequestedAt: string | null;
  stoppedBy: { id: string; handle: string } | null;
  tokens: { input: number; output: number };
  costUsd: number;
  stepCount: number;
  /** Steps past the turn's bound: counted, not kept. */
  droppedSteps: number;
}

/** A turn with its steps, in order. */
export interface TurnWithSteps extends TurnView {
  steps: TurnStepView[];
}

/** A room's latest turns (oldest first), and whether the viewer may stop any agent's turn there (else only their own agents'). */
export interface RoomTurns {
  turns: TurnWithSteps[];
  canStopAll: boolean;
  membersMayStopTurns: boolean;
  /** Whether the viewer may change `membersMayStopTurns` (the room's owner, an admin). */
  canChangeStopping: boolean;
  /** The room's agents, and which are paused there. */
  agents: RoomAgentView[];
}

// ---- What a step may show ----

const SECRETS: [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, "[private key]"],
  [/\b(?:sb|sbp|sbo)_[A-Za-z0-9_-]{12,}/g, "[secret]"],
  [/\bsk-[A-Za-z0-9_-]{12,}/g, "[secret]"],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, "[secret]"],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, "[secret]"],
  [/\bAKIA[0-9A-Z]{16}\b/g, "[secret]"],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]{12,}=*/gi, "$1 [secret]"],
  [/\b([A-Za-z_]*(?:password|passwd|secret|token|api[_-]?key|apikey)[A-Za-z_]*)(["']?\s*[:=]\s*["']?)[^\s"',;&]{4,}/gi, "$1$2[secret]"],
];

/** The text with what looks like a secret (a key, a token, a password, a private key) blanked. */
export function redactSecrets(text: string): string {
  return SECRETS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** At most `max` characters, on one line (whitespace runs as one space), with an ellipsis when cut. */
export function oneLine(text: string, max = STEP_TITLE_MAX): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** At most `max` characters and a few lines, with a note of how much was left out. */
export function clipped(text: string, max = STEP_DETAIL_MAX, lines = 12): string {
  const all = text.replace(/\r\n/g, "\n").trimEnd();
  let out = all.split("\n").slice(0, lines).join("\n");
  if (out.length > max) out = out.slice(0, max);
  return out.length < all.length ? `${out.trimEnd()}\n… (${all.length - out.length} more characters)` : out;
}

/** A tool call's input as one line: its JSON, or for an object its most telling field (a command, a path, a query) first. */
export function summarizeInput(input: unknown, max = STEP_TITLE_MAX): string {
  if (input === null || input === undefined) return "";
  if (typeof input === "string") return oneLine(input, max);
  if (typeof input !== "object") return oneLine(String(input), max);
  const record = input as Record<string, unknown>;
  const telling = ["command", "cmd", "file_path", "path", "pattern", "query", "url", "description", "prompt", "body", "text"].find(
    (k) => typeof record[k] === "string",
  );
  return oneLine(telling ? String(record[telling]) : JSON.stringify(input), max);
}
