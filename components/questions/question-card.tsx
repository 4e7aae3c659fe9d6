"use client";
// A question as an interactive card: the prompt, who it is for, the countdown to its expiry and what
// happens then, the controls to answer it (only when the server says `can.answer`), and once decided,
// how it ended. The timeline (question-message.tsx) and the Needs-you page both show it.
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { QuestionForViewer, QuestionView } from "@switchboard/sdk/questions";
import { Markdown } from "@/components/rooms/markdown";
import { useNamedHandles } from "@/components/rooms/mention-handles";
import { appErrorOf } from "@/components/ui/errors";
import { AlertIcon, BanIcon, CheckCircleIcon, ClockIcon, XIcon } from "@/components/ui/icons";
import { relativeTime, dateTime } from "@/components/ui/time";
import { AnswerControls } from "./answer-controls";
import { audienceLabel, countdownLabel, fieldOfError, outcomeLabel, outcomeTone } from "./question-text";
import { useNow, useQuestionMutations } from "./use-questions";

type Can = QuestionForViewer["can"];
type Notice = { tone: "error" | "info"; text: string } | null;

export function QuestionCard({
  question: q,
  can,
  meId,
  meHandle,
  header,
}: {
  question: QuestionView;
  can: Can | null;
  meId: string;
  meHandle: string;
  header?: ReactNode;
}) {
  const { answer, cancel, reload } = useQuestionMutations();
  const [notice, setNotice] = useState<Notice>(null);
  const [fieldError, setFieldError] = useState<{ field: string; reason: string } | null>(null);
  const [lost, setLost] = useState(false);
  const now = useNow(q.status === "open" ? q.expiresAt : null);
  const open = q.status === "open";
  const pastDeadline = open && !!q.expiresAt && new Date(q.expiresAt).getTime() <= now;
  const answerable = open && !pastDeadline && can?.answer === true;
  const busy = answer.isPending || cancel.isPending;
  const promptMentions = useNamedHandles(q.prompt);

  // Keyboard users keep their place: once the controls give way to the outcome, focus moves there.
  const outcomeRef = useRef<HTMLDivElement>(null);
  const hadFocus = useRef(false);
  useEffect(() => {
    if (!open && hadFocus.current) outcomeRef.current?.focus();
  }, [open]);

  const onError = (error: unknown) => {
    const e = appErrorOf(error);
    if (e.code === "CONFLICT" || e.code === "EXPIRED") {
      // Someone (or the clock) decided first: show how it ended instead.
      setLost(true);
      setNotice(e.code === "EXPIRED" ? { tone: "info", text: "Too late: this question expired before your answer arrived." } : null);
      reload(q);
      return;
    }
    const field = e.code === "INVALID_PAYLOAD" ? fieldOfError(e.message) : null;
    setFieldError(field);
    setNotice(field ? null : { tone: "error", text: e.message });
  };
  const send = (value: unknown) => {
    hadFocus.current = true;
    setNotice(null);
    setFieldError(null);
    answer.mutate({ questionId: q.id, answer: value }, { onError });
  };
  const withdraw = () => {
    setNotice(null);
    cancel.mutate(
      { questionId: q.id },
      { onError: (e) => (appErrorOf(e).code === "CONFLICT" ? reload(q) : setNotice({ tone: "error", text: appErrorOf(e).message })) },
    );
  };

  const countdown = open ? countdownLabel(q, now) : null;
  const accent = !open ? "border-l-zinc-300" : answerable ? "border-l-indigo-500" : "border-l-amber-400";

  return (
    <section
      tabIndex={-1}
      className={`rounded-lg border focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 border-l-4 border-zinc-200 bg-white shadow-xs ${accent}`}
      data-testid="question-card"
      data-question-id={q.id}
      data-kind={q.kind}
      data-status={q.status}
      data-can-answer={answerable ? "true" : "false"}
      aria-label={`Question from ${q.asker.displayName}`}
    >
      {header}
      <div className="space-y-3 px-4 py-3">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
          <span className="inline-flex items-center rounded bg-indigo-50 px-1.5 py-px font-semibold tracking-wide text-indigo-700 uppercase ring-1 ring-indigo-200 ring-inset">
            Question
          </span>
          <span className="font-medium text-zinc-600" data-testid="question-audience">
            {audienceLabel(q, meId)}
          </span>
          {countdown && (
            <span
              className={`ml-auto inline-flex items-center gap-1 rounded-full px-2 py-0.5 font-medium ring-1 ring-inset ${
                q.expiresAt && new Date(q.expiresAt).getTime() - now < 5 * 60_000
                  ? "bg-amber-50 text-amber-800 ring-amber-200"
                  : "bg-zinc-50 text-zinc-600 ring-zinc-200"
              }`}
              title={q.expiresAt ? `Expires ${dateTime(q.expiresAt)}` : undefined}
              data-testid="question-countdown"
              role="timer"
            >
              <ClockIcon size={12} /> {countdown}
            </span>
          )}
        </div>
        <div className="text-zinc-900" data-testid="question-prompt">
          <Markdown body={q.prompt} meHandle={meHandle} mentions={promptMentions} />
        </div>

        {answerable && (
          <div onFocusCapture={() => (hadFocus.current = true)} data-testid="question-controls">
            <AnswerControls question={q} busy={busy} onAnswer={send} fieldError={fieldError} />
          </div>
        )}
        {open && !answerable && can !== null && !pastDeadline && (
          <p className="text-sm text-zinc-500" data-testid="question-waiting">
            Waiting for an answer{q.audience.type === "room" ? " from someone here" : ""}.
          </p>
        )}
        {!open && <Outcome question={q} meId={meId} lost={lost} ref={outcomeRef} />}

        {notice && (
          <p
            role="alert"
            data-testid="question-error"
            className={`flex items-start gap-1.5 text-sm ${notice.tone === "error" ? "text-rose-700" : "text-zinc-600"}`}
          >
            <AlertIcon size={15} className="mt-0.5 shrink-0" /> {notice.text}
          </p>
        )}
        {open && can?.cancel && (
          <div className="flex justify-end border-t border-zinc-100 pt-2">
            <button
              type="button"
              onClick={withdraw}
              disabled={busy}
              data-testid="question-cancel"
              className="rounded px-1.5 py-0.5 text-xs font-medium text-zinc-500 hover:bg-zinc-100 hover:text-rose-700 disabled:opacity-50"
            >
              {cancel.isPending ? "Cancelling…" : "Cancel question"}
            </button>
          </div>
        )}
      </div>
    </section>
  );
}

