"use client";
// /usage: what agents cost and who drove the work. Range, bucket and filters (in the URL) apply to
// every widget and every CSV export; reports arriving over the socket move the numbers live.
// Members see their own agents' usage, or what they requested of anyone's agents (the API scopes
// it); owners and admins see the workspace, owned by and requested by side by side.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { PageFrame } from "@/components/nav/page-frame";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Button, Spinner } from "@/components/ui/button";
import { DownloadIcon } from "@/components/ui/extra-icons";
import { ErrorState } from "@/components/ui/states";
import { ChartIcon } from "@/components/ui/usage-icons";
import { BreakdownTable, TopSpenders, type BreakdownKind, type FilterKind } from "./breakdowns";
import { BudgetAlerts, BudgetsSection, useBudgetAlerts } from "./budgets";
import { useCsvExport } from "./csv";
import { DetailDialog, type DetailTarget } from "./detail-dialog";
import { UsageEmpty } from "./empty";
import { bucketKeys, previousRange } from "./format";
import { KpiTiles } from "./kpis";
import { MemberScope, type MemberView } from "./member-scope";
import { ModelChart } from "./model-chart";
import { DashboardSkeleton, LiveIndicator } from "./parts";
import { PricesSection } from "./prices";
import { UsageToolbar, type FilterOptions } from "./toolbar";
import { UnpricedNotice } from "./unpriced-notice";
import { UsageChart, type ChartPoint } from "./usage-chart";
import type { BreakdownRow } from "./types";
import { FILTER_KEYS, useUsageParams } from "./use-usage-params";
import { useLiveUsage } from "./use-live-usage";

