// Whether people really took part, in words, from people's and agents' messages and people's share
// of them: the usage page's room and task detail, and the Work page's involvement view.

export function involvementVerdict(people: number, agents: number, share: number): { label: string; tone: string; bar: string } {
  if (people + agents === 0) return { label: "No messages in this range", tone: "bg-zinc-100 text-zinc-600 ring-zinc-200", bar: "bg-zinc-300" };
  if (people === 0) return { label: "Agents only: no person wrote here", tone: "bg-rose-50 text-rose-700 ring-rose-200", bar: "bg-rose-500" };
  if (share < 0.15) return { label: "Light human involvement", tone: "bg-amber-50 text-amber-800 ring-amber-200", bar: "bg-amber-500" };
  if (share < 0.4) return { label: "People took part", tone: "bg-emerald-50 text-emerald-700 ring-emerald-200", bar: "bg-emerald-500" };
  return { label: "People led the work", tone: "bg-emerald-50 text-emerald-700 ring-emerald-200", bar: "bg-emerald-500" };
}
