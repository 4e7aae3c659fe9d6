"use client";
// The controls that answer a question, one set per kind: buttons (single, approval), checkboxes
// (multiple), a textarea (text) and a small typed form (form). Each checks its answer with the same
// `answerSchema` the server uses before sending it; the server's INVALID_PAYLOAD lands on its field.
import { useEffect, useId, useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import { ANSWER_COMMENT_MAX, ANSWER_TEXT_MAX, answerSchema, type FormField, type QuestionView } from "@switchboard/sdk/questions";
import { Button, Spinner } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { CheckIcon, SendIcon, XIcon } from "@/components/ui/icons";

export interface ControlsProps {
  question: QuestionView;
  busy: boolean;
  /** Sends the answer; the card shows what the server said. */
  onAnswer: (answer: unknown) => void;
  /** A field the server refused, by name (form questions). */
  fieldError: { field: string; reason: string } | null;
}

export function AnswerControls(props: ControlsProps) {
  switch (props.question.kind) {
    case "single":
      return <SingleControls {...props} />;
    case "approval":
      return <ApprovalControls {...props} />;
    case "multiple":
      return <MultipleControls {...props} />;
    case "text":
      return <TextControls {...props} />;
    case "form":
      return <FormControls {...props} />;
  }
}

function SingleControls({ question: q, busy, onAnswer }: ControlsProps) {
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Options" data-testid="question-options">
      {(q.options ?? []).map((o) => (
        <Button
          key={o.value}
          variant="secondary"
          size="sm"
          disabled={busy}
          title={o.description}
          data-testid="question-option"
          data-value={o.value}
          onClick={() => {
            setChosen(o.value);
            onAnswer({ choice: o.value });
          }}
        >
          {busy && chosen === o.value && <Spinner className="h-3.5 w-3.5" />}
          {o.label}
        </Button>
      ))}
    </div>
  );
}

function ApprovalControls({ busy, onAnswer }: ControlsProps) {
  const [comment, setComment] = useState("");
  const [decision, setDecision] = useState<boolean | null>(null);
  const id = useId();
  const decide = (approved: boolean) => {
    setDecision(approved);
    onAnswer(comment.trim() ? { approved, comment: comment.trim() } : { approved });
  };
  return (
    <div className="space-y-2">
      <label htmlFor={`${id}-comment`} className="sr-only">
        Comment (optional)
      </label>
      <input
        id={`${id}-comment`}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        maxLength={ANSWER_COMMENT_MAX}
        placeholder="Add a comment (optional)"
        disabled={busy}
        data-testid="question-comment"
        className={`${inputClass} max-w-md`}
      />
      <div className="flex flex-wrap gap-2">
        <Button size="sm" disabled={busy} onClick={() => decide(true)} data-testid="question-approve">
          {busy && decision === true ? <Spinner className="h-3.5 w-3.5" /> : <CheckIcon size={15} />} Approve
        </Button>
        <Button variant="secondary" size="sm" disabled={busy} onClick={() => decide(false)} data-testid="question-decline">
          {busy && decision === false ? <Spinner className="h-3.5 w-3.5" /> : <XIcon size={15} />} Decline
        </Button>
      </div>
    </div>
  );
}

function SubmitRow({ busy, disabled, label = "Send answer", hint }: { busy: boolean; disabled?: boolean; label?: string; hint?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button type="submit" size="sm" disabled={busy || disabled} data-testid="question-submit">
        {busy ? <Spinner className="h-3.5 w-3.5" /> : <SendIcon size={14} />} {label}
      </Button>
      {hint && <span className="text-xs text-zinc-500">{hint}</span>}
    </div>
  );
}

function MultipleControls({ question: q, busy, onAnswer }: ControlsProps) {
  const [chosen, setChosen] = useState<string[]>([]);
  const toggle = (value: string) => setChosen((c) => (c.includes(value) ? c.filter((v) => v !== value) : [...c, value]));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // In the options' order, not the order they were ticked.
    if (chosen.length) onAnswer({ choices: (q.options ?? []).map((o) => o.value).filter((v) => chosen.includes(v)) });
  };
  return (
    <form onSubmit={submit} className="space-y-3">
      <fieldset className="space-y-1.5" disabled={busy}>
        <legend className="sr-only">Pick one or more</legend>
        {(q.options ?? []).map((o) => (
          <label key={o.value} className="flex cursor-pointer items-start gap-2.5 rounded-md px-2 py-1 -mx-2 hover:bg-zinc-50">
            <input
              type="checkbox"
              checked={chosen.includes(o.value)}
              onChange={() => toggle(o.value)}
              data-testid="question-choice"
              data-value={o.value}
              className="mt-0.5 h-4 w-4 rounded border-zinc-300 accent-indigo-600"
            />
            <span className="text-sm">
              <span className="font-medium text-zinc-800">{o.label}</span>
              {o.description && <span className="block text-xs text-zinc-500">{o.description}</span>}
            </span>
          </label>
        ))}
      </fieldset>
      <SubmitRow busy={busy} disabled={chosen.length === 0} hint={chosen.length === 0 ? "Pick at least one" : `${chosen.length} selected`} />
    </form>
  );
}

