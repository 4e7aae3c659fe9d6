// Plain JSON endpoints for clients that speak neither tRPC nor Socket.IO (agent onboarding, runtimes'
// hooks). Same rules as everywhere: validate with zod, call one service, answer { ok, data } or
// { ok, error } with the error code's HTTP status.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { authenticateAuthorization } from "../auth/bearer";
import { AppError, ERROR_CODES, toErrorShape } from "../errors";
import type { Actor } from "../policies";
import { stampedAddress } from "./client-address";
import { LeanJsonError, LeanJsonParser } from "./lean-json";

const MAX_BODY = 64 * 1024;

interface EndpointOptions {
  /** The largest body read, in bytes (default 64 KiB); past it, INVALID_PAYLOAD. */
  maxBody?: number;
  /**
   * Strings longer than this many characters are not kept: the schema sees an `ElidedText` (their
   * length, lines and first characters) instead (http/lean-json.ts). For large bodies whose long
   * strings the handler only counts.
   */
  keepStrings?: number;
}

/** `run` gets the client's address too (for per-address limits). */
export function jsonEndpoint<S extends z.ZodType, R>(schema: S, run: (input: z.output<S>, address: string | null) => Promise<R>, opts: EndpointOptions = {}) {
  return endpoint(async (req) => run(await parsedBody(req, schema, opts), stampedAddress(req)));
}

/**
 * An endpoint for a bearer credential (`Authorization: Bearer`: an agent's key or a person's token,
 * auth/bearer.ts): checked before the body is read, so a wrong key is UNAUTHENTICATED whatever it sent.
 */
export function authenticatedJsonEndpoint<S extends z.ZodType, R>(
  schema: S,
  run: (actor: Actor, input: z.output<S>) => Promise<R>,
  opts: EndpointOptions & {
    /** Fields the answer carries beside `ok` and `data`, from the result (a caller that reads the top level: Claude Code's hooks). */
    beside?: (result: R) => Record<string, unknown>;
  } = {},
) {
  return endpoint(async (req) => {
    const { actor } = await authenticateAuthorization(req.headers.authorization, stampedAddress(req));
    return run(actor, await parsedBody(req, schema, opts));
  }, opts.beside);
}

function endpoint<R>(handle: (req: IncomingMessage) => Promise<R>, beside: (result: R) => Record<string, unknown> = () => ({})) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const reply = (status: number, body: unknown) => {
      res.statusCode = status;
      res.setHeader("Content-Type", "application/json");
      res.setHeader("Cache-Control", "no-store");
      // Refused before its whole body arrived (too large, not authenticated): kept alive, the
      // connection would hold the client (and the server's close) until the keep-alive timeout, the
      // rest of the body unread. Closed once the answer is out instead.
      if (!req.complete) res.setHeader("Connection", "close");
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method !== "POST") throw new AppError("NOT_FOUND", "Use POST");
      const data = await handle(req);
      reply(200, { ...beside(data), ok: true, data });
    } catch (error) {
      const shape = toErrorShape(error);
      if (shape.retryAfterMs !== undefined) res.setHeader("Retry-After", String(Math.ceil(shape.retryAfterMs / 1000)));
      reply(ERROR_CODES[shape.code].status, { ok: false, error: shape });
    }
  };
}

async function parsedBody<S extends z.ZodType>(req: IncomingMessage, schema: S, opts: EndpointOptions): Promise<z.output<S>> {
  const maxBody = opts.maxBody ?? MAX_BODY;
  const body = opts.keepStrings === undefined ? await readJson(req, maxBody) : await readLeanJson(req, maxBody, opts.keepStrings);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new AppError("INVALID_PAYLOAD", first ? `${first.path.join(".") || "body"}: ${first.message}` : "Invalid body");
  }
  return parsed.data;
}

async function readJson(req: IncomingMessage, maxBody: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of bounded(req, maxBody)) chunks.push(chunk);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new AppError("INVALID_PAYLOAD", "Body is not JSON");
  }
}

/** Parsed as it arrives: only the chunk in hand and the strings kept are in memory. */
async function readLeanJson(req: IncomingMessage, maxBody: number, keepStrings: number): Promise<unknown> {
  const parser = new LeanJsonParser(keepStrings);
  try {
    for await (const chunk of bounded(req, maxBody)) parser.write(chunk);
    return parser.end();
  } catch (error) {
    if (error instanceof LeanJsonError) throw new AppError("INVALID_PAYLOAD", `Body is not JSON (${error.message})`);
    throw error;
  }
}

async function* bounded(req: IncomingMessage, maxBody: number): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBody) throw new AppError("INVALID_PAYLOAD", `Body too large (at most ${maxBody} bytes)`);
    yield chunk as Buffer;
  }
}
