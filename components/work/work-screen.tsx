"use client";
// /work: what every agent is doing, live. A window (1 h, 24 h, 7 days), a summary of who is working,
// waiting and blocked, warnings where two agents edit the same file or component at once, a card per
// agent and a panel per component.
import { useMemo, useState } from "react";
import { PageFrame } from "@/components/nav/page-frame";
import { Segmented } from "@/components/ui/segmented";
import { ErrorState, SkeletonRows } from "@/components/ui/states";
import { AgentCard } from "./agent-card";
import { ComponentPanel, ConflictBanner } from "./component-panel";
import { HowToReport } from "./how-to-report";
import { SetStatusButton } from "./set-status";
import type { AgentWork } from "./types";
import { useNow, useWorkBoard } from "./use-work-board";
import { LayersIcon } from "./work-icons";
import { shownStatus } from "./work-state";
import { useSocket } from "@/components/providers/socket-provider";

const WINDOWS = [
  { key: "1", label: "1h", title: "The last hour" },
  { key: "24", label: "24h", title: "The last 24 hours" },
  { key: "168", label: "7d", title: "The last 7 days" },
] as const;
type WindowKey = (typeof WINDOWS)[number]["key"];

export function WorkScreen() {
  const [range, setRange] = useState<WindowKey>("24");
  const { board, live } = useWorkBoard(Number(range));
  const now = useNow();
  const agents = board.data?.agents ?? [];
  const rooms = useMemo(() => new Map((board.data?.rooms ?? []).map((r) => [r.id, r])), [board.data?.rooms]);
  const anyWork = agents.some((a) => a.status.state !== "idle" || a.tasks.length > 0 || a.files.length > 0 || a.links.length > 0 || a.pausedIn.length > 0);

  return (
    <PageFrame
      title="Work"
      icon={<LayersIcon size={18} />}
      subtitle="What agents are doing, live"
      testId="work-page"
      wide
      actions={
        <>
          <SetStatusButton />
          <Segmented options={[...WINDOWS]} value={range} onChange={setRange} label="Time window" testId="work-window" />
        </>
      }
    >
      {board.isPending ? (
        <div className="grid gap-5 lg:grid-cols-[1fr_20rem]">
          <SkeletonRows rows={3} testId="work-loading" />
          <SkeletonRows rows={3} />
        </div>
      ) : board.isError ? (
        <ErrorState error={board.error} onRetry={() => void board.refetch()} title="Couldn't load the work board" />
      ) : (
        <>
          <Summary agents={agents} live={live} fetching={board.isFetching} />
          <ConflictBanner conflicts={board.data.conflicts} now={now} />
          {!anyWork ? (
            <HowToReport hasAgents={agents.length > 0} />
          ) : (
            <div className={`grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,1fr)_20rem] ${board.isPlaceholderData ? "opacity-60" : ""}`}>
              <section aria-label="Agents" className="space-y-4" data-testid="work-agents">
                {agents.map((a) => (
                  <AgentCard key={a.agent.id} work={a} now={now} rooms={rooms} />
                ))}
              </section>
              <ComponentPanel components={board.data.components} conflicts={board.data.conflicts} now={now} />
            </div>
          )}
        </>
      )}
    </PageFrame>
  );
}

function Summary({ agents, live, fetching }: { agents: AgentWork[]; live: boolean; fetching: boolean }) {
  const { presence } = useSocket();
  // As the cards count them: an offline agent's last state is history (shownStatus).
  const counts = useMemo(() => {
    const c = { working: 0, waiting: 0, blocked: 0, idle: 0 };
    for (const a of agents) c[shownStatus(a.status, presence.get(a.agent.id) ?? a.agent.online).status.state]++;
    return c;
  }, [agents, presence]);
  const items = [
    { key: "working", label: "working", tone: "bg-emerald-500" },
    { key: "waiting", label: "waiting", tone: "bg-amber-500" },
    { key: "blocked", label: "blocked", tone: "bg-rose-500" },
    { key: "idle", label: "idle", tone: "bg-zinc-300" },
  ] as const;
  return (
    <div className="mb-5 flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-zinc-600" data-testid="work-summary" aria-live="polite">
      {items.map((i) => (
        <span key={i.key} className="inline-flex items-center gap-1.5" data-testid={`summary-${i.key}`} data-count={counts[i.key]}>
          <span className={`h-2 w-2 rounded-full ${i.tone}`} aria-hidden="true" />
          <span className="font-semibold text-zinc-900 tabular-nums">{counts[i.key]}</span> {i.label}
        </span>
      ))}
      <span className={`ml-auto inline-flex items-center gap-1.5 text-xs ${live ? "text-emerald-700" : "text-zinc-500"}`} data-testid="work-live">
        <span className={`h-1.5 w-1.5 rounded-full ${live ? "bg-emerald-500" : "bg-zinc-300"} ${fetching ? "animate-pulse" : ""}`} aria-hidden="true" />
        {live ? "Live" : "Connecting…"}
      </span>
    </div>
  );
}
