"use client";
// The Inbox's Alerts: the last two weeks' news of the viewer's budget, agents and connection requests
// (tRPC `notifications.alerts`), newest first, each linking to the page that shows more. Live: the
// events that raise the toasts (components/notifications/alerts.tsx) read the list again.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/nav/workspace-routing";
import type { AlertView } from "@switchboard/sdk/contract";
import { useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { AlertIcon, BellIcon, CheckIcon, XIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { dateTime, relativeTime } from "@/components/ui/time";

const LOOK: Record<AlertView["kind"], { icon: typeof AlertIcon; tone: string; link: string }> = {
  "budget.warned": { icon: AlertIcon, tone: "bg-amber-50 text-amber-700 ring-amber-200", link: "See usage" },
  "budget.exceeded": { icon: AlertIcon, tone: "bg-rose-50 text-rose-700 ring-rose-200", link: "See usage" },
  "agent.suspended": { icon: XIcon, tone: "bg-rose-50 text-rose-700 ring-rose-200", link: "Open Agents" },
  "connection.accepted": { icon: CheckIcon, tone: "bg-emerald-50 text-emerald-700 ring-emerald-200", link: "See history" },
  "connection.declined": { icon: XIcon, tone: "bg-zinc-100 text-zinc-700 ring-zinc-200", link: "See history" },
};

export function useAlerts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const alerts = useQuery(trpc.notifications.alerts.queryOptions());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.notifications.alerts.queryKey() });
  useSocketEvent("budget:updated", refresh);
  useSocketEvent("participant:updated", ({ participant }) => participant.status === "suspended" && refresh());
  useSocketEvent("connection:updated", refresh);
  return alerts;
}

export function AlertsList({ alerts, onHistory }: { alerts: ReturnType<typeof useAlerts>; onHistory: () => void }) {
  if (alerts.isPending) return <SkeletonRows rows={3} />;
  if (alerts.isError) return <ErrorState error={alerts.error} onRetry={() => void alerts.refetch()} title="Couldn't load your alerts" />;
  if (alerts.data.length === 0)
    return (
      <EmptyState
        icon={<BellIcon size={20} />}
        title="No alerts"
        body="When a budget of yours nears its limit, an agent of yours is suspended, or someone decides a request you sent, it is listed here for two weeks."
        testId="alerts-empty"
      />
    );
  return (
    <ul className="divide-y divide-zinc-100 rounded-xl bg-white shadow-xs ring-1 ring-zinc-200" data-testid="alerts">
      {alerts.data.map((a) => {
        const look = LOOK[a.kind];
        const Icon = look.icon;
        return (
          <li key={a.id} className="flex items-start gap-3 px-4 py-3" data-testid="alert-row" data-kind={a.kind}>
            <span className={`mt-0.5 grid size-7 shrink-0 place-items-center rounded-full ring-1 ${look.tone}`}>
              <Icon size={15} />
            </span>
            <div className="min-w-0 flex-1">
              <p className="text-sm break-words text-zinc-900">{a.text}</p>
              <p className="mt-0.5 text-xs text-zinc-500">
                <time dateTime={a.at} title={dateTime(a.at)}>
                  {relativeTime(a.at)}
                </time>
                {" · "}
                {a.href === "/inbox" ? (
                  <button type="button" onClick={onHistory} className="font-medium text-indigo-700 hover:underline">
                    {look.link}
                  </button>
                ) : (
                  <Link href={a.href} className="font-medium text-indigo-700 hover:underline">
                    {look.link}
                  </Link>
                )}
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
