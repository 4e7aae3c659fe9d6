"use client";
// A room's or a task's cost: what it cost, each agent's share, and whether people really took part
// (people's messages against agents' messages per day, and the people share as one clear number).
import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTRPC } from "@/components/providers/trpc";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState } from "@/components/ui/states";
import { UsersIcon } from "@/components/ui/icons";
import { Button } from "@/components/ui/button";
import { bucketKeys, bucketLabel, bucketTick, formatInt, formatShare, formatTokens, formatUsd, rangeLabel, splitName, type Range } from "./format";
import { EntityIcon } from "./breakdowns";
import { ShareBar, Skeleton } from "./parts";
import type { RoomUsage } from "./types";
import { involvementVerdict } from "./verdict";

export interface DetailTarget {
  kind: "room" | "task";
  id: string;
  name: string;
}

export function DetailDialog({
  target,
  range,
  onClose,
  onFilterAgent,
}: {
  target: DetailTarget | null;
  range: Range;
  onClose: () => void;
  onFilterAgent: (id: string) => void;
}) {
  const trpc = useTRPC();
  const room = useQuery({ ...trpc.usage.room.queryOptions({ roomId: target?.id ?? "", ...range }), enabled: target?.kind === "room" });
  const task = useQuery({ ...trpc.usage.task.queryOptions({ taskId: target?.id ?? "", ...range }), enabled: target?.kind === "task" });
  const q = target?.kind === "task" ? task : room;
  const data = q.data as RoomUsage | undefined;

  return (
    <Dialog
      open={!!target}
      onClose={onClose}
      width="max-w-3xl"
      testId="usage-detail"
      title={target ? (target.kind === "room" ? target.name : `Task ${target.name}`) : ""}
      description={target ? `${target.kind === "room" ? "Room" : "Task"} cost and who took part · ${rangeLabel(range)} (UTC)` : undefined}
      footer={
        <Button variant="secondary" size="sm" onClick={onClose}>
          Close
        </Button>
      }
    >
      {!target ? null : q.isPending ? (
        <div className="space-y-4" role="status" aria-busy="true" aria-label="Loading">
          <div className="grid grid-cols-3 gap-3">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-16" />
            ))}
          </div>
          <Skeleton className="h-24" />
          <Skeleton className="h-40" />
        </div>
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} title={`Couldn't load this ${target.kind}`} testId="detail-error" />
      ) : data ? (
        <DetailBody data={data} range={range} target={target} onFilterAgent={onFilterAgent} />
      ) : null}
    </Dialog>
  );
}

