"use client";
// Pieces of the involvement page and the timelines: people's share as bars, the table of each person's
// and agent's part, the notice for conversations the viewer may not read, the live dot.
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { LockIcon } from "@/components/ui/icons";
import { DataTable } from "@/components/ui/table";
import { dateTime, relativeTime } from "@/components/ui/time";
import { involvementVerdict } from "@/components/usage/verdict";
import type { Involvement, ParticipantPart } from "./types";

const pct = (share: number) => `${Math.round(share * 100)}%`;

/** What the share says, in words: the usage page's verdict, and a word for people who only answered. */
export function verdict(inv: Involvement): { label: string; tone: string } {
  const people = inv.people.reduce((n, p) => n + p.messages, 0);
  const agents = inv.agents.reduce((n, p) => n + p.messages, 0);
  if (people === 0 && inv.people.some((p) => p.answers > 0))
    return { label: "People only answered the agents' questions", tone: "bg-amber-50 text-amber-800 ring-amber-200" };
  const { label, tone } = involvementVerdict(people, agents, inv.share.messages ?? 0);
  return { label, tone };
}

export function ShareBars({ inv }: { inv: Involvement }) {
  const sum = (parts: ParticipantPart[], key: "messages" | "words") => parts.reduce((n, p) => n + p[key], 0);
  const rows = [
    { key: "messages", label: "Messages", share: inv.share.messages, people: sum(inv.people, "messages"), agents: sum(inv.agents, "messages") },
    { key: "words", label: "Words", share: inv.share.words, people: sum(inv.people, "words"), agents: sum(inv.agents, "words") },
  ] as const;
  const v = verdict(inv);
  return (
    <section className="rounded-xl border border-zinc-200 bg-white p-4 shadow-xs" aria-labelledby="share-heading" data-testid="involvement-share">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id="share-heading" className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">
          People&apos;s share
        </h2>
        <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${v.tone}`} data-testid="involvement-verdict">
          {v.label}
        </span>
        <span className="ml-auto flex items-center gap-3 text-xs text-zinc-500" aria-hidden="true">
          <span className="inline-flex items-center gap-1">
            <span className="h-2 w-2 rounded-sm bg-sky-500" /> People
          </span>
          <span className="inline-flex items-center gap-1">
            <span className="h-2 w-2 rounded-sm bg-violet-400" /> Agents
          </span>
        </span>
      </div>
      <div className="mt-3 space-y-3">
        {rows.map((r) => (
          <div key={r.key} data-testid={`share-${r.key}`} data-share={r.share ?? ""}>
            <div className="flex items-baseline justify-between gap-2 text-sm">
              <span className="font-medium text-zinc-700">{r.label}</span>
              <span className="text-xs text-zinc-500 tabular-nums">
                <span className="text-[15px] font-semibold text-zinc-900" data-testid={`share-${r.key}-value`}>
                  {r.share === null ? "–" : pct(r.share)}
                </span>{" "}
                by people · {r.people} of {r.people + r.agents}
              </span>
            </div>
            <div
              className="mt-1 flex h-2.5 w-full overflow-hidden rounded-full bg-zinc-100"
              role="meter"
              aria-label={`People's share of the ${r.label.toLowerCase()}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={r.share === null ? undefined : Math.round(r.share * 100)}
              aria-valuetext={r.share === null ? "Nothing said" : `${pct(r.share)} by people`}
            >
              {r.share !== null && (
                <>
                  <div className="h-full bg-sky-500 transition-[width] duration-500" style={{ width: pct(r.share) }} />
                  <div className="h-full bg-violet-400 transition-[width] duration-500" style={{ width: pct(1 - r.share) }} />
                </>
              )}
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}

const NUMBERS = ["messages", "words", "answers", "approvals", "tasks", "files", "linesChanged"] as const;
const num = "text-right tabular-nums";

export function PartsTable({ inv, now }: { inv: Involvement; now: number }) {
  const groups = [
    { label: "People", parts: inv.people },
    { label: "Agents", parts: inv.agents },
  ].filter((g) => g.parts.length > 0);
  return (
    <DataTable
      testId="involvement-parts"
      minWidth="min-w-[56rem]"
      columns={[
        "Participant",
        { label: "Messages", className: num },
        { label: "Words", className: num },
        { label: "Answers", className: num },
        { label: "Approvals", className: num },
        { label: "Tasks", className: num },
        { label: "Files", className: num },
        { label: "Lines", className: num },
        "First",
        "Last",
      ]}
    >
      {groups.map((g) => [
        <tr key={g.label} className="bg-zinc-50/70">
          <th colSpan={10} scope="colgroup" className="px-4 py-1.5 text-left text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">
            {g.label}
          </th>
        </tr>,
        ...g.parts.map((p) => (
          <tr
            key={p.participant.id}
            data-testid="involvement-row"
            data-handle={p.participant.handle}
            data-kind={p.participant.kind}
            className="hover:bg-zinc-50/60"
          >
            <th scope="row" className="px-4 py-2 text-left font-normal">
              <span className="flex min-w-0 items-center gap-2">
                <Avatar id={p.participant.id} name={p.participant.displayName} kind={p.participant.kind} size={24} />
                <span className="min-w-0">
                  <span className="block truncate font-medium text-zinc-900">{p.participant.displayName}</span>
                  <span className="block truncate text-xs text-zinc-500">@{p.participant.handle}</span>
                </span>
                <KindBadge kind={p.participant.kind} />
              </span>
            </th>
            {NUMBERS.map((k) => (
              <td key={k} className={`px-4 py-2 ${num} ${p[k] ? "text-zinc-900" : "text-zinc-300"}`} data-testid={`part-${k}`} data-value={p[k]}>
                {p[k]}
              </td>
            ))}
            <td className="px-4 py-2 text-xs whitespace-nowrap text-zinc-500" title={dateTime(p.firstAt)}>
              {p.firstAt ? relativeTime(p.firstAt, now) : "–"}
            </td>
            <td className="px-4 py-2 text-xs whitespace-nowrap text-zinc-500" title={dateTime(p.lastAt)}>
              {p.lastAt ? relativeTime(p.lastAt, now) : "–"}
            </td>
          </tr>
        )),
      ])}
    </DataTable>
  );
}

export function HiddenNotice({ count }: { count: number }) {
  return (
    <div
      className="flex items-center gap-2 rounded-lg bg-amber-50 px-3.5 py-2 text-[13px] text-amber-900 ring-1 ring-amber-200 ring-inset"
      data-testid="hidden-conversations"
      data-count={count}
    >
      <LockIcon size={14} className="shrink-0 text-amber-600" />
      {count === 1 ? "1 conversation of this work is in a room you can't read" : `${count} conversations of this work are in rooms you can't read`}: it is not
      counted here.
    </div>
  );
}

export function LiveDot({ live, fetching, testId }: { live: boolean; fetching: boolean; testId: string }) {
  return (
    <span className={`inline-flex items-center gap-1.5 text-xs ${live ? "text-emerald-700" : "text-zinc-500"}`} data-testid={testId} data-live={live}>
      <span className={`h-1.5 w-1.5 rounded-full ${live ? "bg-emerald-500" : "bg-zinc-300"} ${fetching ? "animate-pulse" : ""}`} aria-hidden="true" />
      {live ? "Live" : "Connecting…"}
    </span>
  );
}
