"use client";
// Small pieces the usage dashboard is built from: cards, share bars, the CSV button, the live dot,
// and loading skeletons shaped like what they stand in for.
import { useEffect, useState, type ReactNode } from "react";
import { Spinner } from "@/components/ui/button";
import { DownloadIcon } from "@/components/ui/extra-icons";
import type { ConnectionStatus } from "@/components/providers/socket-provider";
import { formatShare } from "./format";

export function Card({
  title,
  subtitle,
  icon,
  actions,
  children,
  className = "",
  testId,
  flush = false,
  bodyClassName = "",
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  icon?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
  /** No body padding (tables run edge to edge). */
  flush?: boolean;
  bodyClassName?: string;
}) {
  return (
    <section className={`flex min-w-0 flex-col rounded-xl border border-zinc-200 bg-white shadow-xs ${className}`} data-testid={testId}>
      <header className="flex flex-wrap items-start gap-x-3 gap-y-2 px-4 pt-3.5 pb-2">
        <div className="min-w-0 flex-1">
          <h2 className="flex items-center gap-1.5 text-sm font-semibold text-zinc-900">
            {icon && <span className="text-zinc-500">{icon}</span>}
            {title}
          </h2>
          {subtitle && <p className="mt-0.5 text-xs text-zinc-500">{subtitle}</p>}
        </div>
        {/* On a phone a wide control (the breakdown's tabs) scrolls sideways here rather than widening the page. */}
        {actions && <div className="flex max-w-full shrink-0 items-center gap-1.5 overflow-x-auto">{actions}</div>}
      </header>
      <div className={`min-h-0 flex-1 ${flush ? "" : "px-4 pb-4"} ${bodyClassName}`}>{children}</div>
    </section>
  );
}

/** A thin horizontal bar: `share` of 0..1, coloured by tone. */
export function ShareBar({ share, tone = "bg-indigo-500", label, className = "" }: { share: number; tone?: string; label?: string; className?: string }) {
  const pct = Math.max(0, Math.min(1, share)) * 100;
  return (
    <div
      className={`h-1.5 w-full overflow-hidden rounded-full bg-zinc-100 ${className}`}
      role="meter"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(pct)}
      aria-label={label ?? formatShare(share)}
    >
      <div className={`h-full rounded-full transition-[width] duration-500 ${tone}`} style={{ width: `${pct > 0 && pct < 1.5 ? 1.5 : pct}%` }} />
    </div>
  );
}

export function CsvButton({ onClick, busy, testId, label = "CSV" }: { onClick: () => void; busy: boolean; testId: string; label?: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={busy}
      data-testid={testId}
      title="Download this view as CSV"
      className="inline-flex h-7 items-center gap-1 rounded-md px-2 text-xs font-medium text-zinc-500 ring-1 ring-zinc-200 ring-inset hover:bg-zinc-50 hover:text-zinc-800 disabled:opacity-60"
    >
      {busy ? <Spinner className="h-3.5 w-3.5" /> : <DownloadIcon size={13} />}
      {label}
    </button>
  );
}

/** "Live" with a dot that flashes when a report arrives; amber while the socket reconnects. */
export function LiveIndicator({
  status,
  live,
  lastEventAt,
  fetching,
}: {
  status: ConnectionStatus;
  live: boolean;
  lastEventAt: number | null;
  fetching: boolean;
}) {
  const [flash, setFlash] = useState(false);
  useEffect(() => {
    if (!lastEventAt) return;
    setFlash(true);
    const t = setTimeout(() => setFlash(false), 1600);
    return () => clearTimeout(t);
  }, [lastEventAt]);
  return (
    <span
      data-testid="usage-live"
      data-status={live ? "live" : status === "connected" ? "connecting" : status}
      title={live ? "Numbers update as agents report model calls" : "Reconnecting: numbers will catch up when the connection is back"}
      className={`inline-flex h-7 items-center gap-1.5 rounded-full px-2.5 text-xs font-medium ring-1 ring-inset transition-colors ${
        live
          ? flash
            ? "bg-emerald-50 text-emerald-700 ring-emerald-200"
            : "bg-white text-zinc-600 ring-zinc-200"
          : "bg-amber-50 text-amber-800 ring-amber-200"
      }`}
    >
      <span className="relative flex h-2 w-2">
        {live && flash && <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-emerald-400 opacity-75" />}
        <span className={`relative inline-flex h-2 w-2 rounded-full ${live ? "bg-emerald-500" : "animate-pulse bg-amber-500"}`} />
      </span>
      {live ? (fetching && flash ? "Updating…" : "Live") : status === "reconnecting" ? "Reconnecting" : "Connecting"}
    </span>
  );
}

export function Skeleton({ className = "" }: { className?: string }) {
  return <div className={`animate-pulse rounded-md bg-zinc-200/70 ${className}`} />;
}

export function DashboardSkeleton() {
  return (
    <div className="space-y-4" role="status" aria-busy="true" aria-label="Loading usage" data-testid="usage-skeleton">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="rounded-xl border border-zinc-200 bg-white p-4 shadow-xs">
            <Skeleton className="h-3 w-20" />
            <Skeleton className="mt-3 h-7 w-28" />
            <Skeleton className="mt-3 h-2 w-full bg-zinc-100" />
          </div>
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <div className="rounded-xl border border-zinc-200 bg-white p-4 shadow-xs lg:col-span-2">
          <Skeleton className="h-4 w-36" />
          <div className="mt-6 flex h-52 items-end gap-1.5">
            {Array.from({ length: 24 }, (_, i) => (
              <div key={i} className="flex-1 animate-pulse rounded-t bg-zinc-100" style={{ height: `${20 + ((i * 37) % 70)}%` }} />
            ))}
          </div>
        </div>
        <div className="rounded-xl border border-zinc-200 bg-white p-4 shadow-xs">
          <Skeleton className="h-4 w-28" />
          <div className="mx-auto mt-6 h-36 w-36 animate-pulse rounded-full border-[18px] border-zinc-100" />
        </div>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        {[0, 1].map((k) => (
          <div key={k} className="space-y-3 rounded-xl border border-zinc-200 bg-white p-4 shadow-xs">
            <Skeleton className="h-4 w-32" />
            {Array.from({ length: 4 }, (_, i) => (
              <div key={i} className="flex items-center gap-3">
                <Skeleton className="h-7 w-7 rounded-full" />
                <div className="flex-1 space-y-1.5">
                  <Skeleton className="h-3" />
                  <Skeleton className="h-1.5 bg-zinc-100" />
                </div>
              </div>
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
