"use client";
// The dashboard's controls: the range (presets or custom from–to), the bucket, and the filters that
// every widget (and every CSV export) follows.
import { useState } from "react";
import { Segmented } from "@/components/ui/segmented";
import { FilterIcon } from "@/components/ui/extra-icons";
import { XIcon } from "@/components/ui/icons";
import { PRESET_LABELS, rangeLabel, todayUtc, type Bucket, type RangePreset } from "./format";
import { type FilterKey, type useUsageParams } from "./use-usage-params";

export interface FilterOption {
  value: string;
  label: string;
}
export type FilterOptions = Record<FilterKey, FilterOption[]>;

// Two filters pick a person, so theirs say which way round: the agents' owner, or who asked.
const FILTER_LABELS: Record<FilterKey, { all: string; name: string; prefix?: string }> = {
  agent: { all: "All agents", name: "Agent" },
  person: { all: "Any owner", name: "Owned by", prefix: "Owned by " },
  requester: { all: "Anyone's requests", name: "Requested by", prefix: "Requested by " },
  room: { all: "All rooms", name: "Room" },
  task: { all: "All tasks", name: "Task" },
  model: { all: "All models", name: "Model" },
};

const PRESETS: RangePreset[] = ["7d", "30d", "90d", "month", "custom"];
const SHORT: Record<RangePreset, string> = { "7d": "7D", "30d": "30D", "90d": "90D", month: "This month", custom: "Custom" };

export function UsageToolbar({
  params,
  options,
  keys,
  onClear,
}: {
  params: ReturnType<typeof useUsageParams>;
  options: FilterOptions;
  /** The filters this viewer may pick (a member's scope fixes the others). */
  keys: readonly FilterKey[];
  /** Clears those filters, and only those. */
  onClear: () => void;
}) {
  const active = keys.filter((k) => params.filters[k]);
  // On a phone the filters fold behind a button (they take a screen there); wider, they always show.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const dateClass =
    "h-8 rounded-md border-0 bg-white px-2 text-[13px] text-zinc-800 shadow-xs ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-indigo-500 focus:outline-none";
  return (
    <div className="rounded-xl border border-zinc-200 bg-white/95 px-3 py-2.5 shadow-xs backdrop-blur" data-testid="usage-toolbar">
      <div className="flex flex-wrap items-center gap-2">
        <Segmented
          label="Date range"
          testId="range"
          value={params.preset}
          onChange={params.setPreset}
          options={PRESETS.map((p) => ({ key: p, label: SHORT[p], title: PRESET_LABELS[p] }))}
        />
        {params.preset === "custom" && (
          <div className="flex items-center gap-1.5 text-xs text-zinc-500" data-testid="custom-range">
            <input
              type="date"
              aria-label="From"
              data-testid="range-from"
              className={dateClass}
              value={params.range.from}
              max={params.range.to}
              onChange={(e) => e.target.value && params.setCustom({ from: e.target.value })}
            />
            <span>to</span>
            <input
              type="date"
              aria-label="To"
              data-testid="range-to"
              className={dateClass}
              value={params.range.to}
              min={params.range.from}
              max={todayUtc()}
              onChange={(e) => e.target.value && params.setCustom({ to: e.target.value })}
            />
          </div>
        )}
        <span className="mx-1 h-5 w-px bg-zinc-200 max-sm:hidden" aria-hidden="true" />
        <Segmented<Bucket>
          label="Group by"
          testId="bucket"
          value={params.bucket}
          onChange={params.setBucket}
          options={[
            { key: "day", label: "Day" },
            { key: "week", label: "Week" },
            { key: "month", label: "Month" },
          ]}
        />
        <button
          type="button"
          onClick={() => setFiltersOpen((open) => !open)}
          aria-expanded={filtersOpen}
          aria-controls="usage-filters"
          data-testid="toggle-filters"
          className={`inline-flex h-8 items-center gap-1 rounded-md px-2.5 text-[13px] font-medium shadow-xs ring-1 ring-inset sm:hidden ${
            active.length > 0 ? "bg-indigo-50 text-indigo-800 ring-indigo-300" : "bg-white text-zinc-700 ring-zinc-300"
          }`}
        >
          <FilterIcon size={13} /> Filters{active.length > 0 ? ` · ${active.length}` : ""}
        </button>
        <span className="ml-auto text-xs text-zinc-500 tabular-nums max-md:hidden" data-testid="range-label">
          {rangeLabel(params.range)} <span className="text-zinc-500">· UTC days</span>
        </span>
      </div>
      <div
        id="usage-filters"
        className={`mt-2 flex-wrap items-center gap-1.5 border-t border-zinc-100 pt-2 ${filtersOpen ? "flex" : "hidden sm:flex"}`}
        role="group"
        aria-label="Filters"
        data-testid="usage-filters"
      >
        <span className="mr-1 inline-flex items-center gap-1 text-xs font-medium text-zinc-500">
          <FilterIcon size={13} /> Filter
        </span>
        {keys.map((k) => (
          <FilterSelect key={k} filter={k} value={params.filters[k]} options={options[k]} onChange={(v) => params.setFilter(k, v)} />
        ))}
        {active.length > 0 && (
          <button
            type="button"
            onClick={onClear}
            data-testid="clear-filters"
            className="inline-flex h-8 items-center gap-1 rounded-md px-2 text-[13px] font-medium text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800"
          >
            <XIcon size={14} /> Clear {active.length > 1 ? `${active.length} filters` : "filter"}
          </button>
        )}
      </div>
    </div>
  );
}

function FilterSelect({
  filter,
  value,
  options,
  onChange,
}: {
  filter: FilterKey;
  value?: string;
  options: FilterOption[];
  onChange: (v: string | null) => void;
}) {
  const label = FILTER_LABELS[filter];
  const list = value && !options.some((o) => o.value === value) ? [{ value, label: value }, ...options] : options;
  const on = !!value;
  return (
    <label className="relative inline-flex">
      <span className="sr-only">{label.name}</span>
      <select
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || null)}
        data-testid={`filter-${filter}`}
        disabled={!on && options.length === 0}
        title={options.length === 0 && !on ? `${label.name}: nothing with usage in this range` : undefined}
        className={`h-8 max-w-[13rem] cursor-pointer appearance-none truncate rounded-md border-0 py-0 pr-7 pl-2.5 text-[13px] shadow-xs ring-1 ring-inset focus:ring-2 focus:ring-indigo-500 focus:outline-none disabled:cursor-not-allowed disabled:opacity-50 ${
          on ? "bg-indigo-50 font-medium text-indigo-800 ring-indigo-300" : "bg-white text-zinc-700 ring-zinc-300"
        }`}
      >
        <option value="">{label.all}</option>
        {list.map((o) => (
          <option key={o.value} value={o.value}>
            {`${label.prefix ?? ""}${o.label}`}
          </option>
        ))}
      </select>
      <svg
        className={`pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 ${on ? "text-indigo-500" : "text-zinc-500"}`}
        width="12"
        height="12"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.25"
        aria-hidden="true"
      >
        <path d="m6 9 6 6 6-6" />
      </svg>
    </label>
  );
}
