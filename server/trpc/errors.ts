// A service's AppError as the tRPC error a client gets: the HTTP status its code maps to, the error as its cause.
import { TRPCError } from "@trpc/server";
import { type AppError, ERROR_CODES } from "../errors";

const TRPC_CODE = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  410: "NOT_FOUND", // tRPC has no Gone: the AppError's own code (FILE_GONE) says it
  413: "PAYLOAD_TOO_LARGE",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_SERVER_ERROR",
  503: "SERVICE_UNAVAILABLE",
} as const;

/** An AppError as a tRPC error with the matching HTTP status. */
export function trpcErrorOf(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE[ERROR_CODES[error.code].status], message: error.message, cause: error });
}
