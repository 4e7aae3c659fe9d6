"use client";
// /directory: everyone in the workspace, people and agents, searchable by text, capability, kind and
// owner, with presence, work status and the viewer's standing; connect or message from here.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useRouter } from "@/components/nav/workspace-routing";
import { useMemo, useState } from "react";
import type { DirectoryEntry } from "@switchboard/sdk/contract";
import type { WorkStatusView } from "@switchboard/sdk/work";
import { frameworkLabel } from "@/components/agents/labels";
import { PageFrame } from "@/components/nav/page-frame";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { inputClass, SearchField } from "@/components/ui/field";
import { CompassIcon, HandshakeIcon, MessageIcon, SearchIcon, XIcon } from "@/components/ui/icons";
import { ConsentBadge, LifecycleBadge, PresenceBadge } from "@/components/ui/participant-states";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { toast } from "@/components/ui/toast";
import { useDebounced } from "@/components/ui/use-debounced";
import { useWorkStatuses } from "@/components/work/use-work-statuses";
import { WorkStateChip } from "@/components/work/work-state";
import { ConnectDialog } from "./connect-dialog";
import { currentStatus, EMOJI_FONT, type ProfileStatus } from "@/components/profile/status-emoji";
import { WorkspaceTag } from "@/components/workspace/workspace-marks";

type Kind = "" | "human" | "agent";

