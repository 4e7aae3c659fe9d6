"use client";
// /work/involvement?kind=pull_request&value=<url> (or kind=branch, or kind=task&taskId=…): who drove a
// piece of work. What it is and when it ran, people's share of what was said, each person's and
// agent's part, the timeline, and the conversations the viewer may not read (counted, never shown).
// "Export CSV" saves the parts as the server renders them (work.involvementCsv).
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/nav/workspace-routing";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { PageFrame } from "@/components/nav/page-frame";
import { useTRPC, useTRPCClient } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { ClockIcon, DownloadIcon, HashIcon, UsersIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { dateTime } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { downloadText } from "@/components/usage/csv";
import { EventList, roomLabel } from "./event-list";
import { HiddenNotice, LiveDot, PartsTable, ShareBars } from "./involvement-parts";
import type { Involvement } from "./types";
import { useNow } from "./use-work-board";
import { useWorkRefetch } from "./use-work-refetch";
import { involvementTarget, pullRequestName, timelineHref, type InvolvementTarget } from "./work-hrefs";
import { BranchIcon, PullRequestIcon } from "./work-icons";

const KIND = { pull_request: "Pull request", branch: "Branch", task: "Task" } as const;

export function InvolvementScreen() {
  const target = involvementTarget(useSearchParams());
  if (!target) {
    return (
      <PageFrame title="Who drove this?" icon={<UsersIcon size={18} />} testId="involvement-page">
        <EmptyState
          icon={<UsersIcon size={20} />}
          title="Which work?"
          body="Open a pull request's, a branch's or a task's involvement from the Work page: “Who drove this?” beside what agents shipped and beside each task."
          testId="involvement-pick"
        >
          <Link href="/work" className="text-sm font-medium text-indigo-600 hover:underline">
            Go to the Work page
          </Link>
        </EmptyState>
      </PageFrame>
    );
  }
  return <InvolvementOf target={target} />;
}

function InvolvementOf({ target }: { target: InvolvementTarget }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const now = useNow();
  const query = useQuery({ ...trpc.work.involvement.queryOptions(target), placeholderData: keepPreviousData });
  const inv = query.data;
  const live = useWorkRefetch(
    () => void queryClient.invalidateQueries(trpc.work.involvement.pathFilter()),
    inv ? inv.conversations.map((c) => c.roomId) : null,
  );
  const csv = useInvolvementCsv(target);

  return (
    <PageFrame
      title="Who drove this?"
      icon={<UsersIcon size={18} />}
      subtitle={inv ? `${KIND[inv.subject.kind]}: ${inv.subject.title ?? inv.subject.value}` : KIND[target.kind]}
      testId="involvement-page"
      wide
      actions={
        <>
          <LiveDot live={live} fetching={query.isFetching} testId="involvement-live" />
          <Button size="sm" variant="secondary" onClick={() => void csv.download()} disabled={csv.busy || !inv} data-testid="involvement-csv">
            {csv.busy ? <Spinner className="h-3.5 w-3.5" /> : <DownloadIcon size={15} />}
            <span className="max-sm:hidden">Export CSV</span>
          </Button>
        </>
      }
    >
      {query.isPending ? (
        <div className="space-y-4">
          <SkeletonRows rows={2} testId="involvement-loading" />
          <SkeletonRows rows={4} />
        </div>
      ) : query.isError && !inv ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} title="Couldn't load who drove this" testId="involvement-error" />
      ) : inv ? (
        <div className={`space-y-4 transition-opacity ${query.isPlaceholderData ? "opacity-60" : ""}`} data-testid="involvement">
          <SubjectCard inv={inv} target={target} />
          {inv.hiddenConversations > 0 && <HiddenNotice count={inv.hiddenConversations} />}
          {inv.people.length + inv.agents.length === 0 ? (
            <EmptyState
              icon={<UsersIcon size={20} />}
              title="Nothing you can see yet"
              body={
                inv.hiddenConversations > 0
                  ? "The conversations that produced this work are in rooms you can't read."
                  : "No messages, tasks or files were reported for this work yet."
              }
              testId="involvement-empty"
            />
          ) : (
            <>
              <ShareBars inv={inv} />
              <section aria-labelledby="parts-heading">
                <h2 id="parts-heading" className="mb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
                  Each part
                </h2>
                <PartsTable inv={inv} now={now} />
              </section>
              <section className="overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs" aria-labelledby="timeline-heading">
                <header className="flex items-center gap-2 border-b border-zinc-100 px-4 py-2.5">
                  <h2 id="timeline-heading" className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">
                    Timeline
                  </h2>
                  <span className="text-xs text-zinc-500 tabular-nums">{inv.timeline.length} events</span>
                  {inv.earlierEvents > 0 && <span className="text-xs text-zinc-500">(the latest; {inv.earlierEvents} earlier not shown)</span>}
                </header>
                <div className="py-1">
                  <EventList events={inv.timeline} rooms={inv.rooms} testId="involvement-timeline" />
                </div>
              </section>
            </>
          )}
        </div>
      ) : null}
    </PageFrame>
  );
}

