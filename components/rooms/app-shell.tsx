"use client";
// The signed-in frame: one socket for the tab, the sidebar, and the page beside it. On narrow
// screens the sidebar slides over the page and closes on navigation.
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { Alerts } from "@/components/notifications/alerts";
import { DesktopNotifications } from "@/components/notifications/desktop-prompt";
import { SocketProvider, useSocket } from "@/components/providers/socket-provider";
import { ViewerProvider, type Viewer } from "@/components/providers/viewer-provider";
import { MAIN_ID, SkipLink } from "@/components/keyboard/skip-link";
import { Toaster } from "@/components/ui/toast";
import { LAST_WORKSPACE_COOKIE } from "@/components/nav/workspace-paths";
import { WorkspaceRail } from "@/components/nav/workspace-rail";
import { Sidebar } from "./sidebar";
import { useAppHeight } from "./use-app-height";
import { usePathname } from "@/components/nav/workspace-routing";

const NavContext = createContext<() => void>(() => {});

/** Opens the sidebar on narrow screens (the header's menu button). */
export const useOpenNav = () => useContext(NavContext);

export function AppShell({ viewer, children }: { viewer: Viewer; children: ReactNode }) {
  const [navOpen, setNavOpen] = useState(false);
  const pathname = usePathname();
  useEffect(() => setNavOpen(false), [pathname]);
  useAppHeight();
  useRememberWorkspace(viewer.workspace.id);

  return (
    <ViewerProvider viewer={viewer}>
      <SocketProvider>
        <NavContext.Provider value={() => setNavOpen(true)}>
          <SkipLink />
          <div className="flex h-[var(--app-height,100dvh)] overflow-hidden bg-white">
            <div
              className={`flex h-full shrink-0 max-md:fixed max-md:inset-y-0 max-md:left-0 max-md:z-40 max-md:transition-transform ${
                navOpen ? "max-md:shadow-2xl" : "max-md:-translate-x-full"
              }`}
            >
              <WorkspaceRail />
              <Sidebar />
            </div>
            {navOpen && <div className="fixed inset-0 z-30 bg-zinc-950/40 md:hidden" onClick={() => setNavOpen(false)} aria-hidden="true" />}
            <main id={MAIN_ID} tabIndex={-1} className="flex min-w-0 flex-1 flex-col focus:outline-none">
              <ConnectionBanner />
              <DesktopNotifications />
              <Alerts />
              <div className="flex min-h-0 flex-1">{children}</div>
            </main>
          </div>
          {/* One for every signed-in page: rooms' notices (a mention that reached nobody) and pages' confirmations. */}
          <Toaster />
        </NavContext.Provider>
      </SocketProvider>
    </ViewerProvider>
  );
}

/** "/" (and a link without a workspace) opens the workspace this browser was last in (app/_lib/viewer.ts). */
function useRememberWorkspace(workspaceId: string): void {
  useEffect(() => {
    document.cookie = `${LAST_WORKSPACE_COOKIE}=${encodeURIComponent(workspaceId)}; path=/; max-age=31536000; samesite=lax`;
  }, [workspaceId]);
}

function ConnectionBanner() {
  const { status } = useSocket();
  if (status !== "reconnecting") return null;
  return (
    <div
      className="flex shrink-0 items-center justify-center gap-2 bg-amber-50 px-4 py-1.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200"
      role="status"
      data-testid="reconnecting"
    >
      <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-amber-500" />
      Reconnecting… messages you send will go out when the connection is back.
    </div>
  );
}
