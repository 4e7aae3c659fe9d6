"use client";
// An agent's sessions on its card: every runtime binding, closed ones too (dimmed), most recently used
// first, with where each runs and Close for whoever the server says may close it. Live.
import { Link } from "@/components/nav/workspace-routing";
import { useState } from "react";
import type { BindingForViewer } from "@switchboard/sdk/bindings";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { errorMessage } from "@/components/ui/errors";
import { AlertIcon } from "@/components/ui/icons";
import { dateTime, relativeTime } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { CopyIdButton, StatusText } from "./binding-status";
import { plural, resumeWarning, runtimeLabel, shortId, statusNow } from "./format";
import { useAgentBindings, useBindingClock, useCloseBinding } from "./use-bindings";

export function AgentSessions({ agentId, handle }: { agentId: string; handle: string }) {
  const { query, apply } = useAgentBindings(agentId);
  const now = useBindingClock(query.data);
  const [closing, setClosing] = useState<BindingForViewer | null>(null);
  const close = useCloseBinding((b) => {
    apply(b);
    setClosing(null);
    toast(`Closed @${b.agent.handle}'s ${runtimeLabel(b.runtime)}`);
  });
  const list = query.data ?? [];
  const open = list.filter((b) => b.status !== "closed").length;

  return (
    <section className="min-w-0" aria-labelledby={`sessions-${agentId}`} data-testid="agent-sessions">
      <h3 id={`sessions-${agentId}`} className="mb-1.5 flex items-center gap-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
        Sessions
        {query.isSuccess && list.length > 0 && (
          <span className="font-normal tracking-normal normal-case">
            {open} open{list.length > open ? ` · ${list.length - open} closed` : ""}
          </span>
        )}
      </h3>
      {query.isPending ? (
        <div
          className="space-y-2 rounded-lg border border-zinc-200 bg-white px-3 py-3"
          role="status"
          aria-busy="true"
          aria-label="Loading sessions"
          data-testid="agent-sessions-loading"
        >
          <div className="h-3 w-2/5 animate-pulse rounded bg-zinc-200" />
          <div className="h-3 w-3/5 animate-pulse rounded bg-zinc-100" />
        </div>
      ) : query.isError ? (
        <p role="alert" className="flex flex-wrap items-center gap-2 text-sm text-rose-700">
          Couldn&apos;t load sessions: {errorMessage(query.error)}
          <button type="button" onClick={() => void query.refetch()} className="font-medium text-rose-800 underline underline-offset-2">
            Try again
          </button>
        </p>
      ) : list.length === 0 ? (
        <p className="text-sm text-zinc-500" data-testid="agent-sessions-empty">
          No sessions yet: bindings appear when the agent answers with a runtime adapter.
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100 overflow-hidden rounded-lg border border-zinc-200 bg-white" data-testid="agent-sessions-list">
          {list.map((b) => (
            <SessionRow key={b.id} binding={b} now={now} onClose={() => setClosing(b)} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={closing !== null}
        onClose={() => {
          setClosing(null);
          close.reset();
        }}
        title={`Close @${handle}'s session?`}
        error={close.error}
        testId="close-session-dialog"
        confirm={{
          label: "Close session",
          variant: "danger",
          busy: close.isPending,
          onConfirm: () => closing && close.mutate({ bindingId: closing.id }),
          testId: "confirm-close-session",
        }}
      >
        {closing && (
          <p>
            The next message to <strong className="font-semibold text-zinc-900">@{handle}</strong> in {roomName(closing)} starts a new session. The{" "}
            {runtimeLabel(closing.runtime)}
            {closing.externalId && <code className="mx-1 font-mono text-[12.5px]">{shortId(closing.externalId)}</code>} is no longer resumed.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}

const roomName = (b: BindingForViewer) => (b.room.kind === "channel" ? `#${b.room.title}` : b.room.title);

function SessionRow({ binding: b, now, onClose }: { binding: BindingForViewer; now: number; onClose: () => void }) {
  const status = statusNow(b, now);
  const closed = status === "closed";
  const warning = resumeWarning(b);
  const where = [b.runner, b.host && b.host !== b.runner ? b.host : null].filter(Boolean).join(" · ");
  return (
    <li className={`flex items-start gap-3 px-3 py-2.5 ${closed ? "bg-zinc-50/70" : ""}`} data-testid="session-row" data-binding-id={b.id} data-status={status}>
      <div className={`min-w-0 flex-1 ${closed ? "opacity-60" : ""}`}>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-sm">
          {b.room.readable ? (
            <Link href={`/r/${b.room.id}`} className="truncate font-medium text-zinc-900 hover:text-indigo-700 hover:underline" data-testid="session-room">
              {roomName(b)}
            </Link>
          ) : (
            <span className="truncate font-medium text-zinc-900" title="You are not in this room" data-testid="session-room">
              {roomName(b)}
            </span>
          )}
          <span className="text-xs text-zinc-500">{b.threadRootId ? "in a thread" : "top level"}</span>
          <span className="text-zinc-300" aria-hidden="true">
            ·
          </span>
          <span className="text-zinc-700" data-testid="session-runtime">
            {runtimeLabel(b.runtime)}
          </span>
          {b.externalId && (
            <span className="inline-flex items-center">
              <code className="font-mono text-[12px] text-zinc-700" title={b.externalId} data-testid="session-id">
                {shortId(b.externalId)}
              </code>
              <CopyIdButton value={b.externalId} />
            </span>
          )}
        </div>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-1.5 text-xs text-zinc-500" data-testid="session-meta">
          <StatusText status={status} long />
          <span aria-hidden="true">·</span>
          <span>
            {plural(b.turns, "turn")}
            {b.resumes > 0 && ` · resumed ${b.resumes}×`}
            {b.resumeFailures > 0 && (
              <span className="text-amber-700" title="Resumes that failed: the session was gone, a new one started">
                {" "}
                · {b.resumeFailures} failed
              </span>
            )}
          </span>
          <span aria-hidden="true">·</span>
          <span title={dateTime(b.lastUsedAt)}>last used {relativeTime(b.lastUsedAt, now)}</span>
          {where && (
            <>
              <span aria-hidden="true">·</span>
              <span>on {where}</span>
            </>
          )}
          {b.workdir && (
            <code className="max-w-[16rem] truncate font-mono text-[11px] text-zinc-500" title={b.workdir}>
              {b.workdir}
            </code>
          )}
        </p>
        {closed && b.closedAt && (
          <p className="mt-0.5 text-xs text-zinc-500" data-testid="session-closed" title={dateTime(b.closedAt)}>
            Closed {relativeTime(b.closedAt, now)}
            {b.closedBy && ` by @${b.closedBy.handle}`}
          </p>
        )}
        {warning && (
          <p className="mt-1 flex gap-1.5 text-xs text-amber-800" data-testid="session-warning">
            <AlertIcon size={13} className="mt-px shrink-0 text-amber-600" />
            <span className="min-w-0 break-words">{warning}</span>
          </p>
        )}
      </div>
      {b.can.close && !closed && (
        <button
          type="button"
          onClick={onClose}
          data-testid="session-close"
          aria-label={`Close ${runtimeLabel(b.runtime)} in ${roomName(b)}`}
          className="inline-flex h-7 shrink-0 items-center rounded-md px-2 text-sm font-medium text-rose-600 hover:bg-rose-50 hover:text-rose-700"
        >
          Close
        </button>
      )}
    </li>
  );
}
