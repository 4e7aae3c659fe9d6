"use client";
// Every agent of the workspace, with owner, status, keys and last seen, and the kill switch.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { AgentView } from "@/sdk/contract";
import { AgentStatus } from "@/components/agents/agent-card";
import { frameworkLabel } from "@/components/agents/labels";
import { KillSwitch, SuspendDialog } from "@/components/agents/suspend-dialog";
import { useDirectory } from "@/components/providers/directory";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { Avatar } from "@/components/ui/avatar";
import { inputClass } from "@/components/ui/field";
import { BotIcon, SearchIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { dateTime, relativeTime } from "@/components/ui/time";

export function AgentsTab() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { presence } = useSocket();
  const { byId } = useDirectory();
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

  if (agents.isPending) return <SkeletonRows rows={4} />;
  if (agents.isError) return <ErrorState error={agents.error} onRetry={() => void agents.refetch()} title="Couldn't load the agents" />;
  if (agents.data.length === 0) {
    return <EmptyState icon={<BotIcon size={22} />} title="No agents in this workspace yet" body="Members create agents on their Agents page, or register them with an onboarding token." />;
  }
  const suspended = agents.data.filter((a) => a.status === "suspended").length;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <div className="relative min-w-[14rem] flex-1">
          <SearchIcon size={16} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-zinc-400" />
          <input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="Filter by name, owner or framework" aria-label="Filter agents" className={`${inputClass} pl-9`} />
        </div>
        <p className="text-sm text-zinc-500">
          {agents.data.length} agent{agents.data.length === 1 ? "" : "s"}
          {suspended > 0 && <span className="text-rose-600"> · {suspended} suspended</span>}
        </p>
      </div>
      <div className="overflow-x-auto rounded-xl border border-zinc-200 bg-white shadow-xs">
        <table className="w-full min-w-[52rem] text-left text-sm" data-testid="admin-agents-table">
          <thead className="border-b border-zinc-200 bg-zinc-50 text-xs text-zinc-500">
            <tr>
              <th className="px-4 py-2 font-medium">Agent</th>
              <th className="px-4 py-2 font-medium">Owner</th>
              <th className="px-4 py-2 font-medium">Status</th>
              <th className="px-4 py-2 font-medium">Keys</th>
              <th className="px-4 py-2 font-medium">Last seen</th>
              <th className="px-4 py-2 text-right font-medium">Kill switch</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {list.map((a) => {
              const online = presence.get(a.id) ?? byId.get(a.id)?.online;
              const active = a.keys.filter((k) => !k.revokedAt);
              return (
                <tr key={a.id} data-testid="admin-agent-row" data-handle={a.handle} data-status={a.status} className={a.status === "suspended" ? "bg-rose-50/40" : ""}>
                  <td className="px-4 py-2.5">
                    <div className="flex items-center gap-3">
                      <Avatar id={a.id} name={a.displayName} kind="agent" size={32} online={online} />
                      <div className="min-w-0">
                        <div className="truncate font-medium text-zinc-900">{a.displayName}</div>
                        <div className="truncate text-xs text-zinc-500">
                          @{a.handle} · {frameworkLabel(a.framework)}
                        </div>
                      </div>
                    </div>
                  </td>
                  <td className="px-4 py-2.5 text-zinc-700">{a.owner ? a.owner.displayName : <span className="text-zinc-400">None</span>}</td>
                  <td className="px-4 py-2.5">
                    <AgentStatus status={a.status} />
                  </td>
                  <td className="px-4 py-2.5 text-zinc-700">
                    <span title={active.map((k) => k.prefix).join(", ")}>
                      {active.length} active
                      {a.keys.length > active.length && <span className="text-zinc-400"> · {a.keys.length - active.length} revoked</span>}
                    </span>
                    {active[0] && <code className="ml-2 font-mono text-xs text-zinc-500">{active[0].prefix}…</code>}
                  </td>
                  <td className="px-4 py-2.5 whitespace-nowrap text-zinc-600" title={a.lastSeenAt ? dateTime(a.lastSeenAt) : undefined}>
                    {online ? <span className="text-emerald-700">Online</span> : relativeTime(a.lastSeenAt)}
                  </td>
                  <td className="px-4 py-2.5 text-right">
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
          </tbody>
        </table>
      </div>
      <SuspendDialog agent={suspending} onClose={() => setSuspending(null)} />
    </div>
  );
}
