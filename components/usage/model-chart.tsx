"use client";
// Spend by model as a donut with a ranked legend; a legend entry filters the dashboard to that model.
import { Cell, Pie, PieChart, ResponsiveContainer, Tooltip } from "recharts";
import { CpuIcon } from "@/components/ui/usage-icons";
import { formatShare, formatTokens, formatUsd } from "./format";
import { Card, CsvButton } from "./parts";
import type { BreakdownRow } from "./types";

export const MODEL_COLORS = ["#6366f1", "#a78bfa", "#38bdf8", "#34d399", "#fbbf24", "#fb7185"];
const OTHER = "#d4d4d8";

export function ModelChart({
  rows,
  total,
  onPick,
  onExport,
  exporting,
}: {
  rows: BreakdownRow[];
  total: number;
  onPick: (model: string) => void;
  onExport: () => void;
  exporting: boolean;
}) {
  const top = rows.slice(0, MODEL_COLORS.length);
  const rest = rows.slice(MODEL_COLORS.length);
  const slices = [
    ...top.map((r, i) => ({
      key: r.name || "(unnamed)",
      model: r.id,
      value: r.costUsd,
      tokens: r.inputTokens + r.outputTokens,
      unpricedCalls: r.unpricedCalls,
      color: MODEL_COLORS[i],
    })),
    ...(rest.length
      ? [
          {
            key: `${rest.length} more`,
            model: null,
            value: rest.reduce((s, r) => s + r.costUsd, 0),
            tokens: rest.reduce((s, r) => s + r.inputTokens + r.outputTokens, 0),
            unpricedCalls: rest.reduce((s, r) => s + r.unpricedCalls, 0),
            color: OTHER,
          },
        ]
      : []),
  ];
  const pieData = slices.filter((s) => s.value > 0);
  return (
    <Card
      title="Spend by model"
      icon={<CpuIcon size={15} />}
      subtitle={`${rows.length} model${rows.length === 1 ? "" : "s"}`}
      testId="model-card"
      actions={<CsvButton onClick={onExport} busy={exporting} testId="export-byModel" />}
    >
      <div className="flex flex-col items-center gap-3">
        <div className="relative h-40 w-40 shrink-0">
          {pieData.length > 0 ? (
            <ResponsiveContainer width="100%" height="100%">
              <PieChart>
                <Pie
                  data={pieData}
                  dataKey="value"
                  nameKey="key"
                  innerRadius={50}
                  outerRadius={76}
                  paddingAngle={pieData.length > 1 ? 2 : 0}
                  stroke="none"
                  animationDuration={500}
                >
                  {pieData.map((s) => (
                    <Cell key={s.key} fill={s.color} />
                  ))}
                </Pie>
                <Tooltip
                  content={({ active, payload }) => {
                    const s = payload?.[0]?.payload as (typeof slices)[number] | undefined;
                    if (!active || !s) return null;
                    return (
                      <div className="rounded-lg bg-zinc-900 px-2.5 py-1.5 text-xs text-zinc-200 shadow-xl">
                        <div className="font-semibold text-white">{s.key}</div>
                        {formatUsd(s.value)} · {formatShare(total ? s.value / total : 0)}
                      </div>
                    );
                  }}
                />
              </PieChart>
            </ResponsiveContainer>
          ) : (
            <div className="h-full w-full rounded-full border-[24px] border-zinc-100" />
          )}
          <div className="pointer-events-none absolute inset-0 flex flex-col items-center justify-center">
            <span className="text-[11px] text-zinc-500">total</span>
            <span className="text-sm font-semibold text-zinc-900 tabular-nums">{formatUsd(total)}</span>
          </div>
        </div>
        <ul className="w-full space-y-0.5" data-testid="model-legend">
          {slices.map((s) => (
            <li key={s.key}>
              <button
                type="button"
                disabled={!s.model}
                onClick={() => s.model && onPick(s.model)}
                title={s.model ? `Show only ${s.key}` : undefined}
                className="flex w-full items-center gap-2 rounded-md px-1.5 py-1 text-left text-[13px] enabled:hover:bg-zinc-50"
              >
                <span className="h-2.5 w-2.5 shrink-0 rounded-sm" style={{ background: s.color }} />
                <span className="min-w-0 flex-1 truncate font-mono text-[12px] text-zinc-700">{s.key}</span>
                {s.unpricedCalls > 0 && (
                  <span
                    className="rounded bg-amber-50 px-1 text-[10px] font-semibold text-amber-700 ring-1 ring-amber-200 ring-inset"
                    title={`${s.unpricedCalls} call${s.unpricedCalls === 1 ? "" : "s"} had no price and no reported cost: counted as $0`}
                    data-testid="model-unpriced"
                  >
                    unpriced
                  </span>
                )}
                <span className="text-xs text-zinc-500 tabular-nums">{formatTokens(s.tokens)} tok</span>
                <span className="w-16 text-right font-medium text-zinc-800 tabular-nums">{formatUsd(s.value)}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
