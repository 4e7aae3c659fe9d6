"use client";
// A segmented control (a radio group that looks like joined buttons): ranges, buckets, chart modes.
import { useRef, type KeyboardEvent, type ReactNode } from "react";

export interface SegmentedOption<K extends string> {
  key: K;
  label: ReactNode;
  title?: string;
}

export function Segmented<K extends string>({
  options,
  value,
  onChange,
  label,
  testId,
  size = "sm",
}: {
  options: SegmentedOption<K>[];
  value: K;
  onChange: (key: K) => void;
  label: string;
  testId?: string;
  size?: "xs" | "sm";
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (e: KeyboardEvent, index: number) => {
    const last = options.length - 1;
    const next =
      e.key === "ArrowRight" || e.key === "ArrowDown"
        ? index === last
          ? 0
          : index + 1
        : e.key === "ArrowLeft" || e.key === "ArrowUp"
          ? index === 0
            ? last
            : index - 1
          : -1;
    if (next < 0) return;
    e.preventDefault();
    onChange(options[next].key);
    refs.current[next]?.focus();
  };
  return (
    <div
      role="radiogroup"
      aria-label={label}
      data-testid={testId}
      className="inline-flex shrink-0 items-center rounded-lg bg-zinc-100 p-0.5 ring-1 ring-zinc-200 ring-inset"
    >
      {options.map((o, i) => {
        const selected = o.key === value;
        return (
          <button
            key={o.key}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="radio"
            aria-checked={selected}
            tabIndex={selected ? 0 : -1}
            title={o.title}
            data-testid={testId ? `${testId}-${o.key}` : undefined}
            onClick={() => onChange(o.key)}
            onKeyDown={(e) => onKey(e, i)}
            className={`rounded-md font-medium whitespace-nowrap transition-colors ${size === "xs" ? "h-6 px-2 text-xs" : "h-7 px-2.5 text-[13px]"} ${
              selected ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200" : "text-zinc-600 hover:text-zinc-900"
            }`}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
