// The shapes of questions (sdk/questions.ts): what an ask must hold for its kind, what an answer must
// be for its question, and how an answer reads in words (messages, mail, MCP results).
import { describe, expect, it } from "vitest";
import { answerSchema, askQuestionInput, describeAnswer, type FormField, type QuestionOption } from "@switchboard/sdk/questions";

const options: QuestionOption[] = [
  { value: "eu", label: "Europe" },
  { value: "us", label: "United States" },
];
const fields = [
  { name: "version", label: "Version", type: "string", required: true, minLength: 3 },
  { name: "canary", label: "Canary %", type: "integer", min: 0, max: 100, required: false },
  { name: "notify", label: "Notify", type: "boolean", required: false },
  { name: "channel", label: "Channel", type: "enum", options: [{ value: "stable", label: "Stable" }], required: false },
] satisfies FormField[];
const ok = (q: Parameters<typeof answerSchema>[0], answer: unknown) => answerSchema(q).safeParse(answer).success;

describe("questions", () => {
  it("takes an answer of the question's kind, and only its options", () => {
    const single = { kind: "single" as const, options, fields: null };
    expect(ok(single, { choice: "eu" })).toBe(true);
    expect(ok(single, { choice: "mars" })).toBe(false);
    expect(ok(single, { choices: ["eu"] })).toBe(false);
    const multiple = { kind: "multiple" as const, options, fields: null };
    expect(ok(multiple, { choices: ["eu", "us"] })).toBe(true);
    expect(ok(multiple, { choices: ["eu", "eu"] })).toBe(false);
    expect(ok(multiple, { choices: [] })).toBe(false);
    expect(ok({ kind: "approval", options: null, fields: null }, { approved: false, comment: "no" })).toBe(true);
    expect(ok({ kind: "approval", options: null, fields: null }, { approved: "yes" })).toBe(false);
    expect(ok({ kind: "text", options: null, fields: null }, { text: "   " })).toBe(false);
  });

  it("checks a form's values against its fields: required, types, bounds, options, no strangers", () => {
    const form = { kind: "form" as const, options: null, fields };
    expect(ok(form, { values: { version: "2.0.1", canary: 5, notify: true, channel: "stable" } })).toBe(true);
    expect(ok(form, { values: { version: "2.0.1" } })).toBe(true);
    expect(ok(form, { values: {} })).toBe(false);
    expect(ok(form, { values: { version: "2" } })).toBe(false);
    expect(ok(form, { values: { version: "2.0", canary: 1.5 } })).toBe(false);
    expect(ok(form, { values: { version: "2.0", canary: -1 } })).toBe(false);
    expect(ok(form, { values: { version: "2.0", notify: "yes" } })).toBe(false);
    expect(ok(form, { values: { version: "2.0", channel: "nightly" } })).toBe(false);
    expect(ok(form, { values: { version: "2.0", extra: 1 } })).toBe(false);
  });

  it("asks with the parts its kind needs and nothing else", () => {
    const base = { roomId: "r", clientMsgId: "c", prompt: "?", audience: { type: "room" } };
    expect(askQuestionInput.safeParse({ ...base, kind: "single", options }).success).toBe(true);
    expect(askQuestionInput.safeParse({ ...base, kind: "single" }).success).toBe(false);
    expect(askQuestionInput.safeParse({ ...base, kind: "text", options }).success).toBe(false);
    expect(askQuestionInput.safeParse({ ...base, kind: "form" }).success).toBe(false);
    expect(askQuestionInput.safeParse({ ...base, kind: "single", options: [options[0], options[0]] }).success).toBe(false);
    expect(askQuestionInput.safeParse({ ...base, kind: "approval", onExpiry: { approved: true } }).success).toBe(false); // no deadline
    expect(askQuestionInput.safeParse({ ...base, kind: "form", fields: [{ name: "x", label: "X", type: "enum" }] }).success).toBe(false);
  });

  it("words an answer with labels", () => {
    expect(describeAnswer({ kind: "single", options, fields: null }, { choice: "us" })).toBe("United States");
    expect(describeAnswer({ kind: "multiple", options, fields: null }, { choices: ["eu", "us"] })).toBe("Europe, United States");
    expect(describeAnswer({ kind: "approval", options: null, fields: null }, { approved: false, comment: "not today" })).toBe("Declined: not today");
    expect(describeAnswer({ kind: "form", options: null, fields }, { values: { version: "2.0", notify: true, channel: "stable" } })).toBe(
      "Version: 2.0; Notify: Yes; Channel: Stable",
    );
    expect(describeAnswer({ kind: "text", options: null, fields: null }, null)).toBe("no answer");
  });
});
