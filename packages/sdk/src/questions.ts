// Questions to people: what an asker sends, what an answer looks like for each kind, and how a
// question is presented. Shared by the server (which validates every answer with `answerSchema`), the
// SDK and the browser; docs/protocol.md ("Asking a person") documents it for other languages.
import { z } from "zod";

const id = z.string().min(1).max(64);

export const questionKinds = ["single", "multiple", "text", "approval", "form"] as const;
export type QuestionKind = (typeof questionKinds)[number];
export const questionStatuses = ["open", "answered", "expired", "cancelled"] as const;
export type QuestionStatus = (typeof questionStatuses)[number];
export const answererRoles = ["owner", "admin", "member"] as const;

/** A choice of a `single` or `multiple` question. */
export const questionOption = z.strictObject({
  value: z.string().trim().min(1).max(100),
  label: z.string().trim().min(1).max(200),
  description: z.string().trim().max(500).optional(),
});
export type QuestionOption = z.output<typeof questionOption>;

/**
 * A field of a `form` question: flat, typed, as in MCP's elicitation schema. `enum` takes one of
 * `options`; strings may be bounded in length, numbers in value.
 */
export const formField = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,39}$/, "a letter or _, then letters, digits or _ (up to 40)"),
    label: z.string().trim().min(1).max(200),
    type: z.enum(["string", "number", "integer", "boolean", "enum"]),
    description: z.string().trim().max(500).optional(),
    required: z.boolean().default(false),
    options: z.array(questionOption).min(1).max(50).optional(),
    minLength: z.number().int().min(0).max(4000).optional(),
    maxLength: z.number().int().min(1).max(4000).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
  })
  .refine((f) => (f.type === "enum") === (f.options !== undefined), { message: "options are for (and required by) enum fields" });
export type FormField = z.output<typeof formField>;

/**
 * Who may answer: a named person (id or @handle), the asking agent's owner, any person in the room,
 * or people with a workspace role (that role or a higher one).
 */
export const questionAudience = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("person"), participant: z.string().trim().min(1).max(64) }),
  z.strictObject({ type: z.literal("owner") }),
  z.strictObject({ type: z.literal("room") }),
  z.strictObject({ type: z.literal("role"), role: z.enum(answererRoles) }),
]);
export type QuestionAudienceInput = z.input<typeof questionAudience>;

// ---- answers, one shape per kind ----

/** A `text` answer, and the comment an approval may carry, at most. */
export const ANSWER_TEXT_MAX = 4000;
export const ANSWER_COMMENT_MAX = 1000;
const text = z.string().trim().min(1).max(ANSWER_TEXT_MAX);
const comment = z.string().trim().max(ANSWER_COMMENT_MAX).optional();
export const answerShapes = {
  single: z.strictObject({ choice: z.string().min(1).max(100) }),
  multiple: z.strictObject({ choices: z.array(z.string().min(1).max(100)).min(1).max(50) }),
  text: z.strictObject({ text }),
  approval: z.strictObject({ approved: z.boolean(), comment }),
  form: z.strictObject({ values: z.record(z.string(), z.union([z.string().max(4000), z.number(), z.boolean()])) }),
} as const;
export type QuestionAnswer =
  | z.output<(typeof answerShapes)["single"]>
  | z.output<(typeof answerShapes)["multiple"]>
  | z.output<(typeof answerShapes)["text"]>
  | z.output<(typeof answerShapes)["approval"]>
  | z.output<(typeof answerShapes)["form"]>;

