"use client";
// The headline numbers: spend (with its trend and a sparkline), tokens (input / output / cached),
// calls, and the agents that spent. Raw values ride along in data-value for exact checks.
import type { ReactNode } from "react";
import { Area, AreaChart, ResponsiveContainer } from "recharts";
import { BotIcon } from "@/components/ui/icons";
import { CoinsIcon, CpuIcon, TrendDownIcon, TrendUpIcon, ZapIcon } from "@/components/ui/usage-icons";
import { formatInt, formatShare, formatTokens, formatUsd, splitName } from "./format";
import type { Overview, SeriesPoint, Totals } from "./types";

function Tile({
  label,
  icon,
  value,
  testId,
  raw,
  children,
  accent = false,
}: {
  label: string;
  icon: ReactNode;
  value: string;
  testId: string;
  raw: number;
  children?: ReactNode;
  accent?: boolean;
}) {
  return (
    <div
      className={`relative flex min-w-0 flex-col overflow-hidden rounded-xl border bg-white p-4 shadow-xs ${accent ? "border-indigo-200" : "border-zinc-200"}`}
    >
      <div className="flex items-center gap-1.5 text-xs font-medium tracking-wide text-zinc-500 uppercase">
        <span className={accent ? "text-indigo-500" : "text-zinc-500"}>{icon}</span>
        {label}
      </div>
      <div className="mt-1.5 truncate text-[26px] leading-tight font-semibold tracking-tight text-zinc-900 tabular-nums" data-testid={testId} data-value={raw}>
        {value}
      </div>
      <div className="mt-auto pt-2">{children}</div>
    </div>
  );
}

function Trend({ now, before, periodLabel }: { now: number; before: number | undefined; periodLabel: string }) {
  if (before === undefined) return <span className="text-xs text-zinc-500">&nbsp;</span>;
  if (before === 0) {
    return <span className="text-xs text-zinc-500">{now > 0 ? `Nothing in the previous ${periodLabel}` : `Same as the previous ${periodLabel}`}</span>;
  }
  const change = (now - before) / before;
  const up = change > 0;
  const flat = Math.abs(change) < 0.005;
  return (
    <span className="inline-flex items-center gap-1 text-xs text-zinc-500" data-testid="spend-trend">
      <span
        className={`inline-flex items-center gap-0.5 rounded px-1 py-px font-semibold ${flat ? "bg-zinc-100 text-zinc-600" : up ? "bg-amber-50 text-amber-700" : "bg-emerald-50 text-emerald-700"}`}
      >
        {!flat && (up ? <TrendUpIcon size={12} strokeWidth={2.25} /> : <TrendDownIcon size={12} strokeWidth={2.25} />)}
        {flat ? "0%" : formatShare(Math.abs(change))}
      </span>
      vs previous {periodLabel}
    </span>
  );
}

export function KpiTiles({
  overview,
  previous,
  series,
  periodLabel,
}: {
  overview: Overview;
  previous: Totals | undefined;
  series: SeriesPoint[];
  periodLabel: string;
}) {
  const t = overview.totals;
  const tokens = t.inputTokens + t.outputTokens;
  const uncached = Math.max(0, t.inputTokens - t.cachedTokens);
  const top = overview.byAgent[0];
  const perCall = t.calls ? t.costUsd / t.calls : 0;
  const seg = (n: number) => (tokens ? `${(n / tokens) * 100}%` : "0%");
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="usage-totals">
      <Tile label="Spend" icon={<CoinsIcon size={14} />} value={formatUsd(t.costUsd)} raw={t.costUsd} testId="total-spend" accent>
        <div className="-mx-1 h-9" aria-hidden="true">
          <ResponsiveContainer width="100%" height="100%">
            <AreaChart data={series} margin={{ top: 2, right: 0, bottom: 0, left: 0 }} accessibilityLayer={false}>
              <defs>
                <linearGradient id="kpi-spark" x1="0" y1="0" x2="0" y2="1">
                  <stop offset="0%" stopColor="#6366f1" stopOpacity={0.25} />
                  <stop offset="100%" stopColor="#6366f1" stopOpacity={0} />
                </linearGradient>
              </defs>
              <Area type="monotone" dataKey="costUsd" stroke="#6366f1" strokeWidth={1.5} fill="url(#kpi-spark)" isAnimationActive={false} dot={false} />
            </AreaChart>
          </ResponsiveContainer>
        </div>
        <Trend now={t.costUsd} before={previous?.costUsd} periodLabel={periodLabel} />
      </Tile>

      <Tile label="Tokens" icon={<CpuIcon size={14} />} value={formatTokens(tokens)} raw={tokens} testId="total-tokens">
        <div className="flex h-1.5 w-full overflow-hidden rounded-full bg-zinc-100" aria-hidden="true">
          <div className="bg-indigo-500" style={{ width: seg(uncached) }} />
          <div className="bg-sky-400" style={{ width: seg(t.cachedTokens) }} />
          <div className="bg-violet-400" style={{ width: seg(t.outputTokens) }} />
        </div>
        <dl className="mt-2 grid grid-cols-3 gap-1 text-[11px] leading-tight">
          <TokenStat color="bg-indigo-500" label="Input" value={t.inputTokens} testId="tokens-input" />
          <TokenStat color="bg-violet-400" label="Output" value={t.outputTokens} testId="tokens-output" />
          <TokenStat color="bg-sky-400" label="Cached" value={t.cachedTokens} testId="tokens-cached" />
        </dl>
      </Tile>

      <Tile label="Model calls" icon={<ZapIcon size={14} />} value={formatInt(t.calls)} raw={t.calls} testId="total-calls">
        <p className="text-xs text-zinc-500">
          <span className="font-semibold text-zinc-700 tabular-nums">{formatUsd(perCall)}</span> per call on average
        </p>
        <p className="mt-0.5 text-xs text-zinc-500">
          <span className="font-semibold text-zinc-700 tabular-nums">{t.calls ? formatTokens(Math.round(tokens / t.calls)) : 0}</span> tokens per call
        </p>
      </Tile>

      <Tile label="Agents spending" icon={<BotIcon size={14} />} value={formatInt(overview.byAgent.length)} raw={overview.byAgent.length} testId="total-agents">
        {top ? (
          <p className="truncate text-xs text-zinc-500" title={top.name}>
            Top: <span className="font-semibold text-zinc-700">{splitName(top.name).name}</span> · {formatShare(t.costUsd ? top.costUsd / t.costUsd : 0)} of
            spend
          </p>
        ) : (
          <p className="text-xs text-zinc-500">No agent spent in this range</p>
        )}
        <p className="mt-0.5 text-xs text-zinc-500">
          across <span className="font-semibold text-zinc-700">{overview.byModel.length}</span> model{overview.byModel.length === 1 ? "" : "s"}
        </p>
      </Tile>
    </div>
  );
}

function TokenStat({ color, label, value, testId }: { color: string; label: string; value: number; testId: string }) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-1 text-zinc-500">
        <span className={`h-1.5 w-1.5 shrink-0 rounded-full ${color}`} />
        {label}
      </dt>
      <dd className="mt-0.5 font-semibold text-zinc-800 tabular-nums" data-testid={testId} data-value={value} title={formatInt(value)}>
        {formatTokens(value)}
      </dd>
    </div>
  );
}
