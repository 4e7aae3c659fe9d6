"use client";
// The audit log: filters (action, actor, subject, dates), pages by beforeSeq, CSV and JSON export, and
// the hash chain's verification. Entries name who and what (@handle, #room) and say their details in words.
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTRPC, useTRPCClient } from "@/components/providers/trpc";
import { Avatar } from "@/components/ui/avatar";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { inputClass } from "@/components/ui/field";
import { AlertIcon, CheckCircleIcon, DownloadIcon, ListIcon, ShieldIcon, XIcon } from "@/components/ui/icons";
import { ScrollX } from "@/components/ui/scroll-x";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { dateTime } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { useDebounced } from "@/components/ui/use-debounced";
import type { AuditRow, ChainReport } from "./types";

const PAGE = 50;
const PREFIXES = ["agent.", "key.", "access_token.", "connection.", "member.", "invite.", "workspace.", "limits."];

interface Filter {
  action?: string;
  actorId?: string;
  subjectType?: string;
  subjectId?: string;
  from?: Date;
  to?: Date;
}

/** The kinds of subject people filter by; the others (bindings, models...) by action. */
const SUBJECT_TYPES = [
  { value: "participant", label: "People and agents" },
  { value: "room", label: "Rooms" },
  { value: "invite", label: "Invite links" },
  { value: "api_key", label: "API keys" },
  { value: "access_token", label: "Access tokens" },
  { value: "connection", label: "Connections" },
  { value: "question", label: "Questions" },
  { value: "workspace", label: "The workspace" },
];

