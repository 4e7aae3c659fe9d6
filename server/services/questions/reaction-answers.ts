// A reaction as an answer. Reacting is messaging's (messaging/reactions.ts); here, a person's ✅/👍 or
// ❌/👎 newly put on an open approval question that allows it (`allowReactions` when asked) answers it
// as an answer would: only by someone the question is for, the first answer winning. A reaction by
// anyone else stays a reaction.
import { APPROVE_EMOJI, DENY_EMOJI, type ReactionsChange } from "@switchboard/sdk/reactions";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import type { Actor } from "../../policies";
import { setReaction } from "../messaging/reactions";
import { answerQuestion } from "./questions";

const decisions = new Map<string, boolean>([...APPROVE_EMOJI.map((e) => [e, true] as const), ...DENY_EMOJI.map((e) => [e, false] as const)]);

/** Adds or removes the actor's reaction; a new approving or denying one may answer the question the message asks. */
export async function react(actor: Actor, input: { messageId: string; emoji: string; on: boolean }): Promise<ReactionsChange> {
  const set = await setReaction(actor, input);
  const approved = decisions.get(input.emoji);
  if (set.added && approved !== undefined && set.message.kind === "question" && actor.kind === "human") {
    await answerByReaction(actor, set.message.id, approved);
  }
  return set.change;
}

async function answerByReaction(actor: Actor, messageId: string, approved: boolean): Promise<void> {
  const question = await getDb().question.findUnique({
    where: { messageId },
    select: { id: true, kind: true, status: true, message: { select: { data: true } } },
  });
  if (!question || question.kind !== "approval" || question.status !== "open") return;
  if ((question.message.data as { question?: { allowReactions?: unknown } } | null)?.question?.allowReactions !== true) return;
  try {
    await answerQuestion(actor, { questionId: question.id, answer: { approved } });
  } catch (error) {
    // Not theirs to answer, answered a moment ago, or expired: the reaction stays a reaction.
    if (error instanceof AppError && ["FORBIDDEN", "CONFLICT", "EXPIRED", "NOT_FOUND"].includes(error.code)) return;
    throw error;
  }
}
