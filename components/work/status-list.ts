// The list of statuses that are not idle (tRPC work.statuses), and a \`status:updated\` applied to it.
import type { WorkStatusView } from "@switchboard/sdk/work";

/** One status in the list: replaced, or removed when idle. */
export function patchStatuses(list: WorkStatusView[], status: WorkStatusView): WorkStatusView[] {
  const others = list.filter((s) => s.participantId !== status.participantId);
  return status.state === "idle" ? others : [...others, status];
}
