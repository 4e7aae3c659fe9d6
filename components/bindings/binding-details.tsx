"use client";
// One binding in full, for the room header's panel: its session, status, counters, where it runs,
// the last error, and Close session (with a confirm step) for whoever the server says may close it.
import { useState } from "react";
import type { BindingForViewer, BindingView } from "@switchboard/sdk/bindings";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { AlertIcon } from "@/components/ui/icons";
import { dateTime, relativeTime } from "@/components/ui/time";
import { CopyIdButton, StatusText } from "./binding-status";
import { plural, resumeWarning, runtimeLabel, STATUS, statusNow } from "./format";
import { useCloseBinding } from "./use-bindings";

export function BindingDetails({
  binding: b,
  now,
  onClosed,
  onOpenThread,
}: {
  binding: BindingForViewer;
  now: number;
  onClosed: (b: BindingView) => void;
  /** Opens the thread the session follows (a thread's binding). */
  onOpenThread?: (rootId: string) => void;
}) {
  const status = statusNow(b, now);
  const warning = resumeWarning(b);
  const where = [b.runner, b.host && b.host !== b.runner ? b.host : null].filter(Boolean).join(" · ");
  return (
    <section
      className="space-y-3 p-3.5"
      data-testid="binding-details"
      data-binding-id={b.id}
      data-status={status}
      aria-label={`@${b.agent.handle}'s ${runtimeLabel(b.runtime)}`}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="truncate font-semibold text-zinc-900">
            {b.agent.displayName} <span className="font-normal text-zinc-500">@{b.agent.handle}</span>
          </h3>
          <p className="text-xs text-zinc-500">
            {runtimeLabel(b.runtime)} · {b.threadRootId ? "in a thread" : "top level"}
          </p>
        </div>
        <span className="shrink-0 text-xs">
          <StatusText status={status} />
        </span>
      </div>

      {status === "stale" && <p className="text-xs text-orange-700">{STATUS.stale.hint}: the next message takes it over.</p>}
      {warning && (
        <p
          role="note"
          className="flex gap-2 rounded-md bg-amber-50 px-2.5 py-2 text-xs text-amber-900 ring-1 ring-amber-200 ring-inset"
          data-testid="binding-warning"
        >
          <AlertIcon size={14} className="mt-px shrink-0 text-amber-600" />
          <span className="min-w-0 break-words">{warning}</span>
        </p>
      )}

      <dl className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-xs">
        <dt className="self-center text-zinc-500">Session</dt>
        <dd className="flex min-w-0 items-center gap-1">
          {b.externalId ? (
            <>
              <code className="min-w-0 truncate font-mono text-[11.5px] text-zinc-800" title={b.externalId} data-testid="binding-external-id">
                {b.externalId}
              </code>
              <CopyIdButton value={b.externalId} />
            </>
          ) : (
            <span className="text-zinc-500">{status === "closed" ? "let go" : "not started yet"}</span>
          )}
        </dd>
        <dt className="text-zinc-500">Turns</dt>
        <dd data-testid="binding-counters">
          {plural(b.turns, "turn")}
          {b.resumes > 0 && ` · resumed ${b.resumes}×`}
          {b.resumeFailures > 0 && (
            <span className="text-amber-700" title="Resumes that failed: the session was gone, a new one started">
              {" "}
              · {b.resumeFailures} failed
            </span>
          )}
        </dd>
        <dt className="text-zinc-500">Last used</dt>
        <dd title={dateTime(b.lastUsedAt)}>{relativeTime(b.lastUsedAt, now)}</dd>
        <dt className="text-zinc-500">Where</dt>
        <dd className="min-w-0">
          {where || <span className="text-zinc-500">not reported</span>}
          {b.workdir && (
            <code className="block truncate font-mono text-[11.5px] text-zinc-600" title={b.workdir}>
              {b.workdir}
            </code>
          )}
        </dd>
        <dt className="text-zinc-500">Generation</dt>
        <dd title="Sessions this key has had: a close or a failed resume starts the next">{b.generation}</dd>
        {b.lastError && !warning && (
          <>
            <dt className="text-zinc-500">Last error</dt>
            <dd className="break-words text-rose-700">{b.lastError}</dd>
          </>
        )}
        {b.closedAt && (
          <>
            <dt className="text-zinc-500">Closed</dt>
            <dd>
              {relativeTime(b.closedAt, now)}
              {b.closedBy && ` by @${b.closedBy.handle}`}
            </dd>
          </>
        )}
      </dl>

      {(onOpenThread && b.threadRootId) || (b.can.close && status !== "closed") ? (
        <div className="flex flex-wrap items-center justify-end gap-2 border-t border-zinc-100 pt-3">
          {onOpenThread && b.threadRootId && (
            <Button variant="ghost" size="sm" className="mr-auto" onClick={() => onOpenThread(b.threadRootId!)}>
              Open thread
            </Button>
          )}
          {b.can.close && status !== "closed" && <CloseSession binding={b} onClosed={onClosed} />}
        </div>
      ) : null}
    </section>
  );
}

/** "Close session", then a confirm step that says what closing does. */
function CloseSession({ binding: b, onClosed }: { binding: BindingForViewer; onClosed: (b: BindingView) => void }) {
  const [confirming, setConfirming] = useState(false);
  const close = useCloseBinding(onClosed);
  if (!confirming) {
    return (
      <Button variant="secondary" size="sm" onClick={() => setConfirming(true)} data-testid="close-session">
        Close session
      </Button>
    );
  }
  return (
    <div className="w-full space-y-2 rounded-md bg-rose-50/60 p-2.5 ring-1 ring-rose-100 ring-inset" data-testid="close-session-confirm">
      <p className="text-xs text-zinc-700">
        Close this session? The next message to <strong className="font-semibold">@{b.agent.handle}</strong> here starts a new session.
      </p>
      {close.isError && (
        <p role="alert" className="text-xs text-rose-700">
          {errorMessage(close.error)}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={() => setConfirming(false)} autoFocus>
          Cancel
        </Button>
        <Button variant="danger" size="sm" disabled={close.isPending} onClick={() => close.mutate({ bindingId: b.id })} data-testid="confirm-close-session">
          {close.isPending && <Spinner className="h-3.5 w-3.5" />} Close session
        </Button>
      </div>
    </div>
  );
}
