"use client";
// Per component: the agents in it now (touched within the last minutes) and lately (in the window),
// and how often it was touched; above it, a warning for each file or component two agents edited at
// the same time.
import { Avatar } from "@/components/ui/avatar";
import { AlertIcon } from "@/components/ui/icons";
import { dateTime, relativeTime } from "@/components/ui/time";
import type { ComponentWork, WorkConflict } from "./types";

type Who = ComponentWork["agentsNow"][number];

const names = (agents: Who[]) => {
  const at = agents.map((a) => `@${a.handle}`);
  return at.length <= 2 ? at.join(" and ") : `${at.slice(0, -1).join(", ")} and ${at.at(-1)}`;
};

export function ConflictBanner({ conflicts, now }: { conflicts: WorkConflict[]; now: number }) {
  if (conflicts.length === 0) return null;
  // A file conflict says more than its component's; list files first.
  const ordered = [...conflicts].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "file" ? -1 : 1));
  return (
    <section role="alert" aria-label="Conflicts" className="mb-5 rounded-xl border border-rose-200 bg-rose-50 p-4" data-testid="work-conflicts">
      <h2 className="flex items-center gap-2 text-sm font-semibold text-rose-900">
        <AlertIcon size={16} className="text-rose-600" />
        {conflicts.length === 1 ? `${agentCount(conflicts[0].agents.length)} are editing the same thing` : `${conflicts.length} overlapping edits`}
      </h2>
      <ul className="mt-2 space-y-1.5">
        {ordered.map((c) => (
          <li
            key={`${c.kind}:${c.subject}`}
            className="flex flex-wrap items-baseline gap-x-1.5 text-sm text-rose-800"
            data-testid="work-conflict"
            data-kind={c.kind}
            data-subject={c.subject}
          >
            <span className="font-semibold">{names(c.agents)}</span>
            <span>{c.agents.length === 2 ? "both edited" : `all ${c.agents.length} edited`}</span>
            {c.kind === "file" ? (
              <code className="rounded bg-white/70 px-1 font-mono text-[13px] text-rose-900">{c.subject}</code>
            ) : (
              <span className="font-medium">the {c.subject} component</span>
            )}
            <span className="text-xs text-rose-600" title={`${dateTime(c.from)} – ${dateTime(c.to)}`}>
              last {relativeTime(c.to, now)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ComponentPanel({ components, conflicts, now }: { components: ComponentWork[]; conflicts: WorkConflict[]; now: number }) {
  const contested = new Set(conflicts.filter((c) => c.kind === "component").map((c) => c.subject));
  return (
    <section aria-labelledby="components-heading" className="rounded-xl border border-zinc-200 bg-white shadow-xs" data-testid="component-panel">
      <h2 id="components-heading" className="border-b border-zinc-100 px-4 py-3 text-sm font-semibold text-zinc-900">
        Components
      </h2>
      {components.length === 0 ? (
        <p className="px-4 py-6 text-sm text-zinc-500">No files touched in this window.</p>
      ) : (
        <ul className="divide-y divide-zinc-100">
          {components.map((c) => {
            const lately = c.agentsLately.filter((a) => !c.agentsNow.some((n) => n.id === a.id));
            return (
              <li
                key={c.name}
                tabIndex={0}
                className="px-4 py-3 focus:bg-zinc-50 focus:outline-none"
                data-testid="component"
                data-name={c.name}
                data-now={c.agentsNow.length}
              >
                <div className="flex items-center gap-2">
                  <span className="min-w-0 flex-1 truncate text-sm font-medium text-zinc-900">{c.name}</span>
                  {contested.has(c.name) && (
                    <span
                      className="inline-flex items-center gap-1 rounded-full bg-rose-50 px-1.5 py-px text-[11px] font-medium text-rose-700 ring-1 ring-rose-200"
                      title="Several agents edited it at the same time"
                    >
                      <AlertIcon size={11} /> overlap
                    </span>
                  )}
                  <span className="shrink-0 text-xs text-zinc-500" title={dateTime(c.lastAt)}>
                    {c.touches} touch{c.touches === 1 ? "" : "es"} · {relativeTime(c.lastAt, now)}
                  </span>
                </div>
                <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-xs">
                  {c.agentsNow.length > 0 && <span className="font-medium text-emerald-700">Now</span>}
                  {c.agentsNow.map((a) => (
                    <AgentChip key={a.id} who={a} active />
                  ))}
                  {lately.length > 0 && <span className="text-zinc-500">{c.agentsNow.length > 0 ? "· lately" : "Lately"}</span>}
                  {lately.map((a) => (
                    <AgentChip key={a.id} who={a} />
                  ))}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function AgentChip({ who, active = false }: { who: Who; active?: boolean }) {
  return (
    <span
      title={`${who.displayName} (@${who.handle})`}
      data-testid={active ? "component-agent-now" : "component-agent-lately"}
      className={`inline-flex items-center gap-1 rounded-full py-0.5 pr-2 pl-0.5 ring-1 ring-inset ${active ? "bg-emerald-50 text-emerald-800 ring-emerald-200" : "bg-zinc-50 text-zinc-600 ring-zinc-200"}`}
    >
      <Avatar id={who.id} name={who.displayName} kind="agent" size={16} />@{who.handle}
    </span>
  );
}

const NUMBER_WORDS = ["No agents", "One agent", "Two agents", "Three agents", "Four agents", "Five agents"];
/** "Two agents", "18 agents". */
const agentCount = (n: number) => NUMBER_WORDS[n] ?? `${n} agents`;
