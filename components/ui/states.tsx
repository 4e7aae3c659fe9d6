// Loading, empty and error states for list pages: skeleton rows, a friendly empty card, and the
// server's own error message (error.data.app.message) with a retry.
import type { ReactNode } from "react";
import { Button } from "./button";
import { appErrorOf } from "./errors";
import { AlertIcon } from "./icons";

export function SkeletonRows({ rows = 4, testId = "skeleton" }: { rows?: number; testId?: string }) {
  return (
    <div
      className="divide-y divide-zinc-100 rounded-xl border border-zinc-200 bg-white"
      role="status"
      aria-busy="true"
      aria-label="Loading"
      data-testid={testId}
    >
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center gap-3 px-4 py-4">
          <div className="h-9 w-9 shrink-0 animate-pulse rounded-full bg-zinc-200" />
          <div className="flex-1 space-y-2">
            <div className="h-3 animate-pulse rounded bg-zinc-200" style={{ width: `${30 + ((i * 17) % 30)}%` }} />
            <div className="h-3 animate-pulse rounded bg-zinc-100" style={{ width: `${50 + ((i * 23) % 40)}%` }} />
          </div>
          <div className="h-8 w-20 shrink-0 animate-pulse rounded-md bg-zinc-100" />
        </div>
      ))}
    </div>
  );
}

export function EmptyState({
  icon,
  title,
  body,
  children,
  testId = "empty-state",
}: {
  icon?: ReactNode;
  title: string;
  body: ReactNode;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="rounded-xl border border-dashed border-zinc-300 bg-zinc-50/60 px-6 py-12 text-center" data-testid={testId}>
      {icon && (
        <div className="mx-auto mb-3 flex h-11 w-11 items-center justify-center rounded-xl bg-white text-zinc-500 shadow-xs ring-1 ring-zinc-200">{icon}</div>
      )}
      <h2 className="text-[15px] font-semibold text-zinc-900">{title}</h2>
      <p className="mx-auto mt-1 max-w-md text-sm text-zinc-500">{body}</p>
      {children && <div className="mt-5 flex flex-wrap justify-center gap-2">{children}</div>}
    </div>
  );
}

export function ErrorState({
  error,
  onRetry,
  title = "Couldn't load this",
  testId = "error-state",
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
  testId?: string;
}) {
  const app = appErrorOf(error);
  return (
    <div role="alert" className="rounded-xl border border-rose-200 bg-rose-50/70 px-6 py-8 text-center" data-testid={testId} data-code={app.code}>
      <div className="mx-auto mb-3 flex h-10 w-10 items-center justify-center rounded-xl bg-white text-rose-600 ring-1 ring-rose-200">
        <AlertIcon size={20} />
      </div>
      <h2 className="text-[15px] font-semibold text-rose-900">{title}</h2>
      <p className="mx-auto mt-1 max-w-md text-sm text-rose-700">{app.message}</p>
      {onRetry && (
        <Button variant="secondary" size="sm" className="mt-4" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}
