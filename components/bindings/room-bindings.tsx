"use client";
// The room header's quiet line of sessions bound here: a chip per top-level binding ("@scout · Claude
// session 5f2e8a… on dana-laptop · resumed 3×", its status as a dot), the rest summarised ("+2 in
// threads"); a click opens the details and, for whoever may, Close session. Nothing when none.
import { useRef, useState } from "react";
import type { BindingForViewer, BindingView } from "@switchboard/sdk/bindings";
import { AlertIcon } from "@/components/ui/icons";
import { BindingDetails } from "./binding-details";
import { StatusDot } from "./binding-status";
import { plural, resumeWarning, runtimeLabel, shortId, STATUS, statusNow, whereShort } from "./format";
import { Popover } from "./popover";
import { useBindingClock, useRoomBindings } from "./use-bindings";

/** Top-level bindings shown as their own chip; the others are summarised in one. */
const CHIPS = 2;

export function RoomBindings({ roomId, onOpenThread }: { roomId: string; onOpenThread?: (rootId: string) => void }) {
  const { query, apply } = useRoomBindings(roomId);
  const list = query.data ?? [];
  const now = useBindingClock(query.data);
  const [notice, setNotice] = useState("");
  const onClosed = (b: BindingView) => {
    apply(b);
    setNotice(`Session closed. The next message to @${b.agent.handle} here starts a new session.`);
  };
  const top = list.filter((b) => !b.threadRootId);
  const shown = top.slice(0, CHIPS);
  const extra = top.slice(CHIPS);
  const inThreads = list.filter((b) => b.threadRootId);
  return (
    <>
      <span className="sr-only" aria-live="polite" data-testid="room-bindings-notice">
        {notice}
      </span>
      {list.length > 0 && (
        <div role="group" aria-label="Sessions bound in this room" className="flex min-w-0 shrink items-center gap-1.5" data-testid="room-bindings">
          {shown.map((b) => (
            <BindingChip key={b.id} binding={b} now={now} onClosed={onClosed} />
          ))}
          {extra.length + inThreads.length > 0 && <MoreChip extra={extra} inThreads={inThreads} now={now} onClosed={onClosed} onOpenThread={onOpenThread} />}
        </div>
      )}
    </>
  );
}

const chipClass = (warn: boolean) =>
  `inline-flex h-7 max-w-full min-w-0 items-center gap-1.5 rounded-full px-2.5 text-xs ring-1 ring-inset transition-colors aria-expanded:ring-indigo-300 ${
    warn ? "bg-amber-50 text-amber-900 ring-amber-200 hover:bg-amber-100" : "bg-white text-zinc-600 ring-zinc-200 hover:bg-zinc-50 hover:text-zinc-900"
  }`;

function BindingChip({ binding: b, now, onClosed }: { binding: BindingForViewer; now: number; onClosed: (b: BindingView) => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const status = statusNow(b, now);
  const warning = resumeWarning(b);
  const where = whereShort(b);
  return (
    <div className="relative min-w-0">
      <button
        ref={button}
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-haspopup="dialog"
        aria-expanded={open}
        title={warning ?? `${STATUS[status].label}: ${STATUS[status].hint.toLowerCase()}`}
        data-testid="binding-chip"
        data-binding-id={b.id}
        data-status={status}
        data-warning={warning ? "true" : undefined}
        className={chipClass(Boolean(warning))}
      >
        {warning ? <AlertIcon size={13} className="shrink-0 text-amber-600" /> : <StatusDot status={status} />}
        <span className="truncate">
          <span className="font-medium text-zinc-800">@{b.agent.handle}</span>
          <span className="max-lg:hidden" data-testid="binding-chip-detail">
            {" · "}
            {runtimeLabel(b.runtime)}
            {b.externalId && <span className="font-mono text-[11px]"> {shortId(b.externalId)}</span>}
            {where && ` on ${where}`}
            {b.resumes > 0 && ` · resumed ${b.resumes}×`}
          </span>
          <span className="sr-only">
            , {STATUS[status].label}
            {warning ? `, ${warning}` : ""}
          </span>
        </span>
      </button>
      <Popover open={open} onClose={() => setOpen(false)} anchor={button} label={`@${b.agent.handle}'s session`} testId="binding-popover">
        <BindingDetails binding={b} now={now} onClosed={onClosed} />
      </Popover>
    </div>
  );
}

function MoreChip({
  extra,
  inThreads,
  now,
  onClosed,
  onOpenThread,
}: {
  extra: BindingForViewer[];
  inThreads: BindingForViewer[];
  now: number;
  onClosed: (b: BindingView) => void;
  onOpenThread?: (rootId: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const all = [...extra, ...inThreads];
  const warn = all.some((b) => resumeWarning(b));
  const working = all.some((b) => statusNow(b, now) === "active");
  const label = [
    extra.length > 0 && `+${extra.length} more`,
    inThreads.length > 0 && `+${inThreads.length} in ${inThreads.length === 1 ? "a thread" : "threads"}`,
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <div className="relative shrink-0">
      <button
        ref={button}
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-haspopup="dialog"
        aria-expanded={open}
        title={`${plural(all.length, "other session")} in this room`}
        data-testid="binding-more"
        className={chipClass(warn)}
      >
        {warn ? <AlertIcon size={13} className="shrink-0 text-amber-600" /> : working ? <StatusDot status="active" /> : null}
        {label}
      </button>
      <Popover open={open} onClose={() => setOpen(false)} anchor={button} label="Other sessions in this room" testId="binding-popover" className="w-96">
        <div className="divide-y divide-zinc-100">
          {all.map((b) => (
            <BindingDetails
              key={b.id}
              binding={b}
              now={now}
              onClosed={onClosed}
              onOpenThread={
                onOpenThread &&
                ((rootId) => {
                  setOpen(false);
                  onOpenThread(rootId);
                })
              }
            />
          ))}
        </div>
      </Popover>
    </div>
  );
}
