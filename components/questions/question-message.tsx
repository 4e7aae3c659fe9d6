"use client";
// Questions in a timeline: the question's own message as a card under its asker's name, and the
// outcome (answered, expired, cancelled) as one compact line that leads back to the card.
import type { MessageView } from "@switchboard/sdk/contract";
import type { QuestionMessageData, QuestionOutcomeData } from "@switchboard/sdk/questions";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { BanIcon, CheckCircleIcon, ClockIcon } from "@/components/ui/icons";
import { fullTimeLabel, timeLabel } from "@/components/rooms/format";
import { QuestionCard } from "./question-card";
import { freshest, useQuestionOfMessage } from "./use-questions";

export const isQuestionOutcome = (m: MessageView): boolean => {
  const type = (m.data as { type?: string } | null)?.type;
  return type === "question.answered" || type === "question.expired" || type === "question.cancelled";
};

export function QuestionMessage({ m, meId, meHandle }: { m: MessageView; meId: string; meHandle: string }) {
  const data = m.data as QuestionMessageData | null;
  const query = useQuestionOfMessage(m.id);
  const question = freshest(query.data, data?.question);
  return (
    <div className="flex gap-3 px-5 pt-2 pb-1.5">
      <div className="w-9 shrink-0">
        <Avatar id={m.author.id} name={m.author.displayName} kind={m.author.kind} />
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline gap-2 leading-5">
          <span className="truncate text-[15px] font-semibold text-zinc-900" data-testid="message-author">
            {m.author.displayName}
          </span>
          <KindBadge kind={m.author.kind} className="translate-y-[-1px]" />
          <span className="text-xs text-zinc-500">asked</span>
          <time className="text-xs text-zinc-500" dateTime={m.createdAt} title={fullTimeLabel(m.createdAt)}>
            {timeLabel(m.createdAt)}
          </time>
        </div>
        <div className="mt-1 max-w-2xl">
          {question ? (
            <QuestionCard
              question={question}
              can={query.data?.can ?? (query.isError ? { answer: false, cancel: false } : null)}
              meId={meId}
              meHandle={meHandle}
            />
          ) : (
            <p className="text-sm text-zinc-500 italic">{m.body}</p>
          )}
        </div>
      </div>
    </div>
  );
}

const ICONS = {
  "question.answered": <CheckCircleIcon size={13} className="shrink-0 text-emerald-600" />,
  "question.expired": <ClockIcon size={13} className="shrink-0 text-amber-600" />,
  "question.cancelled": <BanIcon size={13} className="shrink-0 text-zinc-400" />,
};

/** "Dana answered Deploy Bot's question: Approved: ship it · View question". */
export function QuestionOutcomeLine({ m, nameOf, onJump }: { m: MessageView; nameOf: (id: string) => string; onJump: (messageId: string) => void }) {
  const data = m.data as QuestionOutcomeData;
  // The server wrote the decision, with option labels, into the body: "@asker Approved: ship it".
  const decision = data.answer ? m.body.replace(/^@\S+\s/, "").replace(/^Expired without an answer: /, "") : null;
  const text =
    data.type === "question.answered"
      ? `${m.author.displayName} answered ${m.mentions[0] ? `${nameOf(m.mentions[0])}'s` : "a"} question`
      : data.type === "question.expired"
        ? `${m.author.displayName}'s question expired${data.answer ? ", decided by default" : " without an answer"}`
        : `${m.author.displayName}'s question was cancelled`;
  return (
    <div
      className="flex min-w-0 items-center gap-2 px-5 py-1 pl-[68px] text-[13px] text-zinc-500"
      data-testid="question-outcome-line"
      data-outcome={data.type}
      data-question-message-id={data.questionMessageId}
    >
      {ICONS[data.type]}
      <span className="min-w-0 truncate">
        {text}
        {decision && (
          <>
            : <span className="font-medium text-zinc-700">{decision}</span>
          </>
        )}
      </span>
      <button
        type="button"
        onClick={() => onJump(data.questionMessageId)}
        className="shrink-0 rounded px-1 font-medium text-indigo-600 hover:bg-indigo-50 hover:underline"
        data-testid="question-outcome-jump"
      >
        View question
      </button>
      <time className="shrink-0 text-xs text-zinc-500" dateTime={m.createdAt} title={fullTimeLabel(m.createdAt)}>
        {timeLabel(m.createdAt)}
      </time>
    </div>
  );
}

/** Scrolls a rendered message into view and gives it focus (the thread panel, which is not virtualized). */
export function jumpToRenderedMessage(messageId: string): boolean {
  const el = document.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
  if (!el) return false;
  el.scrollIntoView({ block: "center", behavior: "smooth" });
  el.querySelector<HTMLElement>('[data-testid="question-card"]')?.focus({ preventScroll: true });
  return true;
}