export function AuditTab() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [action, setAction] = useState("");
  const [actorId, setActorId] = useState("");
  const [subjectType, setSubjectType] = useState("");
  const [subjectId, setSubjectId] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const debouncedAction = useDebounced(action.trim(), 300);
  const participants = useQuery({ ...trpc.workspace.participants.queryOptions(), staleTime: 60_000 });
  const facets = useQuery({ ...trpc.admin.auditFacets.queryOptions(), staleTime: 30_000 });
  const actors = useMemo(
    () => [...(participants.data ?? [])].sort((a, b) => (a.kind === b.kind ? a.displayName.localeCompare(b.displayName) : a.kind === "human" ? -1 : 1)),
    [participants.data],
  );

  const filter: Filter = useMemo(
    () => ({
      ...(debouncedAction ? { action: debouncedAction } : {}),
      ...(actorId ? { actorId } : {}),
      ...(subjectType ? { subjectType } : {}),
      ...(subjectId ? { subjectId } : {}),
      ...(from ? { from: new Date(`${from}T00:00:00`) } : {}),
      ...(to ? { to: new Date(`${to}T23:59:59.999`) } : {}),
    }),
    [debouncedAction, actorId, subjectType, subjectId, from, to],
  );
  const filtered = Object.keys(filter).length > 0;

  const log = useInfiniteQuery({
    queryKey: ["admin.audit.pages", filter],
    queryFn: ({ pageParam }) => client.admin.audit.query({ ...filter, limit: PAGE, ...(pageParam ? { beforeSeq: pageParam } : {}) }),
    initialPageParam: 0,
    getNextPageParam: (last: AuditRow[]) => (last.length === PAGE ? last[last.length - 1].seq : undefined),
    placeholderData: keepPreviousData,
  });
  const rows = useMemo(() => log.data?.pages.flat() ?? [], [log.data]);

  const [exporting, setExporting] = useState<"csv" | "json" | null>(null);
  const exportAs = async (format: "csv" | "json") => {
    setExporting(format);
    try {
      const text = await client.admin.exportAudit.query({ ...filter, format });
      const blob = new Blob([text], { type: format === "csv" ? "text/csv;charset=utf-8" : "application/json" });
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = `audit-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.${format}`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      toast(errorMessage(error), "error");
    } finally {
      setExporting(null);
    }
  };

  const verify = useMutation({ mutationFn: () => client.admin.verifyAudit.query() });

  const clear = () => {
    setAction("");
    setActorId("");
    setSubjectType("");
    setSubjectId("");
    setFrom("");
    setTo("");
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-zinc-600">
          Every change to keys, agents, connections, roles, invites and settings, chained by hash so that tampering shows.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => void exportAs("csv")} disabled={exporting !== null} data-testid="export-csv">
            {exporting === "csv" ? <Spinner /> : <DownloadIcon size={14} />} CSV
          </Button>
          <Button variant="secondary" size="sm" onClick={() => void exportAs("json")} disabled={exporting !== null} data-testid="export-json">
            {exporting === "json" ? <Spinner /> : <DownloadIcon size={14} />} JSON
          </Button>
          <Button size="sm" onClick={() => verify.mutate()} disabled={verify.isPending} data-testid="verify-chain">
            {verify.isPending ? <Spinner /> : <ShieldIcon size={14} />} Verify chain
          </Button>
        </div>
      </div>

      {verify.isError && <ChainBanner error={verify.error} onClose={() => verify.reset()} />}
      {verify.data && <ChainBanner report={verify.data} onClose={() => verify.reset()} />}

      <div
        className="grid gap-3 rounded-xl border border-zinc-200 bg-white p-3 shadow-xs sm:grid-cols-2 lg:grid-cols-3"
        role="search"
        aria-label="Filter the audit log"
      >
        <div>
          <input
            list="audit-prefixes"
            value={action}
            onChange={(e) => setAction(e.target.value)}
            placeholder="Action, e.g. agent. or agent.suspended"
            aria-label="Action (or its beginning)"
            className={`${inputClass} font-mono`}
            data-testid="audit-action"
          />
          <datalist id="audit-prefixes">
            {[...PREFIXES, ...(facets.data?.actions ?? [])].map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
        </div>
        <select value={actorId} onChange={(e) => setActorId(e.target.value)} aria-label="Actor" className={inputClass} data-testid="audit-actor">
          <option value="">Any actor</option>
          {actors.map((p) => (
            <option key={p.id} value={p.id}>
              {p.displayName} (@{p.handle}){p.kind === "agent" ? " · agent" : ""}
            </option>
          ))}
        </select>
        <select
          value={subjectType}
          onChange={(e) => setSubjectType(e.target.value)}
          aria-label="Kind of subject"
          className={inputClass}
          data-testid="audit-subject-type"
        >
          <option value="">Any kind of subject</option>
          {SUBJECT_TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
        <select value={subjectId} onChange={(e) => setSubjectId(e.target.value)} aria-label="Subject" className={inputClass} data-testid="audit-subject">
          <option value="">About anyone or any room</option>
          {(facets.data?.subjects ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
        <label className="flex items-center gap-2 text-sm text-zinc-500">
          From
          <span className="min-w-0 flex-1">
            <input type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} className={inputClass} data-testid="audit-from" />
          </span>
        </label>
        <label className="flex items-center gap-2 text-sm text-zinc-500">
          To
          <span className="min-w-0 flex-1">
            <input type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} className={inputClass} data-testid="audit-to" />
          </span>
        </label>
        <Button variant="ghost" size="md" onClick={clear} disabled={!filtered && !action}>
          <XIcon size={14} /> Clear
        </Button>
      </div>

      {log.isPending ? (
        <SkeletonRows rows={6} />
      ) : log.isError ? (
        <ErrorState error={log.error} onRetry={() => void log.refetch()} title="Couldn't load the audit log" />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={<ListIcon size={22} />}
          title={filtered ? "No entries match" : "Nothing recorded yet"}
          body={
            filtered
              ? "Try a shorter action prefix, another actor or subject, or a wider date range."
              : "Entries appear as soon as someone creates an agent, changes a role, invites people or decides a connection."
          }
          testId="audit-empty"
        />
      ) : (
        <>
          <ScrollX
            label="Audit log (scrolls sideways)"
            testId="audit-scroll"
            className={`overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs ${log.isPlaceholderData ? "opacity-60" : ""}`}
          >
            <table className="w-full min-w-[56rem] text-left text-sm" data-testid="audit-table">
              <thead className="border-b border-zinc-200 bg-zinc-50 text-xs text-zinc-500">
                <tr>
                  <th className="w-14 px-3 py-2 font-medium">#</th>
                  <th className="px-3 py-2 font-medium">When</th>
                  <th className="px-3 py-2 font-medium">Action</th>
                  <th className="px-3 py-2 font-medium">Actor</th>
                  <th className="px-3 py-2 font-medium">Subject</th>
                  <th className="px-3 py-2 font-medium">Details</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100 align-top">
                {rows.map((r) => (
                  <AuditEntry key={r.id} row={r} />
                ))}
              </tbody>
            </table>
          </ScrollX>
          <div className="flex items-center justify-between text-sm text-zinc-500">
            <span data-testid="audit-count">
              {rows.length} entr{rows.length === 1 ? "y" : "ies"} shown
            </span>
            {log.hasNextPage ? (
              <Button variant="secondary" size="sm" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage} data-testid="audit-older">
                {log.isFetchingNextPage && <Spinner />} Load older entries
              </Button>
            ) : (
              <span>The beginning of the log</span>
            )}
          </div>
        </>
      )}
    </div>
  );
}

