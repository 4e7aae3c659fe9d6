import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { SearchIcon } from "./icons";

export const inputClass =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs ring-1 ring-zinc-300 ring-inset placeholder:text-zinc-500 focus:ring-2 focus:ring-indigo-500 focus:outline-none disabled:bg-zinc-50";

export function Field({ label, hint, error, children }: { label: string; hint?: ReactNode; error?: string | null; children: ReactNode }) {
  return (
    <label className="block">
      <span className="mb-1.5 block text-sm font-medium text-zinc-800">{label}</span>
      {children}
      {error ? (
        <span className="mt-1 block text-xs text-rose-600">{error}</span>
      ) : hint ? (
        <span className="mt-1 block text-xs text-zinc-500">{hint}</span>
      ) : null}
    </label>
  );
}

export function TextInput(props: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...props} className={`${inputClass} ${props.className ?? ""}`} />;
}

/** A search box: a field of type search with the magnifier inside it. */
export function SearchField(props: Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  return (
    <div className="relative">
      <SearchIcon size={16} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-zinc-400" />
      <input {...props} type="search" className={`${inputClass} pl-9 ${props.className ?? ""}`} />
    </div>
  );
}

export function TextArea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea {...props} className={`${inputClass} resize-y ${props.className ?? ""}`} />;
}

/** A number of days from a short list; `never`, when given, labels 0 (no end). */
export function DaysSelect({
  value,
  onChange,
  days,
  never,
  testId,
}: {
  value: number;
  onChange: (days: number) => void;
  days: number[];
  never?: string;
  testId?: string;
}) {
  return (
    <select value={value} onChange={(e) => onChange(Number(e.target.value))} className={inputClass} data-testid={testId}>
      {never && <option value={0}>{never}</option>}
      {days.map((d) => (
        <option key={d} value={d}>
          {`${d} ${d === 1 ? "day" : "days"}`}
        </option>
      ))}
    </select>
  );
}

export function FormError({ message, testId = "form-error" }: { message: string | null; testId?: string }) {
  if (!message) return null;
  return (
    <div role="alert" data-testid={testId} className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-rose-200 ring-inset">
      {message}
    </div>
  );
}
