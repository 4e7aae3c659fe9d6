import type { ErrorShape as WireError } from "@switchboard/sdk/contract";

// Errors with stable codes. Every failure a client can see is an AppError; anything else is INTERNAL
// and its details stay in the server log.
export const ERROR_CODES = {
  INVALID_PAYLOAD: { retryable: false, status: 400 },
  UNAUTHENTICATED: { retryable: false, status: 401 },
  FORBIDDEN: { retryable: false, status: 403 },
  NOT_A_MEMBER: { retryable: false, status: 403 },
  NOT_CONNECTED: { retryable: false, status: 403 },
  AGENT_SUSPENDED: { retryable: false, status: 403 },
  /** A read-only credential (a person's `read` access token) asked to change something. */
  INSUFFICIENT_SCOPE: { retryable: false, status: 403 },
  ROOM_PAUSED: { retryable: true, status: 409 },
  /** The room is archived: read-only until its owner or an admin unarchives it. */
  ROOM_ARCHIVED: { retryable: false, status: 409 },
  NOT_FOUND: { retryable: false, status: 404 },
  ROOM_NOT_FOUND: { retryable: false, status: 404 },
  MESSAGE_NOT_FOUND: { retryable: false, status: 404 },
  PARTICIPANT_NOT_FOUND: { retryable: false, status: 404 },
  MESSAGE_EMPTY: { retryable: false, status: 400 },
  MESSAGE_TOO_LARGE: { retryable: false, status: 413 },
  /** A file past MAX_UPLOAD_BYTES (or, over the socket, SOCKET_UPLOAD_MAX_BYTES): refused before it is read whole. */
  FILE_TOO_LARGE: { retryable: false, status: 413 },
  /** No such file, or none the caller may read (a file's existence is not revealed). */
  FILE_NOT_FOUND: { retryable: false, status: 404 },
  /** The file was deleted with its message: its bytes are gone. */
  FILE_GONE: { retryable: false, status: 410 },
  CONFLICT: { retryable: false, status: 409 },
  /** A message already has the most distinct reactions it may have (sdk/reactions.ts). */
  LIMIT_REACHED: { retryable: false, status: 409 },
  /** A question past its deadline: its expiry decision stands. */
  EXPIRED: { retryable: false, status: 409 },
  /** The action waits for the agent's owner to approve it (`questionId`): try it again once approved. */
  APPROVAL_REQUIRED: { retryable: false, status: 403 },
  /** The agent's owner declined (or let expire) the approval this action needed. */
  APPROVAL_DECLINED: { retryable: false, status: 403 },
  /** Another process's turn holds this runtime binding: retry after `retryAfterMs`. */
  BINDING_BUSY: { retryable: true, status: 409 },
  NAME_TAKEN: { retryable: false, status: 409 },
  /** A remote A2A agent's card could not be fetched, or is not a usable agent card. */
  A2A_CARD_INVALID: { retryable: false, status: 400 },
  /** An A2A messageId already opened a task with other content: a new request needs a new messageId. */
  A2A_MESSAGE_ID_REUSED: { retryable: false, status: 409 },
  EMAIL_TAKEN: { retryable: false, status: 409 },
  INVITE_REQUIRED: { retryable: false, status: 403 },
  INVITE_INVALID: { retryable: false, status: 404 },
  /** The account is already a member of the workspace it asked to join (by an invite link). */
  ALREADY_MEMBER: { retryable: false, status: 409 },
  /** A workspace connection's invite code that is unknown, expired, revoked or already accepted. */
  CONNECTION_INVALID: { retryable: false, status: 404 },
  UNKNOWN_EVENT: { retryable: false, status: 400 },
  PROTOCOL_UNSUPPORTED: { retryable: false, status: 400 },
  RATE_LIMITED: { retryable: true, status: 429 },
  UNAVAILABLE: { retryable: true, status: 503 },
  INTERNAL: { retryable: true, status: 500 },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorShape extends WireError {
  code: ErrorCode;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryAfterMs?: number;
  readonly questionId?: string;

  constructor(code: ErrorCode, message: string, opts: { retryAfterMs?: number; questionId?: string } = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.retryAfterMs = opts.retryAfterMs;
    this.questionId = opts.questionId;
  }

  toShape(): ErrorShape {
    const shape: ErrorShape = { code: this.code, message: this.message, retryable: ERROR_CODES[this.code].retryable };
    if (this.retryAfterMs !== undefined) shape.retryAfterMs = this.retryAfterMs;
    if (this.questionId !== undefined) shape.questionId = this.questionId;
    return shape;
  }
}

/** The client-safe shape of any thrown value. Unknown errors are logged here and reported as INTERNAL. */
export function toErrorShape(error: unknown, log: (e: unknown) => void = console.error): ErrorShape {
  if (error instanceof AppError) return error.toShape();
  log(error);
  return { code: "INTERNAL", message: "Internal error", retryable: true };
}

/**
 * A unique constraint refused the write: Prisma's P2002, or (the message store's SQL) the driver
 * adapter's own error on SQLite, or pg's on PostgreSQL (SQLSTATE 23505).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as { code?: unknown; name?: unknown; cause?: { kind?: unknown } };
  if (e.code === "P2002" || e.code === "23505") return true;
  return e.name === "DriverAdapterError" && e.cause?.kind === "UniqueConstraintViolation";
}