function DetailBody({ data, range, target, onFilterAgent }: { data: RoomUsage; range: Range; target: DetailTarget; onFilterAgent: (id: string) => void }) {
  const t = data.totals;
  const shares = [...data.shares].sort((a, b) => b.costUsd - a.costUsd);
  const inv = data.involvement;
  const verdict = involvementVerdict(inv.people, inv.agents, inv.peopleShare);
  const byDay = new Map(inv.series.map((s) => [s.day, s]));
  const days = bucketKeys(range, "day", 120);
  const series = days.map((day) => ({ day, people: byDay.get(day)?.people ?? 0, agents: byDay.get(day)?.agents ?? 0 }));

  return (
    <div className="space-y-5" data-testid="detail-body" data-kind={target.kind}>
      <div className="grid grid-cols-3 gap-3">
        <Stat label="Cost" value={formatUsd(t.costUsd)} raw={t.costUsd} testId="detail-cost" strong />
        <Stat
          label="Tokens"
          value={formatTokens(t.inputTokens + t.outputTokens)}
          raw={t.inputTokens + t.outputTokens}
          testId="detail-tokens"
          sub={`${formatTokens(t.inputTokens)} in · ${formatTokens(t.outputTokens)} out`}
        />
        <Stat label="Model calls" value={formatInt(t.calls)} raw={t.calls} testId="detail-calls" />
      </div>

      <section>
        <h3 className="mb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Cost by participant</h3>
        {shares.length === 0 ? (
          <p className="rounded-lg bg-zinc-50 px-3 py-4 text-sm text-zinc-500">No agent reported model calls here in this range.</p>
        ) : (
          <>
            <div className="mb-3 flex h-2.5 w-full overflow-hidden rounded-full bg-zinc-100" aria-hidden="true">
              {shares.map((s, i) => (
                <div
                  key={s.id}
                  className={SHARE_TONES[i % SHARE_TONES.length]}
                  style={{ width: `${s.share * 100}%` }}
                  title={`${splitName(s.name).name}: ${formatShare(s.share)}`}
                />
              ))}
            </div>
            <ul className="divide-y divide-zinc-100 rounded-lg ring-1 ring-zinc-200" data-testid="detail-shares">
              {shares.map((s, i) => {
                const { name, handle } = splitName(s.name);
                return (
                  <li key={s.id} className="flex items-center gap-3 px-3 py-2" data-testid="detail-share" data-id={s.id} data-share={s.share}>
                    <span className={`h-2.5 w-2.5 shrink-0 rounded-sm ${SHARE_TONES[i % SHARE_TONES.length]}`} />
                    <EntityIcon kind="agent" id={s.id} name={s.name} size={28} />
                    <button
                      type="button"
                      className="min-w-0 flex-1 text-left"
                      onClick={() => onFilterAgent(s.id)}
                      title="Show only this agent on the dashboard"
                    >
                      <span className="block truncate text-[13px] font-medium text-zinc-900 hover:text-indigo-700">{name}</span>
                      {handle && <span className="block truncate text-xs text-zinc-500">@{handle}</span>}
                    </button>
                    <span className="hidden w-32 sm:block">
                      <ShareBar share={s.share} tone={SHARE_TONES[i % SHARE_TONES.length]} />
                    </span>
                    <span className="w-10 text-right text-xs text-zinc-500 tabular-nums">{formatShare(s.share)}</span>
                    <span className="w-20 text-right text-[13px] font-semibold text-zinc-900 tabular-nums">{formatUsd(s.costUsd)}</span>
                  </li>
                );
              })}
            </ul>
          </>
        )}
      </section>

      <section data-testid="involvement">
        <h3 className="mb-2 flex items-center gap-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
          <UsersIcon size={13} /> Human involvement
        </h3>
        <div className="grid gap-4 rounded-xl bg-zinc-50/80 p-4 ring-1 ring-zinc-200 ring-inset sm:grid-cols-[11rem_1fr]">
          <div>
            <div
              className="text-[40px] leading-none font-semibold tracking-tight text-zinc-900 tabular-nums"
              data-testid="people-share"
              data-value={inv.peopleShare}
            >
              {inv.people + inv.agents ? `${Math.round(inv.peopleShare * 100)}%` : "–"}
            </div>
            <p className="mt-1 text-xs text-zinc-500">of messages were written by people</p>
            <span
              className={`mt-2 inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${verdict.tone}`}
              data-testid="involvement-verdict"
            >
              {verdict.label}
            </span>
            <dl className="mt-3 space-y-1 text-xs">
              <div className="flex items-center justify-between gap-2">
                <dt className="flex items-center gap-1.5 text-zinc-600">
                  <span className="h-2 w-2 rounded-sm bg-sky-500" /> People
                </dt>
                <dd className="font-semibold text-zinc-900 tabular-nums" data-testid="people-messages">
                  {formatInt(inv.people)}
                </dd>
              </div>
              <div className="flex items-center justify-between gap-2">
                <dt className="flex items-center gap-1.5 text-zinc-600">
                  <span className="h-2 w-2 rounded-sm bg-violet-400" /> Agents
                </dt>
                <dd className="font-semibold text-zinc-900 tabular-nums" data-testid="agent-messages">
                  {formatInt(inv.agents)}
                </dd>
              </div>
            </dl>
          </div>
          <div className="h-44 min-w-0" data-testid="involvement-chart" data-days={inv.series.length}>
            {inv.people + inv.agents === 0 ? (
              <div className="flex h-full items-center justify-center rounded-lg border border-dashed border-zinc-300 text-sm text-zinc-500">
                No messages in this range
              </div>
            ) : (
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={series} margin={{ top: 4, right: 4, bottom: 0, left: -16 }} barCategoryGap={series.length > 40 ? 1 : "18%"}>
                  <CartesianGrid vertical={false} stroke="#e4e4e7" strokeDasharray="3 3" />
                  <XAxis
                    dataKey="day"
                    tickFormatter={(d: string) => bucketTick(d, "day")}
                    tick={{ fontSize: 10, fill: "#71717a" }}
                    tickLine={false}
                    axisLine={false}
                    minTickGap={24}
                  />
                  <YAxis allowDecimals={false} tick={{ fontSize: 10, fill: "#71717a" }} tickLine={false} axisLine={false} width={40} />
                  <Tooltip
                    cursor={{ fill: "#e0e7ff", opacity: 0.5 }}
                    content={({ active, payload }) => {
                      const p = payload?.[0]?.payload as (typeof series)[number] | undefined;
                      if (!active || !p) return null;
                      const n = p.people + p.agents;
                      return (
                        <div className="rounded-lg bg-zinc-900 px-2.5 py-1.5 text-xs text-zinc-200 shadow-xl">
                          <div className="font-semibold text-white">{bucketLabel(p.day, "day")}</div>
                          People {p.people} · Agents {p.agents}
                          {n > 0 && <div className="text-zinc-500">{formatShare(p.people / n)} by people</div>}
                        </div>
                      );
                    }}
                  />
                  <Bar dataKey="people" name="People" stackId="m" fill="#0ea5e9" animationDuration={400} />
                  <Bar dataKey="agents" name="Agents" stackId="m" fill="#a78bfa" radius={[3, 3, 0, 0]} animationDuration={400} />
                </BarChart>
              </ResponsiveContainer>
            )}
          </div>
        </div>
        <p className="mt-2 text-xs text-zinc-500">
          {target.kind === "task"
            ? "Counted in the rooms where this task's model calls happened: text messages, not joins or edits."
            : "Text messages in this room, not joins or edits."}{" "}
          A low share with a high cost means agents ran mostly on their own.
        </p>
      </section>
    </div>
  );
}

const SHARE_TONES = ["bg-violet-500", "bg-indigo-400", "bg-sky-400", "bg-emerald-400", "bg-amber-400", "bg-rose-400", "bg-zinc-400"];

function Stat({
  label,
  value,
  raw,
  testId,
  sub,
  strong = false,
}: {
  label: string;
  value: string;
  raw: number;
  testId: string;
  sub?: string;
  strong?: boolean;
}) {
  return (
    <div className={`rounded-lg px-3 py-2.5 ring-1 ring-inset ${strong ? "bg-indigo-50/60 ring-indigo-200" : "bg-white ring-zinc-200"}`}>
      <div className="text-[11px] font-medium tracking-wide text-zinc-500 uppercase">{label}</div>
      <div className="mt-0.5 text-xl font-semibold text-zinc-900 tabular-nums" data-testid={testId} data-value={raw}>
        {value}
      </div>
      {sub && <div className="text-[11px] text-zinc-500">{sub}</div>}
    </div>
  );
}
