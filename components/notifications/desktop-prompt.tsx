"use client";
// A small, dismissible offer in the app shell to turn desktop notifications on. It asks the browser
// only when the person clicks (never on load), and goes away for good once dismissed or answered.
import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { BellIcon, XIcon } from "@/components/ui/icons";
import { useDesktopPermission } from "./use-desktop-permission";
import { useMessageNotifications } from "./use-message-notifications";

const DISMISSED = "switchboard.desktop-prompt-dismissed";
const dismissListeners = new Set<() => void>();
const readDismissed = () => window.localStorage.getItem(DISMISSED) === "1";
function dismiss() {
  window.localStorage.setItem(DISMISSED, "1");
  for (const listener of dismissListeners) listener();
}
const subscribeDismissed = (listener: () => void) => {
  dismissListeners.add(listener);
  return () => void dismissListeners.delete(listener);
};

/** Raises desktop notifications for the tab, and offers to turn them on while the browser has not been asked. */
export function DesktopNotifications() {
  useMessageNotifications();
  const trpc = useTRPC();
  const settings = useQuery(trpc.notifications.settings.queryOptions());
  const { permission, request } = useDesktopPermission();
  const dismissed = useSyncExternalStore(subscribeDismissed, readDismissed, () => true);
  if (dismissed || permission !== "default" || !settings.data || settings.data.notifications === "none") return null;
  return (
    <div
      className="flex shrink-0 items-center gap-3 border-b border-indigo-100 bg-indigo-50/70 px-4 py-2 text-sm text-indigo-950"
      role="region"
      aria-label="Desktop notifications"
      data-testid="desktop-prompt"
    >
      <BellIcon size={16} className="shrink-0 text-indigo-500" />
      <p className="min-w-0 flex-1 truncate">Get a desktop notification when someone mentions you while Switchboard is in the background.</p>
      <Button size="sm" onClick={() => void request().then(dismiss)} data-testid="desktop-prompt-enable">
        Enable desktop notifications
      </Button>
      <button
        type="button"
        onClick={dismiss}
        aria-label="Not now"
        title="Not now"
        className="rounded-md p-1 text-indigo-400 hover:bg-indigo-100 hover:text-indigo-700"
        data-testid="desktop-prompt-dismiss"
      >
        <XIcon size={15} />
      </button>
    </div>
  );
}