function SubjectCard({ inv, target }: { inv: Involvement; target: InvolvementTarget }) {
  const { subject } = inv;
  const Icon = subject.kind === "pull_request" ? PullRequestIcon : subject.kind === "branch" ? BranchIcon : ClockIcon;
  const span = inv.from ? Date.parse(inv.to) - Date.parse(inv.from) : null;
  const rooms = new Map(inv.rooms.map((r) => [r.id, r]));
  return (
    <section className="rounded-xl border border-zinc-200 bg-white p-4 shadow-xs" data-testid="involvement-subject" data-kind={subject.kind}>
      <div className="flex flex-wrap items-start gap-3">
        <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-zinc-900 text-white" aria-hidden="true">
          <Icon size={18} />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium tracking-wide text-zinc-500 uppercase">{KIND[subject.kind]}</p>
          <h2 className="text-lg font-semibold break-words text-zinc-900" data-testid="involvement-title">
            {subject.title ?? (subject.kind === "pull_request" ? pullRequestName(subject.value) : subject.value)}
          </h2>
          {subject.kind === "pull_request" ? (
            <a
              href={subject.value}
              target="_blank"
              rel="noreferrer noopener"
              className="font-mono text-xs break-all text-indigo-700 hover:underline"
              data-testid="involvement-value"
            >
              {subject.value}
            </a>
          ) : subject.kind === "branch" ? (
            <p className="font-mono text-xs text-zinc-600" data-testid="involvement-value">
              {subject.value}
            </p>
          ) : null}
        </div>
        {target.kind === "task" && (
          <Link
            href={timelineHref({ taskId: target.taskId })}
            className="inline-flex h-8 shrink-0 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-zinc-800 shadow-xs ring-1 ring-zinc-300 ring-inset hover:bg-zinc-50"
            data-testid="involvement-task-timeline"
          >
            <ClockIcon size={15} /> Timeline
          </Link>
        )}
      </div>
      <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-xs text-zinc-500">From</dt>
          <dd className="font-medium text-zinc-900" data-testid="involvement-from" data-at={inv.from ?? ""}>
            {inv.from ? dateTime(inv.from) : "Nothing reported yet"}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">To</dt>
          <dd className="font-medium text-zinc-900" data-testid="involvement-to" data-at={inv.to}>
            {dateTime(inv.to)}
            {span !== null && <span className="ml-1.5 text-xs font-normal text-zinc-500">({duration(span)})</span>}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Where</dt>
          <dd className="flex flex-wrap gap-1.5" data-testid="involvement-rooms">
            {inv.conversations.length === 0 && <span className="text-zinc-500">No conversation you can read</span>}
            {inv.conversations.map((c) => {
              const room = rooms.get(c.roomId);
              return (
                <Link
                  key={`${c.roomId} ${c.threadRootId ?? ""}`}
                  href={timelineHref(c)}
                  className="inline-flex items-center gap-1 rounded-md bg-zinc-100 px-1.5 py-0.5 text-xs font-medium text-zinc-700 ring-1 ring-zinc-200 ring-inset hover:bg-indigo-50 hover:text-indigo-700"
                  title={c.threadRootId ? "This thread's timeline" : "This room's timeline"}
                  data-testid="involvement-room"
                >
                  <HashIcon size={11} />
                  {room ? roomLabel(room).replace(/^#/, "") : "a room"}
                  {c.threadRootId && <span className="text-zinc-500">· thread</span>}
                </Link>
              );
            })}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** "3 min", "2 h 5 min", "4 days". */
function duration(ms: number): string {
  const min = Math.round(ms / 60_000);
  if (min < 1) return "under a minute";
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  return `${Math.round(h / 24)} days`;
}

function useInvolvementCsv(target: InvolvementTarget) {
  const client = useTRPCClient();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const { csv } = await client.work.involvementCsv.query(target);
      const name = target.kind === "task" ? `task-${target.taskId}` : `${target.kind.replace("_", "-")}-${slug(target.value)}`;
      downloadText(csv, `involvement-${name}.csv`);
    } catch (error) {
      toast(errorMessage(error), "error");
    } finally {
      setBusy(false);
    }
  };
  return { busy, download };
}

const slug = (value: string) =>
  value
    .replace(/^https?:\/\/[^/]+\//, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60) || "work";
