"use client";
// Accessible tabs: a tablist with roving focus (Left/Right/Home/End), each tab with an optional count.
import { useRef, type KeyboardEvent, type ReactNode } from "react";

export interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
  icon?: ReactNode;
  count?: number;
}

export function Tabs<K extends string>({
  tabs,
  active,
  onChange,
  label,
  idPrefix = "tab",
}: {
  tabs: TabItem<K>[];
  active: K;
  onChange: (key: K) => void;
  label: string;
  idPrefix?: string;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (e: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const next =
      e.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : e.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? last
              : -1;
    if (next < 0) return;
    e.preventDefault();
    onChange(tabs[next].key);
    refs.current[next]?.focus();
  };
  // On a phone the tabs wrap onto a second line rather than hide past the edge.
  return (
    <div role="tablist" aria-label={label} className="scroll-quiet -mb-px flex gap-1 overflow-x-auto max-sm:flex-wrap max-sm:gap-x-0">
      {tabs.map((t, i) => {
        const selected = t.key === active;
        return (
          <button
            key={t.key}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-${t.key}`}
            aria-selected={selected}
            aria-controls={`${idPrefix}-${t.key}-panel`}
            tabIndex={selected ? 0 : -1}
            data-testid={`tab-${t.key}`}
            onClick={() => onChange(t.key)}
            onKeyDown={(e) => onKey(e, i)}
            className={`inline-flex h-10 shrink-0 items-center gap-1.5 border-b-2 px-3 text-sm font-medium whitespace-nowrap transition-colors ${
              selected ? "border-indigo-600 text-indigo-700" : "border-transparent text-zinc-500 hover:border-zinc-300 hover:text-zinc-800"
            }`}
          >
            {t.icon && <span className="opacity-80">{t.icon}</span>}
            {t.label}
            {t.count !== undefined && t.count > 0 && (
              <span
                data-testid={`tab-${t.key}-count`}
                className={`inline-flex h-[18px] min-w-[18px] items-center justify-center rounded-full px-1.5 text-[11px] font-semibold ${
                  selected ? "bg-indigo-600 text-white" : "bg-zinc-200 text-zinc-700"
                }`}
              >
                {t.count}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}

export function TabPanel({ id, idPrefix = "tab", children }: { id: string; idPrefix?: string; children: ReactNode }) {
  return (
    <div role="tabpanel" id={`${idPrefix}-${id}-panel`} aria-labelledby={`${idPrefix}-${id}`} data-testid={`panel-${id}`}>
      {children}
    </div>
  );
}
