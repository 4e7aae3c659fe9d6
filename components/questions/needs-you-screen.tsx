"use client";
// /needs-you: the open questions the viewer may answer, oldest first, each answerable in place with the
// same card as in the room. Questions answered here stay below as "Done" for the visit, so the answer
// is seen to land; the queue refetches live (useQuestionEvents, mounted with the sidebar).
import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/nav/workspace-routing";
import { useEffect, useMemo, useState } from "react";
import type { QuestionForViewer } from "@switchboard/sdk/questions";
import { PageFrame } from "@/components/nav/page-frame";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { HandIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { dateTime, relativeTime } from "@/components/ui/time";
import { QuestionCard } from "./question-card";
import { freshest, useQuestionOfMessage } from "./use-questions";

export function NeedsYouScreen() {
  const trpc = useTRPC();
  const queue = useQuery(trpc.questions.list.queryOptions({ for: "me", status: "open", limit: 200 }));
  const rooms = useQuery(trpc.rooms.mine.queryOptions());
  // Every question shown during this visit, so one answered here can stay on screen as done.
  const [seen, setSeen] = useState<QuestionForViewer[]>([]);
  useEffect(() => {
    if (!queue.data) return;
    setSeen((prev) => {
      const known = new Set(prev.map((q) => q.id));
      const added = queue.data.filter((q) => !known.has(q.id));
      return added.length ? [...prev, ...added] : prev;
    });
  }, [queue.data]);
  const openIds = useMemo(() => new Set((queue.data ?? []).map((q) => q.id)), [queue.data]);
  const done = seen.filter((q) => !openIds.has(q.id));
  const roomLabel = (q: QuestionForViewer) => {
    const room = rooms.data?.find((r) => r.id === q.roomId);
    return room && room.kind !== "channel" ? q.room.title : `#${q.room.title}`;
  };
  const count = queue.data?.length ?? 0;

  return (
    <PageFrame
      title="Needs you"
      icon={<HandIcon size={18} />}
      subtitle={
        queue.data
          ? count
            ? `${count} question${count === 1 ? "" : "s"} waiting for your answer`
            : "Questions agents and people ask you"
          : "Questions agents and people ask you"
      }
      testId="needs-you-page"
    >
      {queue.isPending ? (
        <SkeletonRows rows={3} />
      ) : queue.isError ? (
        <ErrorState error={queue.error} onRetry={() => void queue.refetch()} title="Couldn't load your questions" />
      ) : (
        <div className="space-y-4">
          {count === 0 && (
            <EmptyState
              icon={<HandIcon size={22} />}
              title="Nothing needs you right now"
              body="When an agent (or a person) asks you a question, an approval or a form to fill in, it shows up here and in the sidebar. Answer it here or in its room."
              testId="needs-you-empty"
            />
          )}
          <ul className="space-y-4" data-testid="needs-you-list" aria-label="Questions waiting for you">
            {(queue.data ?? []).map((q) => (
              <QueueItem key={q.id} item={q} roomLabel={roomLabel(q)} />
            ))}
          </ul>
          {done.length > 0 && (
            <section aria-label="Answered during this visit">
              <h2 className="mb-2 pt-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Done</h2>
              <ul className="space-y-4 opacity-80" data-testid="needs-you-done">
                {done.map((q) => (
                  <QueueItem key={q.id} item={q} roomLabel={roomLabel(q)} decidedOnly />
                ))}
              </ul>
            </section>
          )}
        </div>
      )}
    </PageFrame>
  );
}

/** One question of the queue, read through its message's query (so an answer shows at once). */
function QueueItem({ item, roomLabel, decidedOnly = false }: { item: QuestionForViewer; roomLabel: string; decidedOnly?: boolean }) {
  const { me } = useViewer();
  const query = useQuestionOfMessage(item.messageId, item);
  const q = freshest(query.data, item) ?? item;
  if (decidedOnly && q.status === "open") return null;
  const header = (
    <div className="flex items-center gap-2.5 border-b border-zinc-100 px-4 py-2.5">
      <Avatar id={q.asker.id} name={q.asker.displayName} kind={q.asker.kind} size={28} />
      <div className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-1.5 text-sm">
        <span className="min-w-0 truncate font-semibold text-zinc-900">{q.asker.displayName}</span>
        <KindBadge kind={q.asker.kind} />
        <span className="text-zinc-500">asked in</span>
        <Link href={`/r/${q.roomId}`} className="font-medium text-indigo-600 hover:underline" data-testid="question-room-link">
          {roomLabel}
        </Link>
        <time className="text-xs text-zinc-500" dateTime={q.createdAt} title={dateTime(q.createdAt)}>
          · {relativeTime(q.createdAt)}
        </time>
      </div>
    </div>
  );
  return (
    <li data-testid="needs-you-item" data-question-id={q.id}>
      <QuestionCard question={q} can={(query.data ?? item).can} meId={me.id} meHandle={me.handle} header={header} />
    </li>
  );
}
