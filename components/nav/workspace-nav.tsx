"use client";
// The sidebar's workspace pages: Search (messages; Ctrl/⌘+Shift+F), Needs you (open questions the viewer may answer, live; Ctrl/⌘+Shift+Y),
// Work (what agents are doing, live), Agents, Directory, Inbox (with the number of requests waiting for the viewer's decision, live) and
// Admin (owners and admins).
import { useEffect, type ReactNode } from "react";
import { useViewer } from "@/components/providers/viewer-provider";
import { BotIcon, CompassIcon, HandIcon, InboxIcon, SearchIcon, ShieldIcon } from "@/components/ui/icons";
import { ChartIcon } from "@/components/ui/usage-icons";
import { useConnectionEvents, usePendingConnections } from "@/components/inbox/use-inbox";
import { useOpenQuestionCount, useQuestionEvents } from "@/components/questions/use-questions";
import { useWorkStatusEvents } from "@/components/work/use-work-statuses";
import { LayersIcon } from "@/components/work/work-icons";
import { Link, usePathname, useRouter } from "@/components/nav/workspace-routing";

export function WorkspaceNav() {
  const { can } = useViewer();
  const pathname = usePathname();
  useConnectionEvents();
  const { incoming } = usePendingConnections();
  useQuestionEvents();
  const questions = useOpenQuestionCount();
  usePageShortcuts();
  useWorkStatusEvents();
  const active = (href: string) => pathname === href || pathname.startsWith(`${href}/`);
  return (
    <section className="mb-4" aria-label="Workspace pages" data-testid="workspace-nav">
      <ul className="space-y-px">
        <NavLink href="/search" active={active("/search")} icon={<SearchIcon size={15} />} testId="nav-search" title="Search messages (Ctrl+Shift+F)">
          Search
        </NavLink>
        <NavLink
          href="/needs-you"
          active={active("/needs-you")}
          icon={<HandIcon size={15} />}
          testId="nav-needs-you"
          title="Needs you (Ctrl+Shift+Y)"
          badge={<CountBadge count={questions} testId="needs-you-badge" what={(n) => `${n} question${n === 1 ? "" : "s"} waiting for your answer`} />}
        >
          Needs you
        </NavLink>
        <NavLink href="/work" active={active("/work")} icon={<LayersIcon size={15} />} testId="nav-work">
          Work
        </NavLink>
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
          badge={<CountBadge count={incoming.length} testId="inbox-badge" what={(n) => `${n} request${n === 1 ? "" : "s"} waiting for you`} />}
        >
          Inbox
        </NavLink>
        <NavLink href="/usage" active={active("/usage")} icon={<ChartIcon size={15} />} testId="nav-usage">
          Usage
        </NavLink>
        {can.manage && (
          <NavLink href="/admin" active={active("/admin")} icon={<ShieldIcon size={15} />} testId="nav-admin">
            Admin
          </NavLink>
        )}
      </ul>
    </section>
  );
}

/** Ctrl/⌘+Shift+Y opens Needs you from anywhere. */
/** Ctrl/⌘+Shift+Y: Needs you; Ctrl/⌘+Shift+F: search messages. */
function usePageShortcuts() {
  const router = useRouter();
  useEffect(() => {
    const pages: Record<string, string> = { y: "/needs-you", f: "/search" };
    const onKey = (e: KeyboardEvent) => {
      const page = (e.metaKey || e.ctrlKey) && e.shiftKey && !e.isComposing ? pages[e.key.toLowerCase()] : undefined;
      if (page) {
        e.preventDefault();
        router.push(page);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router]);
}

function CountBadge({ count, testId, what }: { count: number; testId: string; what: (n: number) => string }) {
  if (count <= 0) return null;
  return (
    <span
      data-testid={testId}
      title={what(count)}
      className="inline-flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-rose-700 px-1.5 text-[11px] font-bold text-white"
    >
      {count > 99 ? "99+" : count}
    </span>
  );
}

function NavLink({
  href,
  active,
  icon,
  badge,
  testId,
  title,
  children,
}: {
  href: string;
  active: boolean;
  icon: ReactNode;
  badge?: ReactNode;
  testId: string;
  title?: string;
  children: ReactNode;
}) {
  return (
    <li>
      <Link
        href={href}
        title={title}
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
