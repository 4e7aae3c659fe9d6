"use client";
// The frame of a workspace page (agents, directory, inbox, admin): a header that matches the room
// header (menu button on narrow screens, title, actions), a scrolling body, and the toast outlet.
import { useEffect, type ReactNode } from "react";
import { useOpenNav } from "@/components/rooms/app-shell";
import { documentTitle } from "@/components/ui/document-title";
import { MenuIcon } from "@/components/ui/icons";

export function PageFrame({
  title,
  subtitle,
  icon,
  actions,
  children,
  testId,
  wide = false,
}: {
  title: string;
  subtitle?: ReactNode;
  icon?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
  wide?: boolean;
}) {
  const openNav = useOpenNav();
  useEffect(() => {
    documentTitle.setPage(title);
  }, [title]);
  return (
    <div className="flex min-w-0 flex-1 flex-col bg-white" data-testid={testId}>
      <header className="flex h-14 shrink-0 items-center gap-3 border-b border-zinc-200 bg-white px-5">
        <button type="button" onClick={openNav} aria-label="Open navigation" className="-ml-2 rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 md:hidden">
          <MenuIcon size={20} />
        </button>
        <h1 className="flex min-w-0 items-center gap-2 text-[17px] font-bold text-zinc-900" data-testid="page-title">
          {icon && <span className="shrink-0 text-zinc-500">{icon}</span>}
          <span className="truncate">{title}</span>
        </h1>
        {subtitle && (
          <>
            <span className="h-4 w-px shrink-0 bg-zinc-200 max-md:hidden" />
            <p className="min-w-0 truncate text-sm text-zinc-500 max-md:hidden">{subtitle}</p>
          </>
        )}
        {actions && <div className="ml-auto flex shrink-0 items-center gap-2">{actions}</div>}
      </header>
      <div className="scroll-quiet min-h-0 flex-1 overflow-y-auto bg-zinc-50/40">
        <div className={`mx-auto w-full px-4 py-6 sm:px-6 ${wide ? "max-w-6xl" : "max-w-4xl"}`}>{children}</div>
      </div>
    </div>
  );
}
