// Waiting for people's answers. `ask()` posts a question and waits here until it is answered, expires
// or is cancelled. The answer comes as `question:updated` (volatile); after a reconnect every open
// wait is checked with `question:get`, so nothing decided while the agent was away is missed. An
// agent that crashed while waiting asks again with the same clientMsgId (handlers derive it) and is
// answered at once with what was decided meanwhile.
import type { QuestionAnswer, QuestionPerson, QuestionView } from "./questions.ts";

/** How a question ended: answered (by whom, what), expired (its expiry decision, if any), or cancelled. */
export interface QuestionOutcome {
  status: "answered" | "expired" | "cancelled";
  /** The answer, or the expiry decision (an approval declines by default); null when cancelled. */
  answer: QuestionAnswer | null;
  answeredBy: QuestionPerson | null;
  question: QuestionView;
}

type Waiter = { resolve: (outcome: QuestionOutcome) => void; reject: (error: unknown) => void };

export function outcomeOf(question: QuestionView): QuestionOutcome | null {
  if (question.status === "open") return null;
  return { status: question.status, answer: question.answer, answeredBy: question.answeredBy, question };
}

export class AnswerWaiters {
  private readonly waiting = new Map<string, Waiter[]>();

  /** `get` reads a question's current state (`question:get`). */
  constructor(private readonly get: (questionId: string) => Promise<QuestionView>) {}

  /** Resolves once the question is decided, whenever that is (it may already be). */
  wait(questionId: string): Promise<QuestionOutcome> {
    const done = new Promise<QuestionOutcome>((resolve, reject) => {
      const list = this.waiting.get(questionId) ?? [];
      list.push({ resolve, reject });
      this.waiting.set(questionId, list);
    });
    void this.check(questionId);
    return done;
  }

  /** A `question:updated` event: settles its waiters if the question is decided. */
  updated(question: QuestionView): void {
    const outcome = outcomeOf(question);
    if (!outcome) return;
    const list = this.waiting.get(question.id);
    this.waiting.delete(question.id);
    for (const w of list ?? []) w.resolve(outcome);
  }

  /** After a (re)connect: what was decided while no event could reach us. */
  recheck(): void {
    for (const questionId of this.waiting.keys()) void this.check(questionId);
  }

  /** Fails every wait (the client was closed or refused for good). */
  abort(error: unknown): void {
    for (const list of this.waiting.values()) for (const w of list) w.reject(error);
    this.waiting.clear();
  }

  private async check(questionId: string): Promise<void> {
    try {
      this.updated(await this.get(questionId));
    } catch (error) {
      // A question we may no longer see (removed from the room) fails its waiters; anything else waits for the next event.
      if ((error as { code?: string }).code === "NOT_FOUND") {
        const list = this.waiting.get(questionId);
        this.waiting.delete(questionId);
        for (const w of list ?? []) w.reject(error);
      }
    }
  }
}
