"use client";
// Who and what spent: the top spenders (agents, and people both ways) and the ranked breakdown tables
// by room, task, agent, owner, requester and model, each with its share of the spend. A person is
// counted twice over: "owned by" (the agents they own) and "requested by" (the calls their messages
// drove, on anyone's agents). A room or task opens its detail; anything else narrows the dashboard to it.
import { useState, type ReactNode } from "react";
import { useDirectory } from "@/components/providers/directory";
import { Avatar } from "@/components/ui/avatar";
import { BotIcon, HashIcon } from "@/components/ui/icons";
import { Segmented } from "@/components/ui/segmented";
import { ChevronRightIcon, CpuIcon, PersonIcon, TaskIcon, TrendUpIcon } from "@/components/ui/usage-icons";
import { formatInt, formatShare, formatTokens, formatUsd, splitName } from "./format";
import { Card, CsvButton, ShareBar } from "./parts";
import type { BreakdownRow, CsvView } from "./types";

export type BreakdownKind = "room" | "task" | "agent" | "person" | "requester" | "model";
/** The breakdowns whose rows narrow the dashboard (the others open a detail). */
export type FilterKind = "agent" | "person" | "requester" | "model";
type RankedKind = "agent" | "person" | "requester";

const VIEW: Record<BreakdownKind, CsvView> = {
  room: "byRoom",
  task: "byTask",
  agent: "byAgent",
  person: "byPerson",
  requester: "byRequester",
  model: "byModel",
};
const TONE: Record<BreakdownKind, string> = {
  room: "bg-indigo-500",
  task: "bg-emerald-500",
  agent: "bg-violet-500",
  person: "bg-sky-500",
  requester: "bg-teal-500",
  model: "bg-amber-500",
};
/** The ranked lists' bars below the leader. */
const SOFT_TONE: Record<RankedKind, string> = { agent: "bg-violet-300", person: "bg-sky-300", requester: "bg-teal-300" };

export function EntityIcon({ kind, id, name, size = 28 }: { kind: BreakdownKind; id: string | null; name: string; size?: number }) {
  if ((kind === "agent" || kind === "person" || kind === "requester") && id)
    return <Avatar id={id} name={splitName(name).name} kind={kind === "agent" ? "agent" : "human"} size={size} />;
  // No requester: the agent worked on its own.
  const icon =
    kind === "room" ? (
      <HashIcon size={15} />
    ) : kind === "task" ? (
      <TaskIcon size={15} />
    ) : kind === "model" ? (
      <CpuIcon size={15} />
    ) : kind === "person" ? (
      <PersonIcon size={15} />
    ) : (
      <BotIcon size={15} />
    );
  return (
    <span
      className="inline-flex shrink-0 items-center justify-center rounded-lg bg-zinc-100 text-zinc-500 ring-1 ring-zinc-200 ring-inset"
      style={{ width: size, height: size }}
    >
      {icon}
    </span>
  );
}

function NameCell({ kind, row }: { kind: BreakdownKind; row: BreakdownRow }) {
  const { name, handle } = splitName(row.name);
  const missing = row.id === null;
  const { byId } = useDirectory();
  const suspended = kind === "agent" && row.id !== null && byId.get(row.id)?.status === "suspended";
  return (
    <span className="flex min-w-0 items-center gap-2.5">
      <EntityIcon kind={kind} id={row.id} name={row.name} />
      <span className="min-w-0">
        <span
          className={`block truncate text-[13px] font-medium ${missing ? "text-zinc-500 italic" : kind === "model" || kind === "task" ? "font-mono text-[12.5px] text-zinc-800" : "text-zinc-900"}`}
        >
          {name || "(unnamed)"}
        </span>
        {handle && (
          <span className="flex items-center gap-1.5 truncate text-xs text-zinc-500">
            @{handle}
            {suspended && (
              <span className="rounded bg-rose-50 px-1 text-[10px] font-semibold text-rose-700 ring-1 ring-rose-200 ring-inset" data-testid="agent-suspended">
                suspended
              </span>
            )}
          </span>
        )}
      </span>
    </span>
  );
}

