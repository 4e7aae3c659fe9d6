// Plain JSON endpoints for clients that speak neither tRPC nor Socket.IO yet (agent onboarding).
// Same rules as everywhere: validate with zod, call one service, answer { ok, data } or { ok, error }.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { AppError, ERROR_CODES, toErrorShape } from "../errors";
import { stampedAddress } from "./client-address";

const MAX_BODY = 64 * 1024;

/** `run` gets the client's address too (for per-address limits). */
export function jsonEndpoint<S extends z.ZodType, R>(schema: S, run: (input: z.output<S>, address: string | null) => Promise<R>) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const reply = (status: number, body: unknown) => {
      res.statusCode = status;
      res.setHeader("Content-Type", "application/json");
      res.setHeader("Cache-Control", "no-store");
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method !== "POST") throw new AppError("NOT_FOUND", "Use POST");
      const parsed = schema.safeParse(await readJson(req));
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        throw new AppError("INVALID_PAYLOAD", first ? `${first.path.join(".") || "body"}: ${first.message}` : "Invalid body");
      }
      reply(200, { ok: true, data: await run(parsed.data, stampedAddress(req)) });
    } catch (error) {
      const shape = toErrorShape(error);
      reply(ERROR_CODES[shape.code].status, { ok: false, error: shape });
    }
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new AppError("INVALID_PAYLOAD", "Body too large");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new AppError("INVALID_PAYLOAD", "Body is not JSON");
  }
}
