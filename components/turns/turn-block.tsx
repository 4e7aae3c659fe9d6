"use client";
// Under a message an agent answers: its turn, live. A running turn shows its steps as they come (the
// plan, each tool call with its input on one line and its result on demand, files, notes), how long it
// has run and its tokens, and Stop for whoever may press it; an ended one folds to one line (worked
// 12 s, 5 steps), which opens again on a click. The room's fold (room-turns.tsx) keeps every block to
// its one line.
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { STOP_GRACE_MS, type TurnStepView, type TurnWithSteps } from "@switchboard/sdk/turns";
import { useTRPC } from "@/components/providers/trpc";
import { errorMessage } from "@/components/ui/errors";
import { AlertIcon, BanIcon, BotIcon, CheckCircleIcon, ChevronDownIcon, ListIcon, PauseIcon, PencilIcon, TerminalIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/button";
import { useRoomTurns } from "./room-turns";

/** The turns that answer `messageId`, one block each; nothing outside a room's turns provider. */
export function TurnBlocks({ messageId }: { messageId: string }) {
  const turns = useRoomTurns();
  const found = turns?.turnsFor(messageId) ?? [];
  if (!turns || found.length === 0) return null;
  return (
    <div className="space-y-1.5 pt-1 pr-5 pb-1 pl-[68px]">
      {found.map((turn) => (
        <TurnBlock key={turn.id} turn={turn} canStop={turns.canStop(turn)} folded={turns.folded} />
      ))}
    </div>
  );
}

function TurnBlock({ turn, canStop, folded }: { turn: TurnWithSteps; canStop: boolean; folded: boolean }) {
  const running = turn.state === "running";
  const [open, setOpen] = useState<boolean | null>(null);
  // Open while it runs, one line once it ended, unless the viewer chose; the room's fold wins.
  const expanded = !folded && (open ?? running);
  const now = useNow(running ? 1000 : null);
  const elapsed = (turn.endedAt ? Date.parse(turn.endedAt) : now) - Date.parse(turn.startedAt);
  return (
    <section
      className={`rounded-lg border text-sm ${running ? "border-indigo-200 bg-indigo-50/40" : "border-zinc-200 bg-zinc-50/60"}`}
      data-testid="turn-block"
      data-state={turn.state}
      data-turn-id={turn.id}
      aria-label={`@${turn.agent.handle}'s turn`}
    >
      <div className="flex items-center gap-2 px-3 py-1.5">
        <button
          type="button"
          onClick={() => setOpen(!expanded)}
          className="flex min-w-0 flex-1 items-center gap-2 text-left"
          aria-expanded={expanded}
          data-testid="turn-toggle"
        >
          <StateIcon turn={turn} />
          <span className="truncate text-zinc-700" data-testid="turn-summary">
            <span className="font-medium text-zinc-900">@{turn.agent.handle}</span> {summary(turn, elapsed)}
          </span>
          <ChevronDownIcon size={14} className={`shrink-0 text-zinc-400 transition-transform ${expanded ? "rotate-180" : ""}`} />
        </button>
        {running && canStop && <StopButton turn={turn} now={now} />}
      </div>
      {expanded && (
        <div className="border-t border-zinc-200/70 px-3 py-2" data-testid="turn-steps">
          {turn.steps.length === 0 ? (
            <p className="text-xs text-zinc-500">{running ? "Starting…" : "No steps reported."}</p>
          ) : (
            <ol className="space-y-1">
              {turn.steps.map((step) => (
                <Step key={step.key} step={step} />
              ))}
            </ol>
          )}
          {turn.droppedSteps > 0 && <p className="mt-1 text-xs text-zinc-500">{turn.droppedSteps} more steps not kept</p>}
          {turn.state === "failed" && turn.error && (
            <p className="mt-1.5 rounded bg-rose-50 px-2 py-1 text-xs text-rose-700" data-testid="turn-error">
              {turn.error}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

function StateIcon({ turn }: { turn: TurnWithSteps }) {
  if (turn.state === "running") return <Spinner />;
  if (turn.state === "done") return <CheckCircleIcon size={15} className="shrink-0 text-emerald-600" />;
  if (turn.state === "stopped") return <BanIcon size={15} className="shrink-0 text-amber-600" />;
  return <AlertIcon size={15} className="shrink-0 text-rose-600" />;
}

/** "is working · 12 s · 3 steps · 1.3k tokens · $0.004" */
function summary(turn: TurnWithSteps, elapsedMs: number): string {
  const verb =
    turn.state === "running"
      ? turn.stopRequestedAt
        ? `is stopping (asked by @${turn.stoppedBy?.handle ?? "someone"})`
        : "is working"
      : turn.state === "done"
        ? "worked"
        : turn.state === "stopped"
          ? `was stopped by @${turn.stoppedBy?.handle ?? "someone"} after`
          : "failed after";
  const parts = [`${verb} ${duration(elapsedMs)}`];
  if (turn.stepCount > 0) parts.push(`${turn.stepCount} step${turn.stepCount === 1 ? "" : "s"}`);
  const tokens = turn.tokens.input + turn.tokens.output;
  if (tokens > 0) parts.push(`${compact(tokens)} tokens`);
  if (turn.costUsd > 0) parts.push(`$${turn.costUsd < 0.01 ? turn.costUsd.toFixed(4) : turn.costUsd.toFixed(2)}`);
  return parts.join(" · ");
}

function Step({ step }: { step: TurnStepView }) {
  const [open, setOpen] = useState(false);
  const icon =
    step.kind === "plan" ? (
      <ListIcon size={13} />
    ) : step.kind === "tool" ? (
      <TerminalIcon size={13} />
    ) : step.kind === "file" ? (
      <PencilIcon size={13} />
    ) : (
      <BotIcon size={13} />
    );
  const status = step.status === "running" ? <Spinner /> : step.status === "failed" ? <AlertIcon size={13} className="text-rose-600" /> : null;
  return (
    <li data-testid="turn-step" data-kind={step.kind} data-status={step.status}>
      <div className="flex items-start gap-2">
        <span className="mt-0.5 shrink-0 text-zinc-500">{icon}</span>
        {step.detail ? (
          <button type="button" className="min-w-0 flex-1 text-left text-zinc-700 hover:text-zinc-900" onClick={() => setOpen(!open)} aria-expanded={open}>
            <span className={step.kind === "tool" ? "font-mono text-[12.5px]" : ""}>{step.title}</span>
          </button>
        ) : (
          <span className={`min-w-0 flex-1 text-zinc-700 ${step.kind === "tool" ? "font-mono text-[12.5px]" : ""}`}>{step.title}</span>
        )}
        {status && <span className="mt-0.5 shrink-0">{status}</span>}
      </div>
      {step.items && (
        <ul className="mt-0.5 ml-6 space-y-0.5" data-testid="turn-plan">
          {step.items.map((item, i) => (
            <li key={i} className="flex items-center gap-1.5 text-[13px]" data-status={item.status}>
              <span
                aria-hidden="true"
                className={`inline-block h-2.5 w-2.5 shrink-0 rounded-full border ${
                  item.status === "completed"
                    ? "border-emerald-500 bg-emerald-500"
                    : item.status === "in_progress"
                      ? "border-indigo-500 bg-indigo-200"
                      : "border-zinc-300"
                }`}
              />
              <span className={item.status === "completed" ? "text-zinc-500 line-through" : "text-zinc-700"}>{item.title}</span>
            </li>
          ))}
        </ul>
      )}
      {open && step.detail && (
        <pre className="mt-1 ml-6 overflow-x-auto rounded bg-white px-2 py-1 font-mono text-xs whitespace-pre-wrap text-zinc-600 ring-1 ring-zinc-200">
          {step.detail}
        </pre>
      )}
    </li>
  );
}

function StopButton({ turn, now }: { turn: TurnWithSteps; now: number }) {
  const trpc = useTRPC();
  const stop = useMutation(trpc.turns.stop.mutationOptions());
  const suspend = useMutation(trpc.agents.suspend.mutationOptions());
  if (turn.stopRequestedAt) {
    // Asked, and the agent has not ended the turn within the bound: say so, and offer the kill switch.
    const late = now - Date.parse(turn.stopRequestedAt) > STOP_GRACE_MS;
    if (!late) return <span className="shrink-0 text-xs text-zinc-500">Stopping…</span>;
    return (
      <span className="flex shrink-0 items-center gap-2 text-xs text-amber-700" data-testid="turn-not-stopping">
        Not stopping
        <button
          type="button"
          className="rounded-md bg-rose-600 px-2 py-1 font-semibold text-white hover:bg-rose-500 disabled:bg-rose-300"
          disabled={suspend.isPending || suspend.isSuccess}
          onClick={() => suspend.mutate({ agentId: turn.agent.id, reason: "Did not stop its turn when asked" })}
          data-testid="turn-suspend"
        >
          {suspend.isSuccess ? "Suspended" : `Suspend @${turn.agent.handle}`}
        </button>
      </span>
    );
  }
  return (
    <span className="flex shrink-0 items-center gap-2">
      {stop.isError && <span className="text-xs text-rose-600">{errorMessage(stop.error)}</span>}
      <button
        type="button"
        className="rounded-md bg-white px-2 py-1 text-xs font-semibold text-rose-700 ring-1 ring-rose-200 hover:bg-rose-50 disabled:text-rose-300"
        disabled={stop.isPending}
        onClick={() => stop.mutate({ turnId: turn.id })}
        data-testid="turn-stop"
        title={`Stop @${turn.agent.handle}'s turn`}
      >
        Stop
      </button>
    </span>
  );
}

/** The current time, again every `everyMs` (null: not ticking). */
function useNow(everyMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (everyMs === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

function compact(n: number): string {
  return n < 1000 ? String(n) : n < 1_000_000 ? `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k` : `${(n / 1_000_000).toFixed(1)}M`;
}

/** The room header's menu for agents' activity: fold it away here, and (the room's owner, an admin) who may stop turns. */
export function ActivityMenu() {
  const turns = useRoomTurns();
  if (!turns) return null;
  return (
    <details className="relative" data-testid="activity-menu">
      <summary
        className={`inline-flex h-8 cursor-pointer list-none items-center gap-1.5 rounded-md px-2.5 text-sm font-medium hover:bg-zinc-100 ${
          turns.folded ? "text-zinc-500" : "text-zinc-600"
        }`}
        title="Agents' activity in this room"
      >
        <BotIcon size={15} />
        <span className="max-sm:hidden">Activity</span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-72 space-y-2 rounded-lg border border-zinc-200 bg-white p-3 text-sm shadow-lg">
        <label className="flex items-start gap-2">
          <input type="checkbox" className="mt-0.5" checked={turns.folded} onChange={(e) => turns.setFolded(e.target.checked)} data-testid="activity-fold" />
          <span>
            Fold agents&apos; turns here
            <span className="block text-xs text-zinc-500">One line under each answer; a click opens it. Only for you.</span>
          </span>
        </label>
        {turns.agents.length > 0 && (
          <div className="space-y-1 border-t border-zinc-100 pt-2" data-testid="activity-agents">
            <p className="text-xs font-medium text-zinc-500">Agents here</p>
            {turns.agents.map((agent) => (
              <div key={agent.id} className="flex items-center justify-between gap-2" data-testid="activity-agent" data-handle={agent.handle}>
                <span className="truncate">
                  @{agent.handle}
                  {agent.paused && <span className="ml-1.5 text-xs text-amber-700">paused</span>}
                </span>
                {turns.canSteer(agent) && (
                  <button
                    type="button"
                    className="shrink-0 rounded-md px-2 py-0.5 text-xs font-semibold text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50"
                    onClick={() => turns.setPaused(agent.id, !agent.paused)}
                    data-testid={agent.paused ? "activity-resume" : "activity-pause"}
                  >
                    {agent.paused ? "Resume" : "Pause here"}
                  </button>
                )}
              </div>
            ))}
            {turns.pauseError && <p className="text-xs text-rose-600">{turns.pauseError}</p>}
          </div>
        )}
        {turns.canChangeStopping && (
          <label className="flex items-start gap-2 border-t border-zinc-100 pt-2">
            <input
              type="checkbox"
              className="mt-0.5"
              checked={turns.membersMayStop}
              onChange={(e) => turns.setMembersMayStop(e.target.checked)}
              data-testid="activity-members-may-stop"
            />
            <span>
              Anyone here may stop an agent&apos;s turn
              <span className="block text-xs text-zinc-500">Otherwise its owner and admins only.</span>
            </span>
          </label>
        )}
      </div>
    </details>
  );
}

/** Under the room's header: the agents paused here, and Resume for whoever may. */
export function PausedAgents() {
  const turns = useRoomTurns();
  const paused = turns?.agents.filter((a) => a.paused) ?? [];
  if (!turns || paused.length === 0) return null;
  return (
    <div className="space-y-1 border-b border-amber-200 bg-amber-50 px-5 py-2 text-sm text-amber-900" data-testid="paused-agents">
      {paused.map((agent) => (
        <div key={agent.id} className="flex items-center gap-3" data-testid="paused-agent" data-handle={agent.handle}>
          <PauseIcon size={14} className="shrink-0" />
          <span className="min-w-0 flex-1">
            <span className="font-medium">@{agent.handle}</span> is paused here
            {agent.paused?.by ? ` by @${agent.paused.by.handle}` : ""}: it is handed none of this room&apos;s messages until resumed; they wait, in order.
          </span>
          {turns.canSteer(agent) && (
            <button
              type="button"
              className="shrink-0 rounded-md bg-white px-2 py-1 text-xs font-semibold text-amber-900 ring-1 ring-amber-300 hover:bg-amber-100"
              onClick={() => turns.setPaused(agent.id, false)}
              data-testid="paused-resume"
            >
              Resume
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