/** Top spenders: agents, their owners and who asked, side by side, five each. */
export function TopSpenders({
  agents,
  owners,
  requesters,
  total,
  onFilter,
  seesAll,
}: {
  agents: BreakdownRow[];
  owners: BreakdownRow[];
  requesters: BreakdownRow[];
  total: number;
  onFilter: (kind: FilterKind, id: string) => void;
  seesAll: boolean;
}) {
  return (
    <Card
      title="Top spenders"
      icon={<TrendUpIcon size={15} />}
      subtitle="Owned by: the agents a person owns. Requested by: the calls a person's messages drove, on anyone's agents."
      testId="top-spenders"
    >
      <div className="grid grid-cols-1 gap-x-8 gap-y-4 md:grid-cols-3">
        <RankedList title="Agents" kind="agent" rows={agents} total={total} onPick={(id) => onFilter("agent", id)} testId="top-agents" />
        <RankedList
          title="Owned by"
          kind="person"
          rows={owners}
          total={total}
          onPick={seesAll ? (id) => onFilter("person", id) : undefined}
          testId="top-people"
        />
        <RankedList title="Requested by" kind="requester" rows={requesters} total={total} onPick={(id) => onFilter("requester", id)} testId="top-requesters" />
      </div>
    </Card>
  );
}