export function DirectoryScreen() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { presence } = useSocket();
  const statuses = useWorkStatuses();
  const [text, setText] = useState("");
  const [capability, setCapability] = useState("");
  const [kind, setKind] = useState<Kind>("");
  const [ownerId, setOwnerId] = useState("");
  const [connecting, setConnecting] = useState<DirectoryEntry | null>(null);
  const q = useDebounced(text.trim(), 250);
  const cap = useDebounced(capability.trim(), 250);

  const input = { limit: 200, ...(q ? { text: q } : {}), ...(cap ? { capability: cap } : {}), ...(kind ? { kind } : {}), ...(ownerId ? { ownerId } : {}) };
  const results = useQuery({ ...trpc.directory.search.queryOptions(input), placeholderData: keepPreviousData });
  // For the owner filter and capability suggestions: everyone, unfiltered.
  const everyone = useQuery({ ...trpc.workspace.participants.queryOptions(), staleTime: 60_000 });
  const people = useMemo(
    () => (everyone.data ?? []).filter((p) => p.kind === "human").sort((a, b) => a.displayName.localeCompare(b.displayName)),
    [everyone.data],
  );
  const capabilities = useMemo(() => [...new Set((everyone.data ?? []).flatMap((p) => p.capabilities))].sort(), [everyone.data]);

  useSocketEvent("participant:updated", () => void queryClient.invalidateQueries(trpc.directory.pathFilter()));

  const filtered = Boolean(q || cap || kind || ownerId);
  const clear = () => {
    setText("");
    setCapability("");
    setKind("");
    setOwnerId("");
  };
  // People first, then agents; each by name.
  const list = useMemo(
    () => [...(results.data ?? [])].sort((a, b) => (a.kind === b.kind ? a.displayName.localeCompare(b.displayName) : a.kind === "human" ? -1 : 1)),
    [results.data],
  );

  return (
    <PageFrame title="Directory" icon={<CompassIcon size={18} />} subtitle="People and agents in this workspace" testId="directory-page" wide>
      <div className="mb-5 grid gap-3 md:grid-cols-[1fr_auto]" role="search" aria-label="Filter the directory">
        <SearchField
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Search names, handles, descriptions, capabilities"
          aria-label="Search"
          data-testid="directory-search"
          autoFocus
        />
        <div className="flex rounded-md bg-zinc-100 p-0.5 ring-1 ring-zinc-200 ring-inset" role="group" aria-label="Show">
          {(
            [
              ["", "Everyone"],
              ["human", "People"],
              ["agent", "Agents"],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value || "all"}
              type="button"
              aria-pressed={kind === value}
              onClick={() => setKind(value)}
              data-testid={`kind-${value || "all"}`}
              className={`h-9 flex-1 rounded px-3 text-sm font-medium md:flex-none ${kind === value ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200" : "text-zinc-600 hover:text-zinc-900"}`}
            >
              {label}
            </button>
          ))}
        </div>
        <div className="grid gap-3 sm:grid-cols-2 md:col-span-2 md:grid-cols-[1fr_1fr_auto]">
          <div>
            <input
              list="directory-capabilities"
              value={capability}
              onChange={(e) => setCapability(e.target.value)}
              placeholder="Any capability"
              aria-label="Capability"
              className={inputClass}
              data-testid="directory-capability"
            />
            <datalist id="directory-capabilities">
              {capabilities.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </div>
          <select value={ownerId} onChange={(e) => setOwnerId(e.target.value)} aria-label="Owner" className={inputClass} data-testid="directory-owner">
            <option value="">Any owner</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                Agents of {p.displayName}
              </option>
            ))}
          </select>
          <div className="flex items-center justify-between gap-3 sm:col-span-2 md:col-span-1">
            <span className="text-sm text-zinc-500" aria-live="polite" data-testid="directory-count">
              {results.isFetching && <Spinner className="mr-1.5 inline h-3.5 w-3.5" />}
              {results.data ? `${list.length} ${list.length === 1 ? "result" : "results"}` : ""}
            </span>
            {filtered && (
              <Button variant="ghost" size="sm" onClick={clear}>
                <XIcon size={14} /> Clear
              </Button>
            )}
          </div>
        </div>
      </div>

      {results.isPending ? (
        <SkeletonRows rows={5} />
      ) : results.isError ? (
        <ErrorState error={results.error} onRetry={() => void results.refetch()} title="Couldn't search the directory" />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<SearchIcon size={22} />}
          title={filtered ? "Nobody matches" : "The directory is empty"}
          body={
            filtered ? "Try fewer words, another capability, or clear the filters." : "Invite people, or create an agent on the Agents page: they show up here."
          }
          testId="directory-empty"
        >
          {filtered && (
            <Button variant="secondary" size="sm" onClick={clear}>
              Clear filters
            </Button>
          )}
        </EmptyState>
      ) : (
        <ul
          className={`divide-y divide-zinc-100 overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs ${results.isPlaceholderData ? "opacity-60" : ""}`}
          data-testid="directory-list"
        >
          {list.map((entry) => (
            <DirectoryRow
              key={entry.id}
              entry={entry}
              online={presence.get(entry.id) ?? entry.online}
              work={statuses.get(entry.id)}
              onConnect={() => setConnecting(entry)}
              onCapability={(c) => setCapability(c)}
            />
          ))}
        </ul>
      )}
      <ConnectDialog target={connecting} onClose={() => setConnecting(null)} />
    </PageFrame>
  );
}

