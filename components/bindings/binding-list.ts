// A list of bindings as one viewer sees them, and a `binding:updated` applied to it: the event carries
// the binding as everyone sees it, so the viewer's own `room` and `can` are kept from the list.
import type { BindingForViewer, BindingView } from "@switchboard/sdk/bindings";

/** Most recently used first, as the server lists them. */
function byLastUsed(a: BindingView, b: BindingView): number {
  const used = (x: BindingView) => (x.lastUsedAt ? Date.parse(x.lastUsedAt) : -Infinity);
  return used(b) - used(a) || Date.parse(b.createdAt) - Date.parse(a.createdAt);
}

/**
 * `list` with `binding` applied: replaced (keeping the viewer's `room` and `can`), dropped when it
 * closed and the list shows only open ones, or "refetch" when the list has not seen it.
 */
export function applyBinding(list: BindingForViewer[], binding: BindingView, includeClosed: boolean): BindingForViewer[] | "refetch" | "unchanged" {
  const at = list.findIndex((b) => b.id === binding.id);
  if (at === -1) return binding.status === "closed" && !includeClosed ? "unchanged" : "refetch";
  const known = list[at];
  // An event older than what is shown (a previous session of this key) changes nothing.
  if (binding.generation < known.generation) return "unchanged";
  if (binding.status === "closed" && !includeClosed) return list.filter((b) => b.id !== binding.id);
  const next = [...list];
  next[at] = { ...known, ...binding };
  return next.sort(byLastUsed);
}
