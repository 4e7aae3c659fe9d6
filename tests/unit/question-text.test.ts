// How a question card reads: its audience, its countdown and what the expiry decides, its outcome,
// and the form field a server's INVALID_PAYLOAD names.
import { describe, expect, it } from "vitest";
import { audienceLabel, countdownLabel, durationLabel, fieldOfError, outcomeLabel, outcomeTone } from "../../components/questions/question-text";
import type { QuestionView } from "@switchboard/sdk/questions";

const dana = { id: "p-dana", handle: "dana", displayName: "Dana", kind: "human" as const };
const bot = { id: "p-bot", handle: "deploy-bot", displayName: "Deploy Bot", kind: "agent" as const };
const base: QuestionView = {
  id: "q1",
  roomId: "r1",
  messageId: "m1",
  threadRootId: null,
  asker: bot,
  kind: "approval",
  prompt: "Ship it?",
  options: null,
  fields: null,
  audience: { type: "owner", participant: dana },
  expiresAt: null,
  onExpiry: null,
  allowReactions: false,
  status: "open",
  answer: null,
  answeredBy: null,
  answeredAt: null,
  createdAt: "2026-12-01T10:00:00.000Z",
};

describe("question text", () => {
  it("names the audience from the viewer's side", () => {
    expect(audienceLabel(base, "p-other")).toBe("for @dana");
    expect(audienceLabel(base, "p-dana")).toBe("for you");
    expect(audienceLabel({ audience: { type: "room" } }, "x")).toBe("for anyone here");
    expect(audienceLabel({ audience: { type: "role", role: "admin" } }, "x")).toBe("for admins");
    expect(audienceLabel({ audience: { type: "owner", participant: null } }, "x")).toBe("for its owner");
  });

  it("counts down to what the expiry decides", () => {
    const now = Date.parse("2026-12-01T10:00:00.000Z");
    const q = { ...base, expiresAt: "2026-12-01T10:04:00.000Z", onExpiry: { approved: false } };
    expect(countdownLabel(q, now)).toBe("declines in 4 min");
    expect(countdownLabel({ ...q, onExpiry: null }, now)).toBe("expires in 4 min");
    const single = {
      ...q,
      kind: "single" as const,
      options: [
        { value: "eu", label: "Europe" },
        { value: "us", label: "US" },
      ],
      onExpiry: { choice: "eu" },
    };
    expect(countdownLabel(single, now)).toBe("picks Europe in 4 min");
    expect(countdownLabel(q, now + 4 * 60_000)).toBe("closing…");
    expect(countdownLabel(base, now)).toBeNull();
    expect(durationLabel(42_100)).toBe("43 s");
    expect(durationLabel(125 * 60_000)).toBe("2 h 5 min");
    expect(durationLabel(5 * 24 * 3600_000)).toBe("5 days");
  });

  it("says how it ended", () => {
    const approved = { ...base, status: "answered" as const, answer: { approved: true, comment: "ship it" }, answeredBy: dana };
    expect(outcomeLabel(approved, "x")).toEqual({ headline: "Approved by @dana", detail: "ship it" });
    expect(outcomeLabel(approved, "p-dana")?.headline).toBe("Approved by you");
    expect(outcomeTone(approved)).toBe("positive");
    expect(outcomeLabel({ ...base, status: "expired", answer: { approved: false } }, "x")).toEqual({ headline: "Expired — declined", detail: null });
    expect(outcomeTone({ status: "expired", answer: { approved: false } })).toBe("negative");
    expect(outcomeLabel({ ...base, status: "cancelled" }, "x")).toEqual({ headline: "Cancelled", detail: null });
    const single = {
      ...base,
      kind: "single" as const,
      options: [{ value: "eu", label: "Europe" }],
      status: "answered" as const,
      answer: { choice: "eu" },
      answeredBy: dana,
    };
    expect(outcomeLabel(single, "x")).toEqual({ headline: "Answered by @dana", detail: "Europe" });
    expect(outcomeLabel(base, "x")).toBeNull();
  });

  it("finds the field a refused form answer names", () => {
    expect(fieldOfError("answer.values.canary: at most 100")).toEqual({ field: "canary", reason: "at most 100" });
    expect(fieldOfError("answer.choice: not one of the options")).toBeNull();
  });
});
