"use client";
// /work/timeline?roomId=…[&threadRootId=…] or ?taskId=…: the work done in a room (or a thread of it)
// or for a task, in time order: tasks made and finished, files touched, what shipped, the messages,
// and people's interventions. Newest page first, earlier pages on demand; live as agents report.
import { keepPreviousData, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/nav/workspace-routing";
import { useSearchParams } from "next/navigation";
import { PageFrame } from "@/components/nav/page-frame";
import { useTRPC } from "@/components/providers/trpc";
import { Avatar } from "@/components/ui/avatar";
import { Button, Spinner } from "@/components/ui/button";
import { ClockIcon, HashIcon, UsersIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { dateTime } from "@/components/ui/time";
import { EventList, roomLabel } from "./event-list";
import { HiddenNotice, LiveDot } from "./involvement-parts";
import type { Timeline } from "./types";
import { involvementHref, timelineTarget, type TimelineTarget } from "./work-hrefs";
import { useWorkRefetch } from "./use-work-refetch";
import { TIMELINE_PAGE } from "@switchboard/sdk/work";

const PAGE = TIMELINE_PAGE;
const STATUS = { pending: "Pending", in_progress: "In progress", completed: "Completed", dropped: "Dropped" } as const;

export function TimelineScreen() {
  const target = timelineTarget(useSearchParams());
  if (!target) {
    return (
      <PageFrame title="Timeline" icon={<ClockIcon size={18} />} testId="timeline-page">
        <EmptyState
          icon={<ClockIcon size={20} />}
          title="Which timeline?"
          body="Open a room's or a task's timeline from the Work page, or from a room's header."
          testId="timeline-pick"
        >
          <Link href="/work" className="text-sm font-medium text-indigo-600 hover:underline">
            Go to the Work page
          </Link>
        </EmptyState>
      </PageFrame>
    );
  }
  return <TimelineOf target={target} />;
}

function TimelineOf({ target }: { target: TimelineTarget }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input =
    "taskId" in target
      ? { taskId: target.taskId, limit: PAGE }
      : { roomId: target.roomId, ...(target.threadRootId ? { threadRootId: target.threadRootId } : {}), limit: PAGE };
  const timeline = useInfiniteQuery({
    ...trpc.work.timeline.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
    placeholderData: keepPreviousData,
  });
  const first = timeline.data?.pages[0];
  const roomIds = first ? (first.scope.kind === "room" ? [first.scope.roomId] : first.scope.task.roomId ? [first.scope.task.roomId] : []) : null;
  const live = useWorkRefetch(() => void queryClient.invalidateQueries(trpc.work.timeline.pathFilter()), roomIds);

  // Pages come newest first; each page's events oldest first.
  const pages = timeline.data?.pages ?? [];
  const events = [...pages].reverse().flatMap((p) => p.events);
  const rooms = [...new Map(pages.flatMap((p) => p.rooms).map((r) => [r.id, r])).values()];
  const title = first ? heading(first) : "Timeline";

  return (
    <PageFrame
      title="Timeline"
      icon={<ClockIcon size={18} />}
      subtitle={first ? title : undefined}
      testId="timeline-page"
      actions={
        <>
          <LiveDot live={live} fetching={timeline.isFetching} testId="timeline-live" />
          {first?.scope.kind === "task" && (
            <Link
              href={involvementHref({ kind: "task", taskId: first.scope.task.id })}
              className="inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-zinc-800 shadow-xs ring-1 ring-zinc-300 ring-inset hover:bg-zinc-50"
              data-testid="timeline-involvement"
            >
              <UsersIcon size={15} />
              <span className="max-sm:hidden">Who drove this?</span>
            </Link>
          )}
          {first?.scope.kind === "room" && (
            <Link
              href={`/r/${first.scope.roomId}`}
              className="inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-zinc-800 shadow-xs ring-1 ring-zinc-300 ring-inset hover:bg-zinc-50"
              data-testid="timeline-open-room"
            >
              <HashIcon size={15} />
              <span className="max-sm:hidden">Open the room</span>
            </Link>
          )}
        </>
      }
    >
      {timeline.isPending ? (
        <SkeletonRows rows={5} testId="timeline-loading" />
      ) : timeline.isError && !first ? (
        <ErrorState error={timeline.error} onRetry={() => void timeline.refetch()} title="Couldn't load this timeline" testId="timeline-error" />
      ) : first ? (
        <div className="space-y-4">
          <ScopeCard timeline={first} rooms={rooms} />
          {first.hiddenConversations > 0 && <HiddenNotice count={first.hiddenConversations} />}
          {events.length === 0 ? (
            <EmptyState
              icon={<ClockIcon size={20} />}
              title="Nothing here yet"
              body="Tasks, files and links agents report here, and the messages around them, will show as they happen."
              testId="timeline-empty"
            />
          ) : (
            <section className="overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs" aria-label="Events" data-count={events.length}>
              {timeline.hasNextPage && (
                <div className="border-b border-zinc-100 px-4 py-2 text-center">
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => void timeline.fetchNextPage()}
                    disabled={timeline.isFetchingNextPage}
                    data-testid="timeline-earlier"
                  >
                    {timeline.isFetchingNextPage && <Spinner className="h-3.5 w-3.5" />}
                    Show earlier events
                  </Button>
                </div>
              )}
              <div className={`py-1 ${timeline.isPlaceholderData ? "opacity-60" : ""}`}>
                <EventList events={events} rooms={rooms} showRoom={first.scope.kind === "task"} />
              </div>
            </section>
          )}
        </div>
      ) : null}
    </PageFrame>
  );
}

function heading(t: Timeline): string {
  if (t.scope.kind === "task") return t.title;
  const room = t.rooms.find((r) => t.scope.kind === "room" && r.id === t.scope.roomId);
  const name = room ? roomLabel(room) : t.title;
  return t.scope.threadRootId ? `A thread in ${name}` : name;
}

function ScopeCard({ timeline: t, rooms }: { timeline: Timeline; rooms: Timeline["rooms"] }) {
  if (t.scope.kind === "room") {
    return (
      <div
        className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-zinc-200 bg-white px-4 py-3 shadow-xs"
        data-testid="timeline-scope"
        data-kind="room"
      >
        <h2 className="text-[15px] font-semibold text-zinc-900">{heading(t)}</h2>
        <p className="text-sm text-zinc-500">
          {t.scope.threadRootId ? "The thread's messages and the work agents did for it." : "Everything agents did here, and the talk around it."}
        </p>
      </div>
    );
  }
  const { task, agent } = t.scope;
  const room = task.roomId ? rooms.find((r) => r.id === task.roomId) : undefined;
  return (
    <div className="rounded-xl border border-zinc-200 bg-white px-4 py-3 shadow-xs" data-testid="timeline-scope" data-kind="task" data-status={task.status}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="rounded-md bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-indigo-200 ring-inset">Task</span>
        <h2 className="min-w-0 text-[15px] font-semibold break-words text-zinc-900" data-testid="timeline-title">
          {task.title}
        </h2>
        <span className="text-xs font-medium text-zinc-500" data-testid="timeline-task-status">
          {STATUS[task.status]}
        </span>
      </div>
      <p className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-zinc-500">
        <Avatar id={agent.id} name={agent.displayName} kind="agent" size={18} />
        <span className="font-medium text-zinc-800">{agent.displayName}</span>
        <span>@{agent.handle}</span>
        {room && (
          <>
            <span aria-hidden="true">·</span>
            <Link href={`/r/${room.id}`} className="text-indigo-700 hover:underline">
              {roomLabel(room)}
            </Link>
          </>
        )}
        <span aria-hidden="true">·</span>
        <span title={dateTime(task.createdAt)}>started {dateTime(task.startedAt ?? task.createdAt)}</span>
        {task.completedAt && <span title={dateTime(task.completedAt)}>· done {dateTime(task.completedAt)}</span>}
      </p>
    </div>
  );
}