const TONE = {
  positive: { box: "bg-emerald-50 text-emerald-900 ring-emerald-200", icon: <CheckCircleIcon size={16} className="text-emerald-600" /> },
  negative: { box: "bg-rose-50 text-rose-900 ring-rose-200", icon: <XIcon size={16} className="text-rose-600" /> },
  neutral: { box: "bg-zinc-50 text-zinc-700 ring-zinc-200", icon: <BanIcon size={16} className="text-zinc-500" /> },
};

function Outcome({ question: q, meId, lost, ref }: { question: QuestionView; meId: string; lost: boolean; ref: React.Ref<HTMLDivElement> }) {
  const label = outcomeLabel(q, meId);
  if (!label) return null;
  const tone = TONE[outcomeTone(q)];
  const before = lost && q.status === "answered" && q.answeredBy && q.answeredBy.id !== meId ? `Already answered by @${q.answeredBy.handle}` : null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className={`rounded-md px-3 py-2 text-sm ring-1 ring-inset focus:outline-none ${tone.box}`}
      data-testid="question-outcome"
      data-status={q.status}
    >
      {before && (
        <p className="mb-1 text-xs font-medium opacity-80" data-testid="question-conflict">
          {before}
        </p>
      )}
      <p className="flex items-start gap-2">
        <span className="mt-0.5 shrink-0">{tone.icon}</span>
        <span className="min-w-0">
          <span className="font-semibold" data-testid="question-outcome-headline">
            {label.headline}
          </span>
          {q.answeredAt && (
            <time className="ml-1 text-xs opacity-70" dateTime={q.answeredAt} title={dateTime(q.answeredAt)}>
              · {relativeTime(q.answeredAt)}
            </time>
          )}
          {q.answer && "values" in q.answer ? (
            <FormValues question={q} values={q.answer.values} />
          ) : (
            label.detail && (
              <span className="block break-words whitespace-pre-wrap" data-testid="question-outcome-detail">
                {label.detail}
              </span>
            )
          )}
        </span>
      </p>
    </div>
  );
}

/** A form's answer as label / value pairs: booleans as Yes / No, enum values by their option's label. */
function FormValues({ question: q, values }: { question: QuestionView; values: Record<string, string | number | boolean> }) {
  return (
    <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5" data-testid="question-outcome-values">
      {(q.fields ?? [])
        .filter((f) => values[f.name] !== undefined)
        .map((f) => {
          const v = values[f.name];
          const shown = typeof v === "boolean" ? (v ? "Yes" : "No") : (f.options?.find((o) => o.value === v)?.label ?? String(v));
          return (
            <div key={f.name} className="contents">
              <dt className="opacity-75">{f.label}</dt>
              <dd className="font-medium break-words" data-field={f.name}>
                {shown}
              </dd>
            </div>
          );
        })}
    </dl>
  );
}
