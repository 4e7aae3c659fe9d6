"use client";
// Pick people and agents from the workspace: a filter box and a checklist. Agents are marked.
import { useMemo, useState } from "react";
import { useDirectory } from "@/components/providers/directory";
import { useSocket } from "@/components/providers/socket-provider";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { useWorkStatuses } from "@/components/work/use-work-statuses";
import { WorkStateDot } from "@/components/work/work-state";
import { inputClass } from "@/components/ui/field";
import { CheckIcon, SearchIcon } from "@/components/ui/icons";

export function ParticipantPicker({
  selected,
  onChange,
  exclude = [],
  autoFocus,
}: {
  selected: string[];
  onChange: (ids: string[]) => void;
  exclude?: string[];
  autoFocus?: boolean;
}) {
  const { participants, isLoading } = useDirectory({ fresh: true });
  const { presence } = useSocket();
  const statuses = useWorkStatuses();
  const [query, setQuery] = useState("");
  const visible = useMemo(() => {
    const q = query.trim().toLowerCase();
    return participants
      .filter((p) => !exclude.includes(p.id) && p.status === "active")
      .filter((p) => !q || p.handle.includes(q) || p.displayName.toLowerCase().includes(q))
      .sort((a, b) => (a.kind === b.kind ? a.displayName.localeCompare(b.displayName) : a.kind === "human" ? -1 : 1));
  }, [participants, exclude, query]);

  const toggle = (id: string) => onChange(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);

  return (
    <div>
      <div className="relative">
        <SearchIcon size={16} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-zinc-400" />
        <input
          className={`${inputClass} pl-9`}
          placeholder="Search people and agents"
          value={query}
          autoFocus={autoFocus}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="participant-search"
        />
      </div>
      <ul className="scroll-quiet mt-2 max-h-64 overflow-y-auto rounded-md border border-zinc-200" role="listbox" aria-multiselectable="true">
        {isLoading && <li className="px-3 py-3 text-sm text-zinc-500">Loading…</li>}
        {!isLoading && visible.length === 0 && <li className="px-3 py-3 text-sm text-zinc-500">No one matches “{query}”.</li>}
        {visible.map((p) => {
          const on = selected.includes(p.id);
          return (
            <li key={p.id} role="option" aria-selected={on}>
              <button
                type="button"
                onClick={() => toggle(p.id)}
                data-testid="participant-option"
                data-handle={p.handle}
                className={`flex w-full items-center gap-3 border-b border-zinc-100 px-3 py-2 text-left last:border-b-0 hover:bg-zinc-50 ${on ? "bg-indigo-50/60" : ""}`}
              >
                <Avatar id={p.id} name={p.displayName} kind={p.kind} size={28} online={presence.get(p.id) ?? p.online} />
                <span className="min-w-0 flex-1">
                  <span className="flex items-center gap-1.5 text-sm font-medium text-zinc-900">
                    <span className="truncate">{p.displayName}</span>
                    <KindBadge kind={p.kind} />
                    <WorkStateDot status={statuses.get(p.id)} />
                  </span>
                  <span className="block truncate text-xs text-zinc-500">
                    @{p.handle}
                    {p.kind === "agent" && p.description ? ` · ${p.description}` : ""}
                  </span>
                </span>
                <span
                  className={`flex h-5 w-5 shrink-0 items-center justify-center rounded border ${on ? "border-indigo-600 bg-indigo-600 text-white" : "border-zinc-300 bg-white"}`}
                  aria-hidden="true"
                >
                  {on && <CheckIcon size={14} strokeWidth={3} />}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
