"use client";
// The person's notification settings: what they are told of (email digests and desktop
// notifications alike), and the browser's permission for desktop notifications, asked on a click.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NotificationPreference } from "@switchboard/sdk/contract";
import { useDesktopPermission } from "@/components/notifications/use-desktop-permission";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { BellIcon, CheckIcon } from "@/components/ui/icons";
import { Segmented } from "@/components/ui/segmented";
import { ErrorState, SkeletonRows } from "@/components/ui/states";
import { toast } from "@/components/ui/toast";

const OPTIONS: { key: NotificationPreference; label: string; says: string }[] = [
  { key: "all", label: "All", says: "Mentions, questions, and every message in your direct messages and groups." },
  { key: "mentions", label: "Mentions", says: "When someone mentions you or an agent asks you a question." },
  { key: "none", label: "Nothing", says: "No emails and no desktop notifications." },
];

export function NotificationSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.notifications.settings.queryOptions());
  const save = useMutation(
    trpc.notifications.setPreference.mutationOptions({
      onSuccess: (data) => queryClient.setQueryData(trpc.notifications.settings.queryKey(), data),
      onError: (error) => toast(errorMessage(error), "error"),
    }),
  );

  if (settings.isPending) return <SkeletonRows rows={2} testId="notifications-loading" />;
  if (settings.isError)
    return (
      <ErrorState
        error={settings.error}
        onRetry={() => void settings.refetch()}
        title="Couldn't load your notification settings"
        testId="notifications-error"
      />
    );
  const current = save.isPending && save.variables ? save.variables.notifications : settings.data.notifications;
  const chosen = OPTIONS.find((o) => o.key === current)!;

  return (
    <section className="rounded-xl bg-white shadow-xs ring-1 ring-zinc-200" aria-labelledby="notifications-heading" data-testid="notification-settings">
      <div className="flex flex-wrap items-start gap-4 p-5">
        <div className="min-w-0 flex-1">
          <h2 id="notifications-heading" className="text-[15px] font-semibold text-zinc-900">
            Notify me about
          </h2>
          <p className="mt-1 text-sm text-zinc-600" data-testid="notifications-says">
            {chosen.says}
          </p>
          <p className="mt-1 text-xs text-zinc-500" data-testid="notifications-email">
            {settings.data.email
              ? "By email: one digest of what you missed, a minute after it happens, without what you already read here."
              : "Email is not set up on this server, so only desktop notifications are sent."}
          </p>
        </div>
        <Segmented
          label="Notify me about"
          testId="notifications-preference"
          options={OPTIONS.map(({ key, label }) => ({ key, label }))}
          value={current}
          onChange={(notifications) => notifications !== current && save.mutate({ notifications })}
        />
      </div>
      <DesktopRow off={current === "none"} />
    </section>
  );
}

/** The browser's side: whether this browser may show desktop notifications, and a button to ask. */
function DesktopRow({ off }: { off: boolean }) {
  const { permission, request } = useDesktopPermission();
  return (
    <div className="flex flex-wrap items-center gap-3 border-t border-zinc-100 px-5 py-3.5" data-testid="desktop-notifications" data-permission={permission}>
      <BellIcon size={16} className="shrink-0 text-zinc-400" />
      <div className="min-w-0 flex-1 text-sm">
        <div className="font-medium text-zinc-800">Desktop notifications</div>
        <div className="text-xs text-zinc-500">
          {permission === "granted"
            ? off
              ? "Allowed in this browser, but you chose to be notified of nothing."
              : "On in this browser, while Switchboard is in the background."
            : permission === "denied"
              ? "Blocked in this browser. Allow notifications for this site in the browser's settings."
              : permission === "unsupported"
                ? "This browser cannot show desktop notifications."
                : "Shown while Switchboard is in the background. Your browser will ask first."}
        </div>
      </div>
      {permission === "granted" ? (
        <span className="inline-flex items-center gap-1 text-sm font-medium text-emerald-700" data-testid="desktop-enabled">
          <CheckIcon size={15} /> Enabled
        </span>
      ) : permission === "default" ? (
        <Button size="sm" variant="secondary" onClick={() => void request()} data-testid="enable-desktop-notifications">
          Enable desktop notifications
        </Button>
      ) : null}
    </div>
  );
}
