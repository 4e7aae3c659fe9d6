// A participant's work state wherever they appear: a coloured dot (lists, pickers, the sidebar) or a
// chip with the text (cards). Idle is the quiet default: the dot shows nothing for it.
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

/** The label and the participant's own words: "Waiting for @dana — needs a decision on the schema". */
export function stateTitle(status: WorkStatusView): string {
  return status.text ? `${stateLabel(status)} — ${status.text}` : stateLabel(status);
}

/** A small dot with the state in its title (and for screen readers); nothing when idle or unknown. */
export function WorkStateDot({ status, className = "" }: { status: WorkStatusView | undefined; className?: string }) {
  if (!status || status.state === "idle") return null;
  const title = stateTitle(status);
  return (
    <span title={title} data-testid="work-state-dot" data-state={status.state} className={`inline-flex shrink-0 items-center ${className}`}>
      <span className={`h-2 w-2 rounded-full ${DOT[status.state]} ${status.state === "working" ? "animate-pulse" : ""}`} aria-hidden="true" />
      <span className="sr-only">{title}</span>
    </span>
  );
}

/** The state as a chip: "● Waiting for @dana"; with `text`, the participant's words after it. */
export function WorkStateChip({ status, withText = false, className = "" }: { status: WorkStatusView; withText?: boolean; className?: string }) {
  return (
    <span
      title={stateTitle(status)}
      data-testid="work-state"
      data-state={status.state}
      className={`inline-flex max-w-full items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${CHIP[status.state]} ${className}`}
    >
      <span className={`h-1.5 w-1.5 shrink-0 rounded-full ${DOT[status.state]}`} aria-hidden="true" />
      <span className="truncate">
        {stateLabel(status)}
        {withText && status.text ? <span className="font-normal opacity-80"> · {status.text}</span> : null}
      </span>
    </span>
  );
}
