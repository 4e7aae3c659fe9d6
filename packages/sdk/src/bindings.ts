// Runtime bindings: a room (or one thread of it) bound to an agent framework's own session, so the
// agent resumes that session on the next message with only what it missed. The shapes the socket
// events (`binding:*`), tRPC (`bindings.*`) and the SDK share; the rules are in server/services/work/bindings.ts.
import { z } from "zod";

const id = z.string().min(1).max(64);

/** Where a binding's session stands. `stale`: its last turn never finished (the runner stopped mid-turn). */
export type BindingStatus = "active" | "idle" | "awaiting_input" | "stale" | "closed";

/**
 * A binding: (agent, room, thread, runtime) → the framework's session id, and how it has been used.
 * One per key in the database; a close keeps it, and the next claim starts a new session on it.
 */
export interface BindingView {
  id: string;
  agentId: string;
  agent: { id: string; handle: string; displayName: string };
  roomId: string;
  /** The thread the session follows; null: the room's top level. */
  threadRootId: string | null;
  /** The runtime kind, e.g. "claude-agent-sdk", "codex", "langgraph", "generic". */
  runtime: string;
  /** The framework's session / thread id; null until a turn made one, and again after a close. */
  externalId: string | null;
  /** An open task or interrupt id in the framework, if a turn left one. */
  openTaskId: string | null;
  /** Where the session lives: the runner's name, its host, its working directory (sessions are files there). */
  runner: string | null;
  host: string | null;
  workdir: string | null;
  /** The runtime's configuration when last used (model, permission or sandbox mode, tools). */
  config: Record<string, unknown> | null;
  status: BindingStatus;
  /** The last seq handed to the session in a finished turn: the next turn hands it only what follows. */
  lastSeq: number;
  turns: number;
  /** Turns that resumed an existing session; and resumes that failed (the session was gone). */
  resumes: number;
  resumeFailures: number;
  lastError: string | null;
  /** Counts closes: the session started after a close is the next generation (a failed resume stays in its generation). */
  generation: number;
  /** Until when a turn holds the binding (null: no turn is running). */
  leaseUntil: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  closedAt: string | null;
  closedBy: { id: string; handle: string } | null;
}

/**
 * A binding as one person sees it (tRPC `bindings.ofRoom`, `bindings.ofAgent`): its room as they see it
 * (`readable`: they may open it) and what they may do, from the server's policies. `binding:updated`
 * carries the plain BindingView (one event for every viewer): a client keeps `room` and `can` from here.
 */
export interface BindingForViewer extends BindingView {
  room: { id: string; title: string; kind: "channel" | "dm" | "group"; readable: boolean };
  can: { close: boolean };
}

/** lowercase letters, digits, dots, dashes: "claude-agent-sdk", "codex", "langgraph", "generic", "my.runtime". */
export const runtimeKind = z.string().regex(/^[a-z0-9][a-z0-9.-]{0,39}$/, "a runtime kind is lowercase letters, digits, dots and dashes (at most 40)");

/** One turn's hold on a binding, from `binding:claim` until `binding:update` with `release`. */
export const MAX_LEASE_MS = 60 * 60 * 1000;
/**
 * Short, and renewed while the turn runs (the Agent renews every third of it): a runner that dies
 * mid-turn holds the binding at most this long, then the next turn (its restart) takes it over.
 */
export const DEFAULT_LEASE_MS = 30 * 1000;

const where = {
  runner: z.string().trim().min(1).max(100).optional(),
  host: z.string().trim().min(1).max(255).optional(),
  workdir: z.string().trim().min(1).max(1000).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
};
/** The process that holds a turn: any id it keeps for its life (the SDK makes a random one). */
const holder = z.string().min(8).max(64);

/** Which binding: the room, the thread (none: the room's top level) and the runtime. */
export const bindingKeyInput = z.strictObject({ roomId: id, threadRootId: id.optional(), runtime: runtimeKind });

/**
 * Takes the binding for one turn, making it if there is none (or starting a new session on a closed
 * one), and says where it runs. CONFLICT with `retryAfterMs` while another process's turn holds it.
 */
export const claimBindingInput = z.strictObject({
  ...bindingKeyInput.shape,
  holder,
  leaseMs: z.number().int().min(1000).max(MAX_LEASE_MS).default(DEFAULT_LEASE_MS),
  ...where,
});

/**
 * What a turn records on the binding it holds (`holder`, `generation` as claimed): its session id as
 * soon as it is known, that it resumed, that resuming failed (a new session follows), and at the end
 * the last seq it handed the session, its status, and `release`.
 */
export const updateBindingInput = z
  .strictObject({
    bindingId: id,
    holder,
    generation: z.number().int().min(1),
    externalId: z.string().trim().min(1).max(255).optional(),
    resumed: z.literal(true).optional(),
    resumeFailed: z.string().trim().min(1).max(2000).optional(),
    lastSeq: z.number().int().min(0).optional(),
    status: z.enum(["active", "idle", "awaiting_input"]).optional(),
    openTaskId: z.string().trim().min(1).max(255).nullable().optional(),
    config: where.config,
    error: z.string().trim().min(1).max(2000).nullable().optional(),
    /** Renews the turn's hold for this long from now (a turn that runs long says so every so often). */
    leaseMs: z.number().int().min(1000).max(MAX_LEASE_MS).optional(),
    release: z.literal(true).optional(),
  })
  .refine((u) => !(u.resumed && u.resumeFailed), { message: "a turn either resumed or failed to", path: ["resumeFailed"] });

export const bindingIdInput = z.strictObject({ bindingId: id });

/** The agent's own bindings: in one room, or all; closed ones too with `includeClosed`. */
export const listBindingsInput = z.strictObject({
  roomId: id.optional(),
  includeClosed: z.boolean().default(false),
  limit: z.number().int().min(1).max(500).default(100),
});

/** For people (tRPC): a room's bindings, or an agent's. */
export const roomBindingsInput = z.strictObject({ roomId: id, includeClosed: z.boolean().default(false) });
export const agentBindingsInput = z.strictObject({ agentId: id, includeClosed: z.boolean().default(true) });
