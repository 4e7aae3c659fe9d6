// A participant's work state wherever they appear: a coloured dot (lists, pickers, the sidebar) or a
// chip with the text (cards). Idle is the quiet default: the dot shows nothing for it. An agent that is
// not connected is idle whatever it said last (as the directory says offline); what it said is history.
import type { WorkState, WorkStatusView } from "@switchboard/sdk/work";

const DOT: Record<WorkState, string> = { working: "bg-emerald-500", waiting: "bg-amber-500", blocked: "bg-rose-500", idle: "bg-zinc-300" };
const CHIP: Record<WorkState, string> = {
  working: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  waiting: "bg-amber-50 text-amber-800 ring-amber-200",
  blocked: "bg-rose-50 text-rose-700 ring-rose-200",
  idle: "bg-zinc-100 text-zinc-600 ring-zinc-200",
};
const LABEL: Record<WorkState, string> = { working: "Working", waiting: "Waiting", blocked: "Blocked", idle: "Idle" };

/** "Working", "Waiting for @dana", "Blocked", "Idle". */
export function stateLabel(status: Pick<WorkStatusView, "state" | "waitingFor">): string {
  if (status.state === "waiting" && status.waitingFor) return `Waiting for @${status.waitingFor.handle}`;
  return LABEL[status.state];
}

/**
 * How far ahead a status kept alive by a heartbeat can end: the SDK's (120 s) and the HTTP runtimes'
 * (Claude Code hooks, MCP: 30 min working, 4 h waiting; services/work/status.ts). Agents fed over HTTP
 * have no socket, so they read as offline while their status is live.
 */
const SLACK_MS = 5 * 60_000; // the browser's clock may run behind the server's
const HEARTBEAT_HORIZON_MS = { working: 30 * 60_000 + SLACK_MS, waiting: 4 * 60 * 60_000 + SLACK_MS, blocked: 30 * 60_000 + SLACK_MS, idle: 0 };

/**
 * The status to show: the reported one, or for an agent known to be offline (`online === false`) whose
 * status no heartbeat keeps (none ends it soon), idle with the reported one as `last`: its process is gone.
 */
export function shownStatus(status: WorkStatusView, online?: boolean, now = Date.now()): { status: WorkStatusView; last: WorkStatusView | null } {
  if (online !== false || status.state === "idle") return { status, last: null };
  const heartbeat = status.until !== null && Date.parse(status.until) - now <= HEARTBEAT_HORIZON_MS[status.state];
  if (heartbeat) return { status, last: null };
  return { status: { ...status, state: "idle", text: "", waitingFor: null }, last: status };
}

/** The label and the participant's own words: "Waiting for @dana — needs a decision on the schema". */
export function stateTitle(status: WorkStatusView): string {
  return status.text ? `${stateLabel(status)} — ${status.text}` : stateLabel(status);
}

/** A small dot with the state in its title (and for screen readers); nothing when idle (or offline, shownStatus) or unknown. */
export function WorkStateDot({ status: reported, online, className = "" }: { status: WorkStatusView | undefined; online?: boolean; className?: string }) {
  const status = reported && shownStatus(reported, online).status;
  if (!status || status.state === "idle") return null;
  const title = stateTitle(status);
  return (
    <span title={title} data-testid="work-state-dot" data-state={status.state} className={`inline-flex shrink-0 items-center ${className}`}>
      <span className={`h-2 w-2 rounded-full ${DOT[status.state]} ${status.state === "working" ? "animate-pulse" : ""}`} aria-hidden="true" />
      <span className="sr-only">{title}</span>
    </span>
  );
}

/**
 * The state as a chip: "● Waiting for @dana"; with `text`, the participant's words after it. `online`:
 * an agent's presence, when known; offline, the chip says "Idle · last: Working" (shownStatus).
 */
export function WorkStateChip({
  status: reported,
  online,
  withText = false,
  className = "",
}: {
  status: WorkStatusView;
  online?: boolean;
  withText?: boolean;
  className?: string;
}) {
  const { status, last } = shownStatus(reported, online);
  return (
    <span
      title={last ? `Offline, so idle. Last reported: ${stateTitle(last)}` : stateTitle(status)}
      data-testid="work-state"
      data-state={status.state}
      data-last-state={last?.state}
      className={`inline-flex max-w-full items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${CHIP[status.state]} ${className}`}
    >
      <span className={`h-1.5 w-1.5 shrink-0 rounded-full ${DOT[status.state]}`} aria-hidden="true" />
      <span className="truncate">
        {stateLabel(status)}
        {withText && status.text ? <span className="font-normal opacity-80"> · {status.text}</span> : null}
        {last ? <span className="font-normal opacity-80"> · last: {stateLabel(last).toLowerCase()}</span> : null}
      </span>
    </span>
  );
}
