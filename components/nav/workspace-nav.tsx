"use client";
// The sidebar's workspace pages: Agents, Directory, Inbox (with the number of requests waiting for the
// viewer's decision, live) and Admin (owners and admins).
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { useViewer } from "@/components/providers/viewer-provider";
import { BotIcon, CompassIcon, InboxIcon, ShieldIcon } from "@/components/ui/icons";
import { ChartIcon } from "@/components/ui/usage-icons";
import { useConnectionEvents, usePendingConnections } from "@/components/inbox/use-inbox";

export function WorkspaceNav() {
  const { can } = useViewer();
  const pathname = usePathname();
  useConnectionEvents();
  const { incoming } = usePendingConnections();
  const active = (href: string) => pathname === href || pathname.startsWith(`${href}/`);
  return (
    <section className="mb-4" aria-label="Workspace pages" data-testid="workspace-nav">
      <ul className="space-y-px">
        <NavLink href="/agents" active={active("/agents")} icon={<BotIcon size={15} />} testId="nav-agents">
          Agents
        </NavLink>
        <NavLink href="/directory" active={active("/directory")} icon={<CompassIcon size={15} />} testId="nav-directory">
          Directory
        </NavLink>
        <NavLink
          href="/inbox"
          active={active("/inbox")}
          icon={<InboxIcon size={15} />}
          testId="nav-inbox"
          badge={
            incoming.length > 0 ? (
              <span
                data-testid="inbox-badge"
                title={`${incoming.length} request${incoming.length === 1 ? "" : "s"} waiting for you`}
                className="inline-flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-rose-500 px-1.5 text-[11px] font-bold text-white"
              >
                {incoming.length > 99 ? "99+" : incoming.length}
              </span>
            ) : null
          }
        >
          Inbox
        </NavLink>
        <NavLink href="/usage" active={active("/usage")} icon={<ChartIcon size={15} />} testId="nav-usage">Usage</NavLink>
        {can.manage && (
          <NavLink href="/admin" active={active("/admin")} icon={<ShieldIcon size={15} />} testId="nav-admin">
            Admin
          </NavLink>
        )}
      </ul>
    </section>
  );
}

function NavLink({ href, active, icon, badge, testId, children }: { href: string; active: boolean; icon: ReactNode; badge?: ReactNode; testId: string; children: ReactNode }) {
  return (
    <li>
      <Link
        href={href}
        data-testid={testId}
        aria-current={active ? "page" : undefined}
        className={`flex h-8 items-center gap-2 rounded-md px-2 text-[15px] ${
          active ? "bg-indigo-600 font-medium text-white" : "text-zinc-400 hover:bg-white/5 hover:text-zinc-100"
        }`}
      >
        <span className="shrink-0 opacity-70">{icon}</span>
        <span className="min-w-0 flex-1 truncate">{children}</span>
        {badge}
      </Link>
    </li>
  );
}