export function UsageScreen() {
  const { can, me } = useViewer();
  const seesAll = can.readAllUsage;
  const trpc = useTRPC();
  const params = useUsageParams();
  const live = useLiveUsage();
  const budgetAlerts = useBudgetAlerts();
  const csv = useCsvExport(params.query);
  const [detail, setDetail] = useState<DetailTarget | null>(null);

  // A member's view is the requester filter set to themselves; the owner filter is not theirs to pick.
  const memberView: MemberView = params.filters.requester === me.id ? "requests" : "agents";
  const myRequests = !seesAll && memberView === "requests";
  const overview = useQuery({ ...trpc.usage.overview.queryOptions(params.query), placeholderData: keepPreviousData });
  // The filter menus list what has usage in the range (in a member's view), whatever is already
  // filtered (the same query when nothing is).
  const unfiltered = { ...params.range, bucket: params.bucket, ...(myRequests ? { requesterId: me.id } : {}) };
  const everything = useQuery({ ...trpc.usage.overview.queryOptions(unfiltered), placeholderData: keepPreviousData });
  const prev = previousRange(params.range);
  const previous = useQuery({ ...trpc.usage.overview.queryOptions({ ...params.query, ...prev }), placeholderData: keepPreviousData });
  const prices = useQuery(trpc.usage.prices.queryOptions());

  const filterKeys = FILTER_KEYS.filter((k) => seesAll || (k !== "person" && !(k === "requester" && myRequests)));
  const filtered = filterKeys.some((k) => params.filters[k]);
  const clearFilters = () => params.clearFilters(filterKeys);
  const data = overview.data;

  const series = useMemo<ChartPoint[]>(() => {
    const got = new Map((data?.series ?? []).map((s) => [s.bucket, s]));
    return bucketKeys(params.range, params.bucket).map((bucket) => {
      const s = got.get(bucket) ?? { bucket, costUsd: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, calls: 0, unpricedCalls: 0, unpricedTokens: 0 };
      return { ...s, uncachedTokens: Math.max(0, s.inputTokens - s.cachedTokens) };
    });
  }, [data?.series, params.range, params.bucket]);

  const options = useMemo<FilterOptions>(() => {
    const all = everything.data;
    const opt = (rows: BreakdownRow[] | undefined) => (rows ?? []).filter((r) => r.id).map((r) => ({ value: r.id!, label: r.name || r.id! }));
    return {
      agent: opt(all?.byAgent),
      person: opt(all?.byPerson),
      requester: opt(all?.byRequester),
      room: opt(all?.byRoom),
      task: opt(all?.byTask),
      model: opt(all?.byModel),
    };
  }, [everything.data]);

  // Models whose calls went unpriced in the range and that still have no price: the prices table offers them.
  const unpriced = useMemo(() => {
    if (!prices.data || !everything.data) return [];
    const priced = new Set(prices.data.map((p) => p.model));
    return everything.data.byModel.filter((m) => m.unpricedCalls > 0 && m.id && !priced.has(m.id)).map((m) => m.id!);
  }, [prices.data, everything.data]);

  const breakdown: Record<BreakdownKind, BreakdownRow[]> | null = data
    ? { room: data.byRoom, task: data.byTask, agent: data.byAgent, person: data.byPerson, requester: data.byRequester, model: data.byModel }
    : null;
  const periodLabel = params.preset === "month" ? "period" : params.preset === "custom" ? "period" : `${params.preset.replace("d", "")} days`;
  const filterBy = (kind: FilterKind, id: string) => params.setFilter(kind, id);

  return (
    <PageFrame
      title="Usage & cost"
      icon={<ChartIcon size={18} />}
      subtitle={seesAll ? "What agents cost, and who drove the work" : myRequests ? "What your requests cost" : "What your agents cost"}
      testId="usage-page"
      wide
      actions={
        <>
          <LiveIndicator status={live.status} live={live.live} lastEventAt={live.lastEventAt} fetching={overview.isFetching} />
          <Button
            size="sm"
            variant="secondary"
            onClick={() => void csv.exportView("series")}
            disabled={csv.exporting !== null}
            aria-label="Export CSV"
            data-testid="export-csv"
          >
            {csv.exporting === "series" ? <Spinner className="h-3.5 w-3.5" /> : <DownloadIcon size={15} />}
            <span className="max-sm:hidden">Export CSV</span>
          </Button>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => void csv.exportView("detail")}
            disabled={csv.exporting !== null}
            data-testid="export-detail"
            title="One row per bucket, agent, owner, requester, room, task and model: pivot it any way in a spreadsheet"
          >
            {csv.exporting === "detail" ? <Spinner className="h-3.5 w-3.5" /> : <DownloadIcon size={15} />}
            <span className="max-sm:hidden">Export all dimensions</span>
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <BudgetAlerts alerts={budgetAlerts.alerts} onDismiss={budgetAlerts.dismiss} />
        {!seesAll && <MemberScope view={memberView} onChange={(v) => params.setFilter("requester", v === "requests" ? me.id : null)} />}

        {/* Solid, so that what scrolls under it is hidden rather than half shown; on a phone it scrolls away (it is tall there). */}
        <div className="-mx-2 -mt-2 bg-[#fcfcfd] px-2 py-2 sm:sticky sm:top-0 sm:z-20">
          <UsageToolbar params={params} options={options} keys={filterKeys} onClear={clearFilters} />
        </div>

        {overview.isPending ? (
          <DashboardSkeleton />
        ) : overview.isError && !data ? (
          <ErrorState error={overview.error} onRetry={() => void overview.refetch()} title="Couldn't load usage" testId="usage-error" />
        ) : !data || !breakdown ? null : data.totals.calls === 0 ? (
          <UsageEmpty
            filtered={filtered}
            requests={myRequests}
            onClear={clearFilters}
            onWiden={!filtered && params.preset !== "90d" ? () => params.setPreset("90d") : undefined}
          />
        ) : (
          <div className={`space-y-4 transition-opacity ${overview.isPlaceholderData ? "opacity-60" : ""}`} data-testid="usage-dashboard">
            <UnpricedNotice totals={data.totals} models={data.byModel.filter((m) => m.unpricedCalls > 0 && m.id).map((m) => m.id!)} canManage={can.manage} />
            <KpiTiles overview={data} previous={previous.data?.totals} series={series} periodLabel={periodLabel} />
            <div className="grid gap-4 lg:grid-cols-3">
              <div className="min-w-0 lg:col-span-2">
                <UsageChart series={series} bucket={params.bucket} onExport={() => void csv.exportView("series")} exporting={csv.exporting === "series"} />
              </div>
              <ModelChart
                rows={data.byModel}
                total={data.totals.costUsd}
                onPick={(m) => params.setFilter("model", m)}
                onExport={() => void csv.exportView("byModel")}
                exporting={csv.exporting === "byModel"}
              />
            </div>
            <TopSpenders
              agents={data.byAgent}
              owners={data.byPerson}
              requesters={data.byRequester}
              total={data.totals.costUsd}
              onFilter={filterBy}
              seesAll={seesAll}
            />
            <BreakdownTable
              data={breakdown}
              total={data.totals.costUsd}
              seesAll={seesAll}
              onOpen={(kind, row) => row.id && setDetail({ kind, id: row.id, name: row.name })}
              onFilter={filterBy}
              onExport={(view) => void csv.exportView(view)}
              exporting={csv.exporting}
            />
          </div>
        )}

        <div className="space-y-4 pt-2">
          <BudgetsSection canManage={can.manage} />
          <PricesSection canManage={can.manage} unpriced={unpriced} />
        </div>
      </div>
      <DetailDialog
        target={detail}
        range={params.range}
        onClose={() => setDetail(null)}
        onFilterAgent={(id) => {
          setDetail(null);
          params.setFilter("agent", id);
        }}
      />
    </PageFrame>
  );
}
