import type { FormField, QuestionAnswer, QuestionOption, QuestionPerson, QuestionView } from "@switchboard/sdk/questions";

type Person = QuestionPerson;

interface QuestionRow {
  id: string;
  roomId: string;
  messageId: string;
  kind: QuestionView["kind"];
  prompt: string;
  options: unknown;
  fields: unknown;
  audience: "person" | "owner" | "room" | "role";
  audienceRole: string | null;
  expiresAt: Date | null;
  onExpiry: unknown;
  status: QuestionView["status"];
  answer: unknown;
  answeredAt: Date | null;
  createdAt: Date;
  asker: Person;
  audienceOf: Person | null;
  answeredBy: Person | null;
  message: { threadRootId: string | null; data: unknown };
}

const person = (p: Person): Person => ({ id: p.id, handle: p.handle, displayName: p.displayName, kind: p.kind });

/** A question as everyone sees it (and as its message's `data` carries it). */
export function presentQuestion(q: QuestionRow): QuestionView {
  return {
    id: q.id,
    roomId: q.roomId,
    messageId: q.messageId,
    threadRootId: q.message.threadRootId,
    asker: person(q.asker),
    kind: q.kind,
    prompt: q.prompt,
    options: (q.options as QuestionOption[] | null) ?? null,
    fields: (q.fields as FormField[] | null) ?? null,
    audience:
      q.audience === "person"
        ? { type: "person", participant: person(q.audienceOf!) }
        : q.audience === "owner"
          ? { type: "owner", participant: q.audienceOf ? person(q.audienceOf) : null }
          : q.audience === "role"
            ? { type: "role", role: q.audienceRole as "owner" | "admin" | "member" }
            : { type: "room" },
    expiresAt: q.expiresAt?.toISOString() ?? null,
    onExpiry: (q.onExpiry as QuestionAnswer | null) ?? null,
    allowReactions: reactionsAllowed(q.message.data),
    status: q.status,
    answer: (q.answer as QuestionAnswer | null) ?? null,
    answeredBy: q.answeredBy ? person(q.answeredBy) : null,
    answeredAt: q.answeredAt?.toISOString() ?? null,
    createdAt: q.createdAt.toISOString(),
  };
}

/** Whether reactions answer it: asked so, and kept in its message's `data` (the question row has no column for it). */
function reactionsAllowed(data: unknown): boolean {
  const question = (data as { question?: { allowReactions?: unknown } } | null)?.question;
  return question?.allowReactions === true;
}

const personSelect = { select: { id: true, handle: true, displayName: true, kind: true } } as const;

/** The relations a presented question needs, for Prisma `include`. */
export const questionInclude = {
  asker: personSelect,
  audienceOf: personSelect,
  answeredBy: personSelect,
  message: { select: { threadRootId: true, data: true } },
} as const;