function DirectoryRow({
  entry,
  online,
  work,
  onConnect,
  onCapability,
}: {
  entry: DirectoryEntry;
  online: boolean;
  work: WorkStatusView | undefined;
  onConnect: () => void;
  onCapability: (c: string) => void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const { me } = useViewer();
  const open = useMutation(
    trpc.rooms.openDirect.mutationOptions({
      onSuccess: (room) => router.push(`/r/${room.id}`),
      onError: (e) => toast(errorMessage(e), "error"),
    }),
  );
  const mine = entry.owner?.id === me.id;
  return (
    <li
      className="flex items-start gap-3 px-4 py-4"
      data-testid="directory-entry"
      data-handle={entry.handle}
      data-kind={entry.kind}
      data-standing={entry.connection}
    >
      <Avatar id={entry.id} name={entry.displayName} kind={entry.kind} size={40} online={online} src={entry.avatarUrl} />
      <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="truncate text-[15px] font-semibold text-zinc-900" data-testid="entry-name">
              {entry.displayName}
            </span>
            <KindBadge kind={entry.kind} />
            <span className="text-sm text-zinc-500">@{entry.handle}</span>
            <WorkspaceTag workspace={entry.workspace} testId="entry-workspace" />
            <EntryStatus status={entry} />
            <PresenceBadge online={online} />
            {entry.kind === "agent" && <LifecycleBadge lifecycle={entry.status === "suspended" ? "suspended" : "active"} quiet />}
          </div>
          <div className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs text-zinc-500">
            {entry.kind === "agent" && (
              <>
                <span data-testid="entry-owner">{entry.owner ? (mine ? "Yours" : `Owned by ${entry.owner.displayName}`) : "No owner"}</span>
                <span aria-hidden="true">·</span>
                <span data-testid="entry-framework">{frameworkLabel(entry.framework)}</span>
              </>
            )}
          </div>
          {entry.waitingFor && (
            <p
              className="mt-1.5 mr-1.5 inline-flex max-w-full items-center gap-1.5 rounded-md bg-amber-50 px-2 py-0.5 text-xs text-amber-800 ring-1 ring-amber-100"
              data-testid="entry-waiting-for"
            >
              <span className="h-1.5 w-1.5 shrink-0 rounded-full bg-amber-500" />
              <span className="truncate">Waiting for {entry.waitingFor}</span>
            </p>
          )}
          {work ? (
            <WorkStateChip status={work} online={entry.kind === "agent" ? online : undefined} withText className="mt-1.5" />
          ) : (
            entry.workStatus && (
              <p
                className="mt-1.5 inline-flex max-w-full items-center gap-1.5 rounded-md bg-sky-50 px-2 py-0.5 text-xs text-sky-800 ring-1 ring-sky-100"
                data-testid="entry-work-status"
              >
                <span className="h-1.5 w-1.5 shrink-0 animate-pulse rounded-full bg-sky-500" />
                <span className="truncate">{entry.workStatus}</span>
              </p>
            )
          )}
          {entry.description && (
            <p className="mt-1.5 line-clamp-2 text-sm text-zinc-600" data-testid="entry-description">
              {entry.description}
            </p>
          )}
          {entry.capabilities.length > 0 && (
            <div className="mt-2 flex flex-wrap gap-1" aria-label="Capabilities">
              {entry.capabilities.map((c) => (
                <button
                  key={c}
                  type="button"
                  onClick={() => onCapability(c)}
                  title={`Show everyone with ${c}`}
                  data-testid="tag"
                  className="max-w-[14rem] truncate rounded-md bg-zinc-100 px-1.5 py-0.5 font-mono text-[11px] text-zinc-700 ring-1 ring-zinc-200 ring-inset hover:bg-indigo-50 hover:text-indigo-700 hover:ring-indigo-200"
                >
                  {c}
                </button>
              ))}
            </div>
          )}
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2 sm:flex-col sm:items-end">
          <ConsentBadge consent={entry.connection} />
          {entry.connection === "connected" && (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => open.mutate({ participantIds: [entry.id] })}
              disabled={open.isPending}
              data-testid="message-participant"
            >
              {open.isPending ? <Spinner /> : <MessageIcon size={14} />} Message
            </Button>
          )}
          {entry.connection === "none" && (
            <Button variant="secondary" size="sm" onClick={onConnect} data-testid="ask-to-connect">
              <HandshakeIcon size={14} /> Ask to connect
            </Button>
          )}
          {entry.connection === "pending" && (
            <Link href="/inbox" className="text-xs font-medium text-indigo-600 hover:underline">
              See in inbox
            </Link>
          )}
        </div>
      </div>
    </li>
  );
}

/** The profile status, emoji and words, beside the name (the row has room for the words). */
function EntryStatus({ status }: { status: ProfileStatus }) {
  const now = currentStatus(status);
  if (!now) return null;
  return (
    <span className="inline-flex max-w-full min-w-0 items-center gap-1 text-sm text-zinc-600" data-testid="entry-status">
      <span aria-hidden="true" style={EMOJI_FONT}>
        {now.emoji}
      </span>
      <span className="truncate">{now.text}</span>
    </span>
  );
}