function AuditEntry({ row: r }: { row: AuditRow }) {
  return (
    <tr data-testid="audit-row" data-action={r.action} data-seq={r.seq}>
      <td className="px-3 py-2 font-mono text-xs text-zinc-500">{r.seq}</td>
      <td className="px-3 py-2 whitespace-nowrap text-zinc-600">{dateTime(r.createdAt)}</td>
      <td className="px-3 py-2">
        <code className="rounded bg-indigo-50 px-1.5 py-0.5 font-mono text-xs text-indigo-800 ring-1 ring-indigo-100">{r.action}</code>
      </td>
      <td className="px-3 py-2" data-testid="audit-actor-cell">
        {r.actor ? (
          <span className="inline-flex items-center gap-1.5" title={`${r.actor.displayName} (@${r.actor.handle})`}>
            <Avatar id={r.actor.id} name={r.actor.displayName} kind={r.actor.kind === "agent" ? "agent" : "human"} size={20} />
            <span className="whitespace-nowrap text-zinc-800">{r.actor.displayName}</span>
            <span className="text-xs whitespace-nowrap text-zinc-500">@{r.actor.handle}</span>
          </span>
        ) : (
          <span className="text-zinc-500 italic">system</span>
        )}
      </td>
      <td className="px-3 py-2 text-xs whitespace-nowrap text-zinc-500" data-testid="audit-subject-cell">
        {r.subject.label ? (
          <span className="font-medium text-zinc-800" title={`${r.subjectType} ${r.subjectId ?? ""}`}>
            {r.subject.label}
          </span>
        ) : (
          <>
            {r.subjectType.replace(/_/g, " ")}
            {r.subjectId && (
              <code className="ml-1 font-mono text-zinc-500" title={r.subjectId}>
                {r.subjectId.slice(0, 8)}…
              </code>
            )}
          </>
        )}
      </td>
      <td className="max-w-[24rem] px-3 py-2" data-testid="audit-details">
        {r.details.length > 0 ? (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-xs">
              {r.details.map((d) => (
                <div key={d.key} className="contents">
                  <dt className="whitespace-nowrap text-zinc-500">{d.label}</dt>
                  <dd className="min-w-0 break-words text-zinc-800">{d.value}</dd>
                </div>
              ))}
            </dl>
            <details className="mt-1">
              <summary className="cursor-pointer text-[11px] text-zinc-500 marker:text-zinc-500">Raw data</summary>
              <pre className="mt-1 overflow-x-auto rounded bg-zinc-50 p-2 font-mono text-[11px] whitespace-pre-wrap text-zinc-700 ring-1 ring-zinc-200">
                {JSON.stringify(r.data, null, 2)}
              </pre>
            </details>
          </>
        ) : (
          <span className="text-zinc-500">—</span>
        )}
      </td>
    </tr>
  );
}

function ChainBanner({ report, error, onClose }: { report?: ChainReport; error?: unknown; onClose: () => void }) {
  const ok = report?.ok === true;
  return (
    <div
      role={ok ? "status" : "alert"}
      data-testid="chain-result"
      data-ok={ok ? "true" : "false"}
      className={`flex items-start gap-3 rounded-xl px-4 py-3 text-sm ring-1 ring-inset ${ok ? "bg-emerald-50 text-emerald-900 ring-emerald-200" : "bg-rose-50 text-rose-900 ring-rose-200"}`}
    >
      {ok ? <CheckCircleIcon size={20} className="mt-px shrink-0 text-emerald-600" /> : <AlertIcon size={20} className="mt-px shrink-0 text-rose-600" />}
      <div className="flex-1">
        {error ? (
          <>
            <strong className="font-semibold">Couldn&apos;t verify the chain.</strong> {errorMessage(error)}
          </>
        ) : ok ? (
          <>
            <strong className="font-semibold">The chain is intact.</strong> All {report!.checked.toLocaleString()} entries link to each other and none was
            changed.
          </>
        ) : (
          <>
            <strong className="font-semibold">The chain is broken at entry #{report!.firstBroken?.seq}.</strong> {report!.firstBroken?.reason}.{" "}
            {report!.checked.toLocaleString()} entries before it check out.
            {report!.firstBroken?.id && <span className="block font-mono text-xs text-rose-700">Entry id {report!.firstBroken.id}</span>}
          </>
        )}
      </div>
      <button type="button" onClick={onClose} aria-label="Dismiss" className="rounded p-0.5 opacity-60 hover:opacity-100">
        <XIcon size={15} />
      </button>
    </div>
  );
}
