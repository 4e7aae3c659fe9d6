import { answerQuestionInput, askQuestionInput, listQuestionsInput, questionIdInput, questionOfMessageInput } from "@switchboard/sdk/questions";
import * as questions from "../../services/questions/questions";
import { authedProcedure, router } from "../init";

export const questionsRouter = router({
  /** The Needs-you queue (`for: "me"`), or the questions one asked. */
  list: authedProcedure.input(listQuestionsInput).query(({ ctx, input }) => questions.listQuestions(ctx.actor, input)),
  /** The Needs-you badge: open questions the viewer may answer. */
  openCount: authedProcedure.query(({ ctx }) => questions.countOpenForMe(ctx.actor)),
  get: authedProcedure.input(questionIdInput).query(({ ctx, input }) => questions.getQuestion(ctx.actor, input)),
  /** The question a message of kind `question` carries, as the viewer sees it (with `can`). */
  ofMessage: authedProcedure.input(questionOfMessageInput).query(({ ctx, input }) => questions.questionOfMessage(ctx.actor, input.messageId)),
  ask: authedProcedure.input(askQuestionInput).mutation(({ ctx, input }) => questions.askQuestion(ctx.actor, input)),
  answer: authedProcedure.input(answerQuestionInput).mutation(({ ctx, input }) => questions.answerQuestion(ctx.actor, input)),
  cancel: authedProcedure.input(questionIdInput).mutation(({ ctx, input }) => questions.cancelQuestion(ctx.actor, input)),
});