function TextControls({ busy, onAnswer }: ControlsProps) {
  const [text, setText] = useState("");
  const id = useId();
  const submit = () => {
    if (text.trim()) onAnswer({ text: text.trim() });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      className="space-y-2"
    >
      <label htmlFor={`${id}-text`} className="sr-only">
        Your answer
      </label>
      <textarea
        id={`${id}-text`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        rows={2}
        maxLength={ANSWER_TEXT_MAX}
        disabled={busy}
        placeholder="Type your answer…"
        data-testid="question-text"
        className={`${inputClass} resize-y`}
      />
      <SubmitRow busy={busy} disabled={!text.trim()} hint="Enter to send · Shift+Enter for a new line" />
    </form>
  );
}

type FormValue = string | boolean;

/** What the inputs hold, as the answer's typed values: numbers from number fields, nothing for blanks. */
function formAnswer(fields: FormField[], raw: Record<string, FormValue>) {
  const values: Record<string, string | number | boolean> = {};
  for (const f of fields) {
    const v = raw[f.name];
    if (f.type === "boolean") values[f.name] = v === true;
    else if (typeof v === "string" && v.trim() !== "") {
      const n = Number(v);
      values[f.name] = f.type === "number" || f.type === "integer" ? (Number.isNaN(n) ? v : n) : v;
    }
  }
  return { values };
}

function FormControls({ question: q, busy, onAnswer, fieldError }: ControlsProps) {
  const fields = q.fields ?? [];
  const [raw, setRaw] = useState<Record<string, FormValue>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const id = useId();
  const schema = answerSchema(q);
  // The server's refusal shows on its field until that field is edited.
  useEffect(() => {
    if (fieldError) setErrors((e) => ({ ...e, [fieldError.field]: fieldError.reason }));
  }, [fieldError]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const answer = formAnswer(fields, raw);
    const parsed = schema.safeParse(answer);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const name = issue.path[1];
        if (typeof name === "string" && !next[name]) next[name] = issue.message;
      }
      setErrors(next);
      const first = fields.find((f) => next[f.name]);
      if (first) document.getElementById(`${id}-${first.name}`)?.focus();
      return;
    }
    setErrors({});
    onAnswer(parsed.data);
  };
  const set = (name: string, v: FormValue) => {
    setRaw((r) => ({ ...r, [name]: v }));
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-testid="question-form">
      <div className="grid gap-3 sm:grid-cols-2">
        {fields.map((f) => (
          <FormFieldInput
            key={f.name}
            id={`${id}-${f.name}`}
            field={f}
            value={raw[f.name]}
            onChange={(v) => set(f.name, v)}
            error={errors[f.name] ?? null}
            disabled={busy}
          />
        ))}
      </div>
      <SubmitRow busy={busy} label="Submit" />
    </form>
  );
}

function FormFieldInput({
  id,
  field: f,
  value,
  onChange,
  error,
  disabled,
}: {
  id: string;
  field: FormField;
  value: FormValue | undefined;
  onChange: (v: FormValue) => void;
  error: string | null;
  disabled: boolean;
}) {
  const described = error ? `${id}-error` : f.description ? `${id}-hint` : undefined;
  const common = {
    id,
    name: f.name,
    disabled,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": described,
    "aria-required": f.required || undefined,
    "data-testid": "question-field",
    "data-field": f.name,
  };
  const ring = error ? "ring-rose-400 focus:ring-rose-500" : "";
  const bounds = [
    f.min !== undefined ? `min ${f.min}` : null,
    f.max !== undefined ? `max ${f.max}` : null,
    f.minLength !== undefined ? `at least ${f.minLength} characters` : null,
    f.maxLength !== undefined ? `up to ${f.maxLength} characters` : null,
  ].filter(Boolean);
  const label = (
    <span className="mb-1 block text-sm font-medium text-zinc-800">
      {f.label}
      {f.required && (
        <span className="ml-0.5 text-rose-600" aria-hidden="true">
          *
        </span>
      )}
      {bounds.length > 0 && <span className="ml-1.5 text-xs font-normal text-zinc-500">({bounds.join(", ")})</span>}
    </span>
  );
  const below = error ? (
    <span id={`${id}-error`} className="mt-1 block text-xs text-rose-600" data-testid="question-field-error" data-field={f.name}>
      {error}
    </span>
  ) : f.description ? (
    <span id={`${id}-hint`} className="mt-1 block text-xs text-zinc-500">
      {f.description}
    </span>
  ) : null;

  if (f.type === "boolean") {
    return (
      <div className="sm:col-span-2">
        <label htmlFor={id} className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-zinc-800">
          <input
            {...common}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
            className="h-4 w-4 rounded border-zinc-300 accent-indigo-600"
          />
          {f.label}
        </label>
        {below}
      </div>
    );
  }
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      {f.type === "enum" ? (
        <select {...common} value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value)} className={`${inputClass} ${ring}`}>
          <option value="">Choose…</option>
          {(f.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={f.type === "string" ? "text" : "number"}
          inputMode={f.type === "integer" ? "numeric" : f.type === "number" ? "decimal" : undefined}
          step={f.type === "integer" ? 1 : f.type === "number" ? "any" : undefined}
          min={f.min}
          max={f.max}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value)}
          className={`${inputClass} ${ring}`}
        />
      )}
      {below}
    </div>
  );
}