function RankedList({
  title,
  kind,
  rows,
  total,
  onPick,
  testId,
}: {
  title: string;
  kind: RankedKind;
  rows: BreakdownRow[];
  total: number;
  onPick?: (id: string) => void;
  testId: string;
}) {
  const top = rows.slice(0, 5);
  return (
    <div data-testid={testId}>
      <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{title}</h3>
      {top.length === 0 ? (
        <p className="py-4 text-sm text-zinc-500">Nobody in this range.</p>
      ) : (
        <ol className="space-y-0.5">
          {top.map((r, i) => {
            const share = total ? r.costUsd / total : 0;
            const clickable = !!onPick && !!r.id;
            const body = (
              <>
                <span className="w-4 shrink-0 text-right text-xs font-semibold text-zinc-500 tabular-nums">{i + 1}</span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-center justify-between gap-3">
                    <NameCell kind={kind} row={r} />
                    <span className="shrink-0 text-right">
                      <span className="block text-[13px] font-semibold text-zinc-900 tabular-nums">{formatUsd(r.costUsd)}</span>
                      <span className="block text-[11px] text-zinc-500 tabular-nums">{formatShare(share)}</span>
                    </span>
                  </span>
                  <ShareBar share={share} tone={i === 0 ? TONE[kind] : SOFT_TONE[kind]} className="mt-1.5" />
                </span>
              </>
            );
            return (
              <li key={r.id ?? `none-${i}`} data-testid="spender" data-id={r.id ?? ""} data-cost={r.costUsd}>
                {clickable ? (
                  <button
                    type="button"
                    onClick={() => onPick!(r.id!)}
                    className="flex w-full items-center gap-2.5 rounded-lg px-1.5 py-1.5 text-left hover:bg-zinc-50"
                    title={`Show only ${splitName(r.name).name}`}
                  >
                    {body}
                  </button>
                ) : (
                  <div className="flex w-full items-center gap-2.5 px-1.5 py-1.5">{body}</div>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

/** Each tab: its label, its column's heading, and what "none in this view" calls its rows. */
const TABS: { key: BreakdownKind; label: string; column: string; rows: string }[] = [
  { key: "room", label: "Rooms", column: "Room", rows: "rooms" },
  { key: "task", label: "Tasks", column: "Task", rows: "tasks" },
  { key: "agent", label: "Agents", column: "Agent", rows: "agents" },
  { key: "person", label: "Owned by", column: "Owner", rows: "owners" },
  { key: "requester", label: "Requested by", column: "Requester", rows: "requesters" },
  { key: "model", label: "Models", column: "Model", rows: "models" },
];

export function BreakdownTable({
  data,
  total,
  seesAll,
  onOpen,
  onFilter,
  onExport,
  exporting,
}: {
  data: Record<BreakdownKind, BreakdownRow[]>;
  total: number;
  seesAll: boolean;
  onOpen: (kind: "room" | "task", row: BreakdownRow) => void;
  onFilter: (kind: FilterKind, id: string) => void;
  onExport: (view: CsvView) => void;
  exporting: CsvView | null;
}) {
  const [kind, setKind] = useState<BreakdownKind>("room");
  const [all, setAll] = useState(false);
  const rows = data[kind];
  const shown = all ? rows : rows.slice(0, 8);
  const opens = kind === "room" || kind === "task";
  const tab = TABS.find((t) => t.key === kind)!;
  const canFilter = kind === "agent" || kind === "model" || kind === "requester" || (kind === "person" && seesAll);
  const hint: ReactNode = opens
    ? "Open a row to see its cost per agent and how much people took part"
    : canFilter
      ? "Pick a row to narrow the dashboard to it"
      : null;

  return (
    <Card
      title="Breakdown"
      subtitle={hint}
      testId="breakdown"
      flush
      actions={
        <>
          <Segmented<BreakdownKind>
            label="Break down by"
            size="xs"
            testId="breakdown-tab"
            value={kind}
            onChange={(k) => {
              setKind(k);
              setAll(false);
            }}
            options={TABS.map((t) => ({ key: t.key, label: `${t.label}${data[t.key].length ? ` ${data[t.key].length}` : ""}` }))}
          />
          <CsvButton onClick={() => onExport(VIEW[kind])} busy={exporting === VIEW[kind]} testId="export-breakdown" />
        </>
      }
    >
      {rows.length === 0 ? (
        <p className="px-4 pt-2 pb-6 text-sm text-zinc-500">No {tab.rows} with usage in this view.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[640px] text-sm" data-testid="breakdown-table" data-kind={kind}>
            <thead>
              <tr className="border-y border-zinc-100 bg-zinc-50/70 text-left text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">
                <th scope="col" className="w-10 py-2 pl-4 font-semibold">
                  #
                </th>
                <th scope="col" className="py-2 font-semibold">
                  {tab.column}
                </th>
                <th scope="col" className="w-[22%] py-2 font-semibold">
                  Share of spend
                </th>
                <th scope="col" className="py-2 text-right font-semibold">
                  Spend
                </th>
                <th scope="col" className="py-2 text-right font-semibold" title="Input + output">
                  Tokens
                </th>
                <th scope="col" className="py-2 text-right font-semibold">
                  Calls
                </th>
                <th scope="col" className="w-10 py-2 pr-4" aria-label="Open" />
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {shown.map((r, i) => {
                const share = total ? r.costUsd / total : 0;
                const action = r.id ? (opens ? () => onOpen(kind as "room" | "task", r) : canFilter ? () => onFilter(kind as FilterKind, r.id!) : null) : null;
                return (
                  <tr
                    key={r.id ?? `none-${i}`}
                    data-testid="breakdown-row"
                    data-kind={kind}
                    data-id={r.id ?? ""}
                    data-name={r.name}
                    onClick={action ?? undefined}
                    className={`group ${action ? "cursor-pointer hover:bg-indigo-50/40" : ""}`}
                  >
                    <td className="py-2.5 pl-4 text-xs font-semibold text-zinc-500 tabular-nums">{i + 1}</td>
                    <td className="max-w-0 py-2.5 pr-4">
                      {action ? (
                        <button
                          type="button"
                          className="block max-w-full rounded text-left"
                          data-testid="breakdown-open"
                          onClick={(e) => {
                            e.stopPropagation();
                            action();
                          }}
                        >
                          <NameCell kind={kind} row={r} />
                        </button>
                      ) : (
                        <NameCell kind={kind} row={r} />
                      )}
                    </td>
                    <td className="py-2.5 pr-4">
                      <span className="flex items-center gap-2">
                        <ShareBar share={share} tone={TONE[kind]} />
                        <span className="w-9 shrink-0 text-right text-xs text-zinc-500 tabular-nums">{formatShare(share)}</span>
                      </span>
                    </td>
                    <td className="py-2.5 text-right font-semibold text-zinc-900 tabular-nums" data-testid="breakdown-cost" data-value={r.costUsd}>
                      {formatUsd(r.costUsd)}
                    </td>
                    <td
                      className="py-2.5 text-right text-zinc-600 tabular-nums"
                      title={`${formatInt(r.inputTokens)} in · ${formatInt(r.outputTokens)} out · ${formatInt(r.cachedTokens)} cached`}
                    >
                      {formatTokens(r.inputTokens + r.outputTokens)}
                    </td>
                    <td className="py-2.5 text-right text-zinc-600 tabular-nums">{formatInt(r.calls)}</td>
                    <td className="py-2.5 pr-4 text-right text-zinc-300 group-hover:text-indigo-500">
                      {action && <ChevronRightIcon size={16} className="ml-auto" />}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {rows.length > 8 && (
            <div className="border-t border-zinc-100 px-4 py-2 text-center">
              <button
                type="button"
                onClick={() => setAll((v) => !v)}
                className="text-xs font-medium text-indigo-600 hover:text-indigo-500"
                data-testid="breakdown-more"
              >
                {all ? "Show top 8" : `Show all ${rows.length}`}
              </button>
            </div>
          )}
        </div>
      )}
    </Card>
  );
}
