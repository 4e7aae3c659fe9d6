"use client";
// The notification permission as React state: read from the browser, and re-read after the person
// answers the prompt (the browser fires no event for that in every engine).
import { useCallback, useSyncExternalStore } from "react";
import { desktopPermission, requestDesktopPermission, type DesktopPermission } from "./browser-notifications";

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export function useDesktopPermission(): { permission: DesktopPermission; request: () => Promise<DesktopPermission> } {
  // On the server (and in the first render) there is no Notification API: "unsupported" shows nothing.
  const permission = useSyncExternalStore(subscribe, desktopPermission, () => "unsupported" as const);
  const request = useCallback(async () => {
    const answer = await requestDesktopPermission();
    for (const listener of listeners) listener();
    return answer;
  }, []);
  return { permission, request };
}
