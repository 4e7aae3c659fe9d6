// The "generic" runtime: a turn is a function. For agents with no framework session of their own (a
// script, a rules engine, a model called directly): the binding still orders turns, counts them,
// hands each only what is new, and remembers `lastSeq`; its external id is one the adapter makes,
// so a function that keeps its own state per conversation can key it by `input.binding.externalId`.
import { randomUUID } from "node:crypto";
import type { RuntimeAdapter, TurnInput, TurnResult } from "../runtime.ts";

/** What the function returns: the reply text, a full result, or nothing (no reply). */
export type GenericTurn = (
  input: TurnInput & { externalId: string },
) => Promise<string | Partial<TurnResult> | void | null> | string | Partial<TurnResult> | void | null;

export function generic(fn: GenericTurn, opts: { runtime?: string; config?: Record<string, unknown> } = {}): RuntimeAdapter {
  return {
    runtime: opts.runtime ?? "generic",
    where: () => (opts.config ? { config: opts.config } : {}),
    async turn(input) {
      const externalId = input.binding.externalId ?? randomUUID();
      if (!input.binding.externalId) await input.onSession(externalId);
      const out = await fn({ ...input, externalId });
      if (out === undefined || out === null) return { externalId, reply: null };
      if (typeof out === "string") return { externalId, reply: out };
      return { ...out, externalId: out.externalId ?? externalId };
    },
  };
}