/** What an answer must be for this question: its kind's shape, and only its options or fields. */
export function answerSchema(q: { kind: QuestionKind; options: QuestionOption[] | null; fields: FormField[] | null }): z.ZodType<QuestionAnswer> {
  const values = new Set((q.options ?? []).map((o) => o.value));
  const known = (v: string) => values.has(v);
  switch (q.kind) {
    case "single":
      return answerShapes.single.refine((a) => known(a.choice), { message: "choice: not one of the options", path: ["choice"] });
    case "multiple":
      return answerShapes.multiple
        .refine((a) => a.choices.every(known), { message: "choices: not all are options", path: ["choices"] })
        .refine((a) => new Set(a.choices).size === a.choices.length, { message: "choices: each at most once", path: ["choices"] });
    case "text":
      return answerShapes.text;
    case "approval":
      return answerShapes.approval;
    case "form":
      return answerShapes.form.superRefine((a, ctx) => checkForm(q.fields ?? [], a.values, ctx));
  }
}

function checkForm(fields: FormField[], values: Record<string, string | number | boolean>, ctx: z.RefinementCtx): void {
  const issue = (name: string, message: string) => ctx.addIssue({ code: "custom", path: ["values", name], message });
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const name of Object.keys(values)) if (!byName.has(name)) issue(name, "not a field of this form");
  for (const f of fields) {
    const v = values[f.name];
    if (v === undefined || v === "") {
      if (f.required) issue(f.name, "required");
      continue;
    }
    if (f.type === "boolean" && typeof v !== "boolean") issue(f.name, "expected true or false");
    if ((f.type === "number" || f.type === "integer") && typeof v !== "number") issue(f.name, "expected a number");
    if (f.type === "integer" && typeof v === "number" && !Number.isInteger(v)) issue(f.name, "expected a whole number");
    if (typeof v === "number" && f.min !== undefined && v < f.min) issue(f.name, `at least ${f.min}`);
    if (typeof v === "number" && f.max !== undefined && v > f.max) issue(f.name, `at most ${f.max}`);
    if ((f.type === "string" || f.type === "enum") && typeof v !== "string") issue(f.name, "expected text");
    if (f.type === "enum" && typeof v === "string" && !f.options!.some((o) => o.value === v)) issue(f.name, "not one of the options");
    if (typeof v === "string" && f.minLength !== undefined && v.length < f.minLength) issue(f.name, `at least ${f.minLength} characters`);
    if (typeof v === "string" && f.maxLength !== undefined && v.length > f.maxLength) issue(f.name, `at most ${f.maxLength} characters`);
  }
}

// ---- requests ----

/** Longest a question may stay open: 30 days. */
export const MAX_QUESTION_SECONDS = 30 * 24 * 3600;

export const askQuestionInput = z
  .strictObject({
    roomId: id,
    threadRootId: id.optional(),
    /** Makes the ask idempotent, like a send's: the same id from the same asker returns the first question. */
    clientMsgId: z.string().min(1).max(128),
    prompt: z.string().trim().min(1).max(4000),
    kind: z.enum(questionKinds),
    options: z.array(questionOption).min(2).max(20).optional(),
    fields: z.array(formField).min(1).max(20).optional(),
    audience: questionAudience,
    /** Seconds until it expires; absent: it stays open until answered or cancelled. */
    expiresInSeconds: z.number().int().min(1).max(MAX_QUESTION_SECONDS).optional(),
    /** The decision when it expires, an answer of its kind; approvals decline by default. */
    onExpiry: z.unknown().optional(),
    /** An approval only: a person it is for may answer with a reaction on it, ✅ or 👍 to approve, ❌ or 👎 to deny. */
    allowReactions: z.boolean().optional(),
  })
  .superRefine((q, ctx) => {
    const choice = q.kind === "single" || q.kind === "multiple";
    if (choice !== (q.options !== undefined))
      ctx.addIssue({ code: "custom", path: ["options"], message: choice ? "required for single and multiple" : "only for single and multiple" });
    if ((q.kind === "form") !== (q.fields !== undefined))
      ctx.addIssue({ code: "custom", path: ["fields"], message: q.kind === "form" ? "required for a form" : "only for a form" });
    if (q.options && new Set(q.options.map((o) => o.value)).size !== q.options.length)
      ctx.addIssue({ code: "custom", path: ["options"], message: "values must differ" });
    if (q.fields && new Set(q.fields.map((f) => f.name)).size !== q.fields.length)
      ctx.addIssue({ code: "custom", path: ["fields"], message: "names must differ" });
    if (q.allowReactions && q.kind !== "approval") ctx.addIssue({ code: "custom", path: ["allowReactions"], message: "only for an approval" });
    if (q.onExpiry !== undefined && q.expiresInSeconds === undefined) ctx.addIssue({ code: "custom", path: ["onExpiry"], message: "needs expiresInSeconds" });
  });
