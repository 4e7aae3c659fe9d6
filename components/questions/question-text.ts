// How a question reads in the browser: who it is for, what happens when it expires and when, how it
// ended, and which field a server's INVALID_PAYLOAD points at. Pure, so unit tests cover it.
import { describeAnswer, type QuestionAnswer, type QuestionView } from "@switchboard/sdk/questions";

type Who = { id: string; handle: string };

const ROLE_LABEL = { owner: "owners", admin: "admins", member: "members" } as const;

/** "for you", "for @dana", "for anyone here", "for admins". */
export function audienceLabel(q: Pick<QuestionView, "audience">, meId: string): string {
  const a = q.audience;
  switch (a.type) {
    case "person":
    case "owner":
      if (!a.participant) return "for its owner";
      return a.participant.id === meId ? "for you" : `for @${a.participant.handle}`;
    case "room":
      return "for anyone here";
    case "role":
      return `for ${ROLE_LABEL[a.role]}`;
  }
}

/** What the expiry decides, as a verb: "declines", "approves", "picks Staging", or "expires". */
export function expiryVerb(q: Pick<QuestionView, "kind" | "options" | "fields" | "onExpiry">): string {
  const d = q.onExpiry;
  if (!d) return "expires";
  if ("approved" in d) return d.approved ? "approves" : "declines";
  if ("choice" in d) return `picks ${describeAnswer(q, d)}`;
  return `answers “${describeAnswer(q, d)}”`;
}

/** "4 min", "45 s", "2 h 5 min", "3 days": the time left, coarse when far, by the second when near. */
export function durationLabel(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.ceil(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  return `${Math.round(h / 24)} days`;
}

/** "declines in 4 min" while it runs; null without a deadline; "closing…" past it, until the server settles it. */
export function countdownLabel(q: Pick<QuestionView, "kind" | "options" | "fields" | "onExpiry" | "expiresAt">, now: number): string | null {
  if (!q.expiresAt) return null;
  const left = new Date(q.expiresAt).getTime() - now;
  if (left <= 0) return "closing…";
  return `${expiryVerb(q)} in ${durationLabel(left)}`;
}

const name = (p: Who, meId: string) => (p.id === meId ? "you" : `@${p.handle}`);

/**
 * How it ended, in two parts: the headline ("Approved by @dana", "Expired — declined", "Cancelled")
 * and the detail after it (the comment, the answer), or null while it is open.
 */
export function outcomeLabel(
  q: Pick<QuestionView, "status" | "kind" | "options" | "fields" | "answer" | "answeredBy">,
  meId: string,
): { headline: string; detail: string | null } | null {
  const a = q.answer;
  switch (q.status) {
    case "open":
      return null;
    case "cancelled":
      return { headline: "Cancelled", detail: null };
    case "expired":
      if (!a) return { headline: "Expired without an answer", detail: null };
      if ("approved" in a) return { headline: `Expired — ${a.approved ? "approved" : "declined"}`, detail: null };
      return { headline: "Expired — decided by default", detail: describeAnswer(q, a) };
    case "answered": {
      const by = q.answeredBy ? ` by ${name(q.answeredBy, meId)}` : "";
      if (a && "approved" in a) return { headline: `${a.approved ? "Approved" : "Declined"}${by}`, detail: a.comment || null };
      return { headline: `Answered${by}`, detail: describeAnswer(q, a) };
    }
  }
}

/** The tone a decided question's banner takes. */
export function outcomeTone(q: Pick<QuestionView, "status" | "answer">): "positive" | "negative" | "neutral" {
  if (q.status === "cancelled") return "neutral";
  const a: QuestionAnswer | null = q.answer;
  if (a && "approved" in a) return a.approved ? "positive" : "negative";
  return q.status === "answered" ? "positive" : "neutral";
}

/**
 * The form field an INVALID_PAYLOAD message names (`answer.values.canary: at most 100`), with the
 * reason; null when it names none.
 */
export function fieldOfError(message: string): { field: string; reason: string } | null {
  const m = /^answer\.values\.([A-Za-z_][A-Za-z0-9_]*): (.+)$/.exec(message);
  return m ? { field: m[1], reason: m[2] } : null;
}
