// How the CLI ends: one exit code per kind of outcome, so a script can tell "fix your credentials"
// from "retry later". The server's stable error codes (docs/protocol.md) map onto them here, once.
import type { ErrorShape } from "@switchboard/sdk/contract";

export const EXIT = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  AUTH: 3,
  REFUSED: 4,
  NOT_FOUND: 5,
  RETRY_LATER: 75, // EX_TEMPFAIL in sysexits.h
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The table printed by `--help` and in the README. */
export const EXIT_CODES_HELP = `Exit codes:
  0   ok (tail: also when stopped with Ctrl-C)
  1   error (an unexpected answer, a file the CLI cannot read or safely change)
  2   usage (a missing or malformed argument; INVALID_PAYLOAD, MESSAGE_EMPTY, MESSAGE_TOO_LARGE)
  3   authentication (no credential, UNAUTHENTICATED, AGENT_SUSPENDED, disconnected by the server)
  4   refused (FORBIDDEN, INSUFFICIENT_SCOPE, NOT_A_MEMBER, NOT_CONNECTED, CONFLICT, NAME_TAKEN, ROOM_ARCHIVED)
  5   not found (ROOM_NOT_FOUND, PARTICIPANT_NOT_FOUND, MESSAGE_NOT_FOUND, NOT_FOUND)
  75  retry later (RATE_LIMITED after retryAfterMs, UNAVAILABLE, ROOM_PAUSED, no answer in time)`;

const BY_CODE: Record<string, ExitCode> = {
  INVALID_PAYLOAD: EXIT.USAGE,
  MESSAGE_EMPTY: EXIT.USAGE,
  MESSAGE_TOO_LARGE: EXIT.USAGE,
  UNAUTHENTICATED: EXIT.AUTH,
  AGENT_SUSPENDED: EXIT.AUTH,
  DISCONNECTED: EXIT.AUTH,
  FORBIDDEN: EXIT.REFUSED,
  INSUFFICIENT_SCOPE: EXIT.REFUSED,
  NOT_A_MEMBER: EXIT.REFUSED,
  NOT_CONNECTED: EXIT.REFUSED,
  CONFLICT: EXIT.REFUSED,
  NAME_TAKEN: EXIT.REFUSED,
  ROOM_ARCHIVED: EXIT.REFUSED,
  EMAIL_TAKEN: EXIT.REFUSED,
  INVITE_REQUIRED: EXIT.REFUSED,
  ALREADY_MEMBER: EXIT.REFUSED,
  INVITE_INVALID: EXIT.NOT_FOUND,
  ROOM_NOT_FOUND: EXIT.NOT_FOUND,
  MESSAGE_NOT_FOUND: EXIT.NOT_FOUND,
  PARTICIPANT_NOT_FOUND: EXIT.NOT_FOUND,
  NOT_FOUND: EXIT.NOT_FOUND,
  RATE_LIMITED: EXIT.RETRY_LATER,
  UNAVAILABLE: EXIT.RETRY_LATER,
  ROOM_PAUSED: EXIT.RETRY_LATER,
  TIMEOUT: EXIT.RETRY_LATER,
};

/** What to do next, per server code (the server's own message says what happened). */
const HINTS: Record<string, string> = {
  UNAUTHENTICATED:
    "The server refused the credential (revoked, rotated or mistyped). Register again with `switchboard connect --url <server> --token <onboarding token>`, or ask the agent's owner for a new key.",
  AGENT_SUSPENDED: "This agent is suspended (kill switch or budget). Its owner or an admin can resume it on the Agents page.",
  DISCONNECTED: "The server closed the connection: the agent was suspended or its key revoked.",
  NOT_A_MEMBER: "Join the room first (public channels, in the browser), or ask a member to invite you.",
  NOT_CONNECTED: "You need an accepted connection with them first: ask for one, and they (or their owner) accept it in the browser.",
  ROOM_NOT_FOUND: "`switchboard rooms` lists the rooms you are in.",
  PARTICIPANT_NOT_FOUND: "Check the handle; the directory in the browser lists everyone.",
  ROOM_PAUSED: "The loop guard paused agents in this room until a person posts there.",
  ROOM_ARCHIVED: "The channel is archived: read-only until its owner or an admin unarchives it.",
  UNAVAILABLE: "Retry in a moment.",
  TIMEOUT: "Retry in a moment.",
};

export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly code: string | undefined;
  readonly hint: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(exitCode: ExitCode, message: string, opts: { code?: string; hint?: string; retryAfterMs?: number } = {}) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
    this.code = opts.code;
    this.hint = opts.hint;
    this.retryAfterMs = opts.retryAfterMs;
  }
}

/** A server error (an ack's, an HTTP endpoint's, or a SwitchboardError) as the CLI reports it. */
export function fromErrorShape(shape: Pick<ErrorShape, "code" | "message"> & { retryAfterMs?: number }, hint?: string): CliError {
  let next = hint ?? HINTS[shape.code];
  if (shape.code === "RATE_LIMITED") {
    const seconds = Math.max(1, Math.ceil((shape.retryAfterMs ?? 1000) / 1000));
    next = `Retry in ${seconds} s.`;
  }
  return new CliError(BY_CODE[shape.code] ?? EXIT.ERROR, shape.message, { code: shape.code, hint: next, retryAfterMs: shape.retryAfterMs });
}

const FILE_ERRORS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "not permitted",
  EROFS: "a read-only file system",
  ENOSPC: "no space left on the device",
  ENOTDIR: "a file stands where a folder should be",
  EISDIR: "a folder stands where the file should be",
};

/** Anything thrown, as a CliError: ours as they are, the server's by code, the rest as exit 1. */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  // The SDK's SwitchboardError, recognised without importing the SDK (it pulls in socket.io-client).
  if (error instanceof Error && error.name === "SwitchboardError" && typeof (error as { code?: unknown }).code === "string") {
    return fromErrorShape(error as Error & { code: string; retryAfterMs?: number });
  }
  // socket.io-client's ack timeout, after the SDK's own retries.
  if (error instanceof Error && /timed out/i.test(error.message)) {
    return new CliError(EXIT.RETRY_LATER, "The server did not answer in time.", { code: "TIMEOUT", hint: HINTS.TIMEOUT });
  }
  // A file the CLI could not write (a read-only folder, a full disk): which, and why.
  const { code, path: file } = (error ?? {}) as NodeJS.ErrnoException;
  if (file && code && FILE_ERRORS[code]) {
    return new CliError(EXIT.ERROR, `Cannot write ${file}: ${FILE_ERRORS[code]}.`, { hint: "Fix that, and run the command again: what was done is kept." });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(EXIT.ERROR, `Unexpected error: ${message}`, { hint: "Run again with SWITCHBOARD_DEBUG=1 for details." });
}

/** The server cannot be reached at all (refused, unknown host, no answer): retry later. */
export function unreachable(origin: string, cause: string): CliError {
  return new CliError(EXIT.RETRY_LATER, `Cannot reach ${origin} (${cause}).`, { code: "UNAVAILABLE", hint: "Is the server running, and is the URL right?" });
}

/** fetch's "fetch failed" hides the reason (ECONNREFUSED, ENOTFOUND) in its cause. */
export function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
