"use client";
// Spend, tokens or calls over time (recharts), one bucket per day, week or month with empty buckets
// drawn as zero. A visually hidden table carries the same numbers for screen readers and tests.
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, ComposedChart, Line, Rectangle, ResponsiveContainer, Tooltip, XAxis, YAxis, type BarShapeProps } from "recharts";
import { Segmented } from "@/components/ui/segmented";
import { ChartIcon } from "@/components/ui/usage-icons";
import { bucketLabel, bucketTick, formatInt, formatTokens, formatUsd, formatUsdCompact, type Bucket } from "./format";
import { Card, CsvButton } from "./parts";
import type { SeriesPoint } from "./types";

type Mode = "spend" | "tokens" | "calls";
export type ChartPoint = SeriesPoint & { uncachedTokens: number; cumulative?: number };

const AXIS = { fontSize: 11, fill: "#71717a" };
/** Both charts' time axis: one tick per bucket, spaced so that labels never overlap. */
const timeAxis = (bucket: Bucket) => ({
  dataKey: "bucket",
  tickFormatter: (k: string) => bucketTick(k, bucket),
  tick: AXIS,
  tickLine: false,
  axisLine: { stroke: "#e4e4e7" },
  minTickGap: 28,
});

export function UsageChart({ series, bucket, onExport, exporting }: { series: ChartPoint[]; bucket: Bucket; onExport: () => void; exporting: boolean }) {
  const [mode, setMode] = useState<Mode>("spend");
  const nonZero = series.filter((p) => p.calls > 0);
  const total = series.reduce((s, p) => s + p.costUsd, 0);
  const title = mode === "spend" ? "Spend over time" : mode === "tokens" ? "Tokens over time" : "Model calls over time";
  const every = bucket === "day" ? "per day" : bucket === "week" ? "per week" : "per month";
  let running = 0;
  const withCumulative = series.map((p) => ({ ...p, cumulative: (running += p.costUsd) }));
  const peak = nonZero.reduce<ChartPoint | null>((m, p) => (!m || p.costUsd > m.costUsd ? p : m), null);

  return (
    <Card
      title={title}
      icon={<ChartIcon size={15} />}
      subtitle={peak ? `${every} · peak ${formatUsd(peak.costUsd)} on ${bucketLabel(peak.bucket, bucket)}` : every}
      testId="usage-chart-card"
      className="h-full"
      bodyClassName="flex flex-col"
      actions={
        <>
          <Segmented<Mode>
            label="Chart"
            size="xs"
            testId="chart-mode"
            value={mode}
            onChange={setMode}
            options={[
              { key: "spend", label: "Spend" },
              { key: "tokens", label: "Tokens" },
              { key: "calls", label: "Calls" },
            ]}
          />
          <CsvButton onClick={onExport} busy={exporting} testId="export-series" />
        </>
      }
    >
      <div className="min-h-64 flex-1" data-testid="usage-chart" data-mode={mode} data-points={nonZero.length} data-total={total} data-buckets={series.length}>
        <ResponsiveContainer width="100%" height="100%">
          {mode === "spend" ? (
            <ComposedChart data={withCumulative} margin={{ top: 10, right: 4, bottom: 0, left: 0 }} barCategoryGap={series.length > 40 ? 1 : "22%"}>
              <defs>
                <linearGradient id="usage-spend-bar" x1="0" y1="0" x2="0" y2="1">
                  <stop offset="0%" stopColor="#6366f1" />
                  <stop offset="100%" stopColor="#818cf8" />
                </linearGradient>
              </defs>
              <CartesianGrid vertical={false} stroke="#f4f4f5" />
              <XAxis {...timeAxis(bucket)} />
              <YAxis yAxisId="spend" tickFormatter={(v: number) => formatUsdCompact(v)} tick={AXIS} tickLine={false} axisLine={false} width={52} />
              <YAxis
                yAxisId="total"
                orientation="right"
                tickFormatter={(v: number) => formatUsdCompact(v)}
                tick={{ ...AXIS, fill: "#a1a1aa" }}
                tickLine={false}
                axisLine={false}
                width={48}
              />
              <Tooltip
                content={(p) => <ChartTooltip active={p.active} point={p.payload?.[0]?.payload as ChartPoint | undefined} bucket={bucket} mode="spend" />}
                cursor={{ fill: "#eef2ff", opacity: 0.7 }}
              />
              <Bar
                yAxisId="spend"
                dataKey="costUsd"
                name="Spend"
                fill="url(#usage-spend-bar)"
                maxBarSize={36}
                animationDuration={450}
                shape={(props: BarShapeProps) => {
                  const p = props.payload as ChartPoint | undefined;
                  return (
                    <g key={`b-${props.index}`} data-testid={p && p.costUsd > 0 ? "chart-point" : undefined} data-bucket={p?.bucket}>
                      <Rectangle {...props} radius={[4, 4, 0, 0]} />
                    </g>
                  );
                }}
              />
              <Line
                yAxisId="total"
                type="monotone"
                dataKey="cumulative"
                name="Cumulative"
                stroke="#a1a1aa"
                strokeWidth={1.5}
                strokeDasharray="4 3"
                dot={false}
                activeDot={{ r: 3, fill: "#71717a", stroke: "#fff" }}
                animationDuration={450}
              />
            </ComposedChart>
          ) : (
            <BarChart data={series} margin={{ top: 10, right: 8, bottom: 0, left: 0 }} barCategoryGap={series.length > 40 ? 1 : "20%"}>
              <CartesianGrid vertical={false} stroke="#f4f4f5" />
              <XAxis {...timeAxis(bucket)} />
              <YAxis
                tickFormatter={(v: number) => (mode === "tokens" ? formatTokens(v) : formatInt(v))}
                tick={AXIS}
                tickLine={false}
                axisLine={false}
                width={52}
                allowDecimals={false}
              />
              <Tooltip
                content={(p) => <ChartTooltip active={p.active} point={p.payload?.[0]?.payload as ChartPoint | undefined} bucket={bucket} mode={mode} />}
                cursor={{ fill: "#eef2ff", opacity: 0.6 }}
              />
              {mode === "tokens" ? (
                <>
                  <Bar dataKey="uncachedTokens" name="Input" stackId="t" fill="#6366f1" animationDuration={400} />
                  <Bar dataKey="cachedTokens" name="Cached input" stackId="t" fill="#38bdf8" animationDuration={400} />
                  <Bar dataKey="outputTokens" name="Output" stackId="t" fill="#a78bfa" radius={[3, 3, 0, 0]} animationDuration={400} />
                </>
              ) : (
                <Bar dataKey="calls" name="Calls" fill="#6366f1" radius={[3, 3, 0, 0]} animationDuration={400} />
              )}
            </BarChart>
          )}
        </ResponsiveContainer>
      </div>
      <div className="mt-2 flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs text-zinc-500">
        {mode === "spend" && (
          <>
            <Legend color="bg-indigo-500" label={`Spend ${every}`} />
            <span className="inline-flex items-center gap-1.5">
              <span className="w-3 border-t-[1.5px] border-dashed border-zinc-400" />
              Running total (right axis)
            </span>
          </>
        )}
        {mode === "tokens" && (
          <>
            <Legend color="bg-indigo-500" label="Input (uncached)" />
            <Legend color="bg-sky-400" label="Cached input" />
            <Legend color="bg-violet-400" label="Output" />
          </>
        )}
        {mode === "calls" && <Legend color="bg-indigo-500" label={`Model calls ${every}`} />}
      </div>
      <table className="sr-only" data-testid="usage-series-table">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{bucket}</th>
            <th scope="col">Spend</th>
            <th scope="col">Input tokens</th>
            <th scope="col">Output tokens</th>
            <th scope="col">Cached tokens</th>
            <th scope="col">Calls</th>
          </tr>
        </thead>
        <tbody>
          {nonZero.map((p) => (
            <tr key={p.bucket} data-testid="series-row" data-bucket={p.bucket} data-cost={p.costUsd}>
              <th scope="row">{bucketLabel(p.bucket, bucket)}</th>
              <td>{formatUsd(p.costUsd)}</td>
              <td>{p.inputTokens}</td>
              <td>{p.outputTokens}</td>
              <td>{p.cachedTokens}</td>
              <td>{p.calls}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span className={`h-2 w-2 rounded-sm ${color}`} />
      {label}
    </span>
  );
}

function ChartTooltip({ active, point: p, bucket, mode }: { active: boolean; point: ChartPoint | undefined; bucket: Bucket; mode: Mode }) {
  if (!active || !p) return null;
  return (
    <div className="min-w-44 rounded-lg bg-zinc-900 px-3 py-2 text-xs text-zinc-200 shadow-xl ring-1 ring-zinc-800">
      <div className="mb-1 font-semibold text-white">{bucketLabel(p.bucket, bucket)}</div>
      <Row label="Spend" value={formatUsd(p.costUsd)} strong={mode === "spend"} />
      <Row label="Input tokens" value={formatInt(p.inputTokens)} strong={mode === "tokens"} />
      <Row label="  cached" value={formatInt(p.cachedTokens)} />
      <Row label="Output tokens" value={formatInt(p.outputTokens)} strong={mode === "tokens"} />
      <Row label="Calls" value={formatInt(p.calls)} strong={mode === "calls"} />
      {mode === "spend" && p.cumulative !== undefined && (
        <div className="mt-1 border-t border-zinc-700 pt-1">
          <Row label="Running total" value={formatUsd(p.cumulative)} />
        </div>
      )}
    </div>
  );
}

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="flex justify-between gap-4 tabular-nums">
      <span className={`whitespace-pre ${strong ? "text-zinc-100" : "text-zinc-400"}`}>{label}</span>
      <span className={strong ? "font-semibold text-white" : ""}>{value}</span>
    </div>
  );
}
