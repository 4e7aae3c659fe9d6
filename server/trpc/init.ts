import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { AppError, ERROR_CODES, toErrorShape, type ErrorShape } from "../errors";
import { assertMayWrite } from "../policies";
import { countAccountRequest, countRequest, MUTATIONS } from "../services/governance/request-limits";
import type { Context } from "./context";
import { trpcErrorOf } from "./errors";

/** Every error leaves as { code, message, retryable } in `data.app`; no stack reaches the client. */
function appShape(error: TRPCError): ErrorShape {
  if (error.cause instanceof AppError) return error.cause.toShape();
  if (error.cause instanceof ZodError) {
    const first = error.cause.issues[0];
    return { code: "INVALID_PAYLOAD", message: first ? `${first.path.join(".") || "input"}: ${first.message}` : "Invalid input", retryable: false };
  }
  if (error.code === "UNAUTHORIZED") return { code: "UNAUTHENTICATED", message: "Sign in first", retryable: false };
  if (error.code === "NOT_FOUND" || error.code === "METHOD_NOT_SUPPORTED") return { code: "NOT_FOUND", message: error.message, retryable: false };
  if (error.code === "PARSE_ERROR" || error.code === "BAD_REQUEST") return { code: "INVALID_PAYLOAD", message: "Malformed request", retryable: false };
  if (error.code === "PAYLOAD_TOO_LARGE") return { code: "INVALID_PAYLOAD", message: "Request too large", retryable: false };
  return toErrorShape(error.cause ?? error);
}

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const app = appShape(error);
    return { code: shape.code, message: app.message, data: { code: shape.data.code, httpStatus: ERROR_CODES[app.code].status, app } };
  },
});

export const router = t.router;

/** Turns an AppError thrown by a service into a tRPC error with the matching HTTP status. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) result.error = trpcErrorOf(result.error.cause);
  return result;
});

/**
 * A read-only token reads: every mutation is refused (INSUFFICIENT_SCOPE) before its input is looked
 * at, whatever it would do (sign-up included).
 */
const readOnlyReads = t.middleware(({ ctx, type, next }) => {
  if (type === "mutation" && ctx.actor) assertMayWrite(ctx.actor);
  return next();
});

export const publicProcedure = t.procedure.use(mapErrors).use(readOnlyReads);

export const authedProcedure = publicProcedure
  .use(({ ctx, next }) => {
    if (!ctx.actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first" });
    return next({ ctx: { ...ctx, actor: ctx.actor } });
  })
  // Before the input is parsed: every mutation costs the server something, valid or not.
  .use(async ({ ctx, type, next }) => {
    if (type === "mutation") await countRequest(MUTATIONS, ctx.actor, "tRPC mutations");
    return next();
  });

/**
 * The signed-in account itself, whichever workspace the request acts in, or none: joining or creating a
 * workspace is done before the account has a person there. An access token acts in its own workspace
 * alone, so it cannot.
 */
export const accountProcedure = publicProcedure
  .use(({ ctx, next }) => {
    if (ctx.accountId) return next({ ctx: { ...ctx, accountId: ctx.accountId } });
    if (ctx.actor) throw trpcErrorOf(new AppError("FORBIDDEN", "An access token acts in its own workspace only: sign in to join or create another"));
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first" });
  })
  .use(async ({ ctx, type, next }) => {
    if (type === "mutation") await countAccountRequest(MUTATIONS, ctx.accountId, "tRPC mutations");
    return next();
  });
