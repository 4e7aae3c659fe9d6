// Small rounded labels: statuses, frameworks, capabilities, counts.
import type { ReactNode } from "react";

export type Tone = "muted" | "zinc" | "indigo" | "emerald" | "amber" | "rose" | "violet" | "sky";

const TONES: Record<Tone, string> = {
  muted: "bg-white text-zinc-500 ring-zinc-200",
  zinc: "bg-zinc-100 text-zinc-700 ring-zinc-200",
  indigo: "bg-indigo-50 text-indigo-700 ring-indigo-200",
  emerald: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  amber: "bg-amber-50 text-amber-800 ring-amber-200",
  rose: "bg-rose-50 text-rose-700 ring-rose-200",
  violet: "bg-violet-50 text-violet-700 ring-violet-200",
  sky: "bg-sky-50 text-sky-700 ring-sky-200",
};

export function Pill({
  tone = "zinc",
  children,
  dot,
  className = "",
  title,
  testId,
}: {
  tone?: Tone;
  children: ReactNode;
  /** A leading status dot in the tone's colour. */
  dot?: boolean;
  className?: string;
  title?: string;
  testId?: string;
}) {
  return (
    <span
      title={title}
      data-testid={testId}
      className={`inline-flex max-w-full items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${TONES[tone]} ${className}`}
    >
      {dot && <span className="h-1.5 w-1.5 shrink-0 rounded-full bg-current opacity-80" aria-hidden="true" />}
      <span className="truncate">{children}</span>
    </span>
  );
}

/** A capability or other free-form tag: monospace-ish, quiet. */
export function Tag({ children, testId = "tag" }: { children: ReactNode; testId?: string }) {
  return (
    <span
      data-testid={testId}
      className="inline-flex max-w-[14rem] items-center rounded-md bg-zinc-100 px-1.5 py-0.5 font-mono text-[11px] text-zinc-700 ring-1 ring-zinc-200 ring-inset"
    >
      <span className="truncate">{children}</span>
    </span>
  );
}
