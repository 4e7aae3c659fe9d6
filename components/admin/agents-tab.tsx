"use client";
// Every agent of the workspace, with owner, status (and budget), keys and last seen, and the kill switch.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { AgentView } from "@switchboard/sdk/contract";
import { AgentStatus } from "@/components/agents/agent-card";
import { frameworkLabel } from "@/components/agents/labels";
import { KillSwitch, SuspendDialog } from "@/components/agents/suspend-dialog";
import { useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { inputClass } from "@/components/ui/field";
import { BotIcon, SearchIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { DataTable } from "@/components/ui/table";
import { BudgetPill } from "@/components/usage/budget-pill";
import { useBudgetStates } from "@/components/usage/use-budget-states";
import { LastSeenCell, ParticipantCell, useOnline } from "./participant-cells";

const STUCK = "sticky right-0 shadow-[-6px_0_6px_-6px_rgba(0,0,0,0.12)]";

export function AgentsTab() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOnline = useOnline();
  const agents = useQuery({ ...trpc.agents.all.queryOptions(), refetchInterval: 60_000 });
  const [filter, setFilter] = useState("");
  const [suspending, setSuspending] = useState<AgentView | null>(null);
  useSocketEvent("participant:updated", ({ participant }) => {
    if (participant.kind === "agent") void queryClient.invalidateQueries({ queryKey: trpc.agents.all.queryKey() });
  });
  const list = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const all = agents.data ?? [];
    return q ? all.filter((a) => [a.handle, a.displayName, a.owner?.displayName ?? "", a.framework ?? ""].some((f) => f.toLowerCase().includes(q))) : all;
  }, [agents.data, filter]);
  const budgets = useBudgetStates((agents.data ?? []).map((a) => a.id));

  if (agents.isPending) return <SkeletonRows rows={4} />;
  if (agents.isError) return <ErrorState error={agents.error} onRetry={() => void agents.refetch()} title="Couldn't load the agents" />;
  if (agents.data.length === 0) {
    return (
      <EmptyState
        icon={<BotIcon size={22} />}
        title="No agents in this workspace yet"
        body="Members create agents on their Agents page, or register them with an onboarding token."
      />
    );
  }
  const suspended = agents.data.filter((a) => a.status === "suspended").length;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <div className="relative min-w-[14rem] flex-1">
          <SearchIcon size={16} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-zinc-400" />
          <input
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="Filter by name, owner or framework"
            aria-label="Filter agents"
            className={`${inputClass} pl-9`}
          />
        </div>
        <p className="text-sm text-zinc-500">
          {agents.data.length} agent{agents.data.length === 1 ? "" : "s"}
          {suspended > 0 && <span className="text-rose-600"> · {suspended} suspended</span>}
        </p>
      </div>
      <DataTable
        columns={["Agent", "Owner", "Status", "Keys", "Last seen", { label: "Kill switch", className: `text-right ${STUCK} bg-zinc-50` }]}
        minWidth="min-w-[52rem]"
        testId="admin-agents-table"
      >
        {list.map((a) => {
          const online = isOnline(a.id);
          const active = a.keys.filter((k) => !k.revokedAt);
          return (
            <tr
              key={a.id}
              data-testid="admin-agent-row"
              data-handle={a.handle}
              data-status={a.status}
              className={a.status === "suspended" ? "bg-rose-50/40" : ""}
            >
              <ParticipantCell id={a.id} name={a.displayName} kind="agent" online={online} detail={`@${a.handle} · ${frameworkLabel(a.framework)}`} />
              <td className="px-4 py-2.5 text-zinc-700">{a.owner ? a.owner.displayName : <span className="text-zinc-500">None</span>}</td>
              <td className="px-4 py-2.5">
                <div className="flex flex-col items-start gap-1">
                  <AgentStatus agent={a} />
                  {budgets.has(a.id) && <BudgetPill state={budgets.get(a.id)!} />}
                </div>
              </td>
              <td className="px-4 py-2.5 text-zinc-700">
                <span title={active.map((k) => k.prefix).join(", ")}>
                  {active.length} active
                  {a.keys.length > active.length && <span className="text-zinc-500"> · {a.keys.length - active.length} revoked</span>}
                </span>
                {active[0] && <code className="ml-2 font-mono text-xs text-zinc-500">{active[0].prefix}…</code>}
              </td>
              <LastSeenCell online={online} lastSeenAt={a.lastSeenAt} />
              {/* Stays in view while the rest scrolls sideways on a phone. */}
              <td className={`px-4 py-2.5 text-right ${STUCK} bg-white`}>
                <KillSwitch agent={a} onSuspend={() => setSuspending(a)} />
              </td>
            </tr>
          );
        })}
        {list.length === 0 && (
          <tr>
            <td colSpan={6} className="px-4 py-8 text-center text-sm text-zinc-500">
              No agent matches “{filter}”.
            </td>
          </tr>
        )}
      </DataTable>
      <SuspendDialog agent={suspending} onClose={() => setSuspending(null)} />
    </div>
  );
}
