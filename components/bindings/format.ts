// How a runtime binding reads: the runtime's own word for a session, a short session id, where it
// runs, and its status in words and colour.
import type { BindingStatus, BindingView } from "@switchboard/sdk/bindings";

const RUNTIMES: Record<string, string> = {
  "claude-agent-sdk": "Claude session",
  codex: "Codex thread",
  langgraph: "LangGraph thread",
};

/** "Claude session", "Codex thread", "LangGraph thread"; any other runtime by its kind. */
export function runtimeLabel(runtime: string): string {
  return RUNTIMES[runtime] ?? runtime;
}

/** The first characters of a session id, enough to tell sessions apart at a glance. */
export function shortId(externalId: string): string {
  return externalId.length > 8 ? `${externalId.slice(0, 6)}…` : externalId;
}

/** The runner's name, else its host. */
export function whereShort(b: Pick<BindingView, "runner" | "host">): string | null {
  return b.runner ?? b.host;
}

/**
 * The status to show now. The server says `stale` when it presents a binding whose turn's lease had
 * run out; a binding shown earlier as active goes stale on screen when its `leaseUntil` passes.
 */
export function statusNow(b: Pick<BindingView, "status" | "leaseUntil">, now: number): BindingStatus {
  if (b.status === "active" && b.leaseUntil && Date.parse(b.leaseUntil) <= now) return "stale";
  return b.status;
}

export const STATUS: Record<BindingStatus, { label: string; hint: string; dot: string; text: string }> = {
  active: { label: "Working", hint: "A turn is running now", dot: "bg-emerald-500", text: "text-emerald-700" },
  idle: { label: "Idle", hint: "Resumes on the next message", dot: "bg-zinc-400", text: "text-zinc-600" },
  awaiting_input: { label: "Awaiting input", hint: "The session waits for an answer", dot: "bg-sky-500", text: "text-sky-700" },
  stale: { label: "Stale", hint: "Last turn did not finish", dot: "bg-orange-500", text: "text-orange-700" },
  closed: { label: "Closed", hint: "The next message starts a new session", dot: "bg-zinc-300", text: "text-zinc-500" },
};

/** A resume that failed and was not followed by a clean turn: the warning the header shows. */
export function resumeWarning(b: Pick<BindingView, "resumeFailures" | "lastError" | "status">): string | null {
  if (b.status === "closed" || b.resumeFailures === 0 || !b.lastError) return null;
  return `Could not resume: ${b.lastError} — started fresh with recent history`;
}

/** "3 turns", "1 turn". */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