export type AskQuestionInput = z.input<typeof askQuestionInput>;

export const answerQuestionInput = z.strictObject({ questionId: id, answer: z.unknown() });
export const questionIdInput = z.strictObject({ questionId: id });
/** The question a message of kind `question` carries. */
export const questionOfMessageInput = z.strictObject({ messageId: id });
/** The caller's questions: those it may answer (`for: "me"`, the Needs-you queue) or those it asked. */
export const listQuestionsInput = z.strictObject({
  for: z.enum(["me", "asked"]).default("me"),
  status: z.enum(["open", "all"]).default("open"),
  roomId: id.optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

// ---- what the server presents ----

export interface QuestionPerson {
  id: string;
  handle: string;
  displayName: string;
  kind: "human" | "agent";
}

export type QuestionAudienceView =
  | { type: "person"; participant: QuestionPerson }
  | { type: "owner"; participant: QuestionPerson | null }
  | { type: "room" }
  | { type: "role"; role: (typeof answererRoles)[number] };

/** A question as everyone sees it; also the `question` field of its message's `data`. */
export interface QuestionView {
  id: string;
  roomId: string;
  messageId: string;
  threadRootId: string | null;
  asker: QuestionPerson;
  kind: QuestionKind;
  prompt: string;
  options: QuestionOption[] | null;
  fields: FormField[] | null;
  audience: QuestionAudienceView;
  expiresAt: string | null;
  onExpiry: QuestionAnswer | null;
  /** An approval a reaction answers (✅/👍 approve, ❌/👎 deny), by a person it is for. */
  allowReactions: boolean;
  status: QuestionStatus;
  /** The answer, or the expiry decision; null while open (and for a cancelled question). */
  answer: QuestionAnswer | null;
  answeredBy: QuestionPerson | null;
  answeredAt: string | null;
  createdAt: string;
}

/** A question as one viewer sees it (tRPC, `question:get`, `question:list`): with what they may do. */
export interface QuestionForViewer extends QuestionView {
  room: { id: string; title: string };
  can: { answer: boolean; cancel: boolean };
}

/** `data` of a message of kind `question`. */
export interface QuestionMessageData {
  type: "question";
  question: QuestionView;
}

/** `data` of the event that announces an answer (or of the notice of an expiry or cancellation). */
export interface QuestionOutcomeData {
  type: "question.answered" | "question.expired" | "question.cancelled";
  questionId: string;
  questionMessageId: string;
  answer: QuestionAnswer | null;
}

/** A human-readable rendering of an answer, for messages, mail and logs. */
export function describeAnswer(q: Pick<QuestionView, "kind" | "options" | "fields">, answer: QuestionAnswer | null): string {
  if (answer === null) return "no answer";
  const label = (v: string) => q.options?.find((o) => o.value === v)?.label ?? v;
  if ("choice" in answer) return label(answer.choice);
  if ("choices" in answer) return answer.choices.map(label).join(", ");
  if ("text" in answer) return answer.text;
  if ("approved" in answer) return (answer.approved ? "Approved" : "Declined") + (answer.comment ? `: ${answer.comment}` : "");
  const shown = (name: string, v: string | number | boolean) => {
    const field = q.fields?.find((f) => f.name === name);
    const value = typeof v === "boolean" ? (v ? "Yes" : "No") : (field?.options?.find((o) => o.value === v)?.label ?? String(v));
    return `${field?.label ?? name}: ${value}`;
  };
  return Object.entries(answer.values)
    .map(([k, v]) => shown(k, v))
    .join("; ");
}
