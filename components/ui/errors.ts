// The { code, message, retryable } every failure carries: tRPC errors keep it in `data.app`,
// socket acks in `error`.
import type { ErrorShape } from "@switchboard/sdk/contract";

export function appErrorOf(error: unknown): ErrorShape {
  if (error && typeof error === "object") {
    const data = (error as { data?: { app?: ErrorShape } }).data;
    if (data?.app?.code) return data.app;
    const shape = error as Partial<ErrorShape>;
    if (typeof shape.code === "string" && typeof shape.message === "string") {
      return { code: shape.code, message: shape.message, retryable: Boolean(shape.retryable) };
    }
    if (error instanceof Error) return { code: "NETWORK", message: "Could not reach the server. Check your connection and try again.", retryable: true };
  }
  return { code: "INTERNAL", message: "Something went wrong", retryable: true };
}

export const errorMessage = (error: unknown): string => appErrorOf(error).message;
