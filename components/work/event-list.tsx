"use client";
// A piece of work's events in time order, as the involvement page and the timelines show them: when,
// who, what kind, what, and where (a link to the room). People's interventions (their messages,
// answers and approvals) stand out; the files one report touched at one instant read as one entry.
import { Link } from "@/components/nav/workspace-routing";
import type { ReactNode } from "react";
import { Markdown } from "@/components/rooms/markdown";
import { Avatar } from "@/components/ui/avatar";
import {
  BanIcon,
  CheckCircleIcon,
  CheckIcon,
  HandIcon,
  HashIcon,
  ListIcon,
  LockIcon,
  MessageIcon,
  PencilIcon,
  TerminalIcon,
  TrashIcon,
  UsersIcon,
  XIcon,
} from "@/components/ui/icons";
import { dateTime } from "@/components/ui/time";
import type { FileOperation } from "@switchboard/sdk/work";
import type { RoomName, WorkEvent } from "./types";
import { BranchIcon, CommitIcon, EyeIcon, FilePlusIcon, PullRequestIcon } from "./work-icons";
import { pullRequestName } from "./work-hrefs";

type FileEvent = Extract<WorkEvent, { kind: "file" }>;
/** One entry: an event, or the files one agent reported at one instant. */
type Entry = { key: string; event: WorkEvent; files: FileEvent[] };

const FILE_OPS: Record<FileOperation, { label: string; icon: typeof EyeIcon }> = {
  read: { label: "Read", icon: EyeIcon },
  edit: { label: "Edited", icon: PencilIcon },
  create: { label: "Created", icon: FilePlusIcon },
  delete: { label: "Deleted", icon: TrashIcon },
  run: { label: "Ran", icon: TerminalIcon },
};

function group(events: WorkEvent[]): Entry[] {
  const out: Entry[] = [];
  for (const e of events) {
    const last = out.at(-1);
    if (e.kind === "file" && last?.event.kind === "file" && last.event.who.id === e.who.id && last.event.at === e.at) last.files.push(e);
    else out.push({ key: e.id, event: e, files: e.kind === "file" ? [e] : [] });
  }
  return out;
}

/** The kind as a label, an icon and a tone. */
function kindOf(e: WorkEvent, files: FileEvent[]): { label: string; icon: ReactNode; tone: string } {
  switch (e.kind) {
    case "message":
      return { label: "Message", icon: <MessageIcon size={14} />, tone: e.intervention ? "bg-sky-100 text-sky-700" : "bg-zinc-100 text-zinc-600" };
    case "question":
      return { label: "Asked", icon: <HandIcon size={14} />, tone: "bg-amber-100 text-amber-700" };
    case "answer":
      if (e.approved === true) return { label: "Approved", icon: <CheckCircleIcon size={14} />, tone: "bg-emerald-100 text-emerald-700" };
      if (e.approved === false) return { label: "Declined", icon: <BanIcon size={14} />, tone: "bg-rose-100 text-rose-700" };
      return { label: "Answered", icon: <CheckIcon size={14} />, tone: "bg-sky-100 text-sky-700" };
    case "task_created":
      return { label: "New task", icon: <ListIcon size={14} />, tone: "bg-indigo-100 text-indigo-700" };
    case "task_completed":
      return { label: "Completed", icon: <CheckIcon size={14} strokeWidth={2.5} />, tone: "bg-emerald-100 text-emerald-700" };
    case "task_dropped":
      return { label: "Dropped", icon: <XIcon size={14} />, tone: "bg-zinc-100 text-zinc-600" };
    case "file": {
      const ops = new Set(files.map((f) => f.file.operation));
      const op = ops.size === 1 ? [...ops][0] : "edit";
      const { label, icon: OpIcon } = FILE_OPS[op];
      return { label: ops.size === 1 ? label : "Touched", icon: <OpIcon size={14} />, tone: "bg-violet-100 text-violet-700" };
    }
    case "link": {
      const LinkKindIcon = e.link.kind === "pull_request" ? PullRequestIcon : e.link.kind === "branch" ? BranchIcon : CommitIcon;
      return {
        label: e.link.kind === "pull_request" ? "Pull request" : e.link.kind === "branch" ? "Branch" : "Commit",
        icon: <LinkKindIcon size={14} />,
        tone: "bg-zinc-800 text-white",
      };
    }
  }
}

const time = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { weekday: "short", month: "short", day: "numeric" });

export function EventList({
  events,
  rooms,
  showRoom = true,
  testId = "work-timeline",
}: {
  events: WorkEvent[];
  rooms: RoomName[];
  showRoom?: boolean;
  testId?: string;
}) {
  const byId = new Map(rooms.map((r) => [r.id, r]));
  const entries = group(events);
  return (
    <ol className="relative" aria-label="Timeline" data-testid={testId}>
      {entries.map((entry, i) => {
        const d = day(entry.event.at);
        const newDay = i === 0 || day(entries[i - 1].event.at) !== d;
        return (
          <li key={entry.key}>
            {newDay && (
              <div
                className="sticky top-0 z-10 flex items-center gap-2 bg-white/95 px-4 pt-3 pb-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase backdrop-blur-sm"
                data-testid="timeline-day"
              >
                {d}
                <span className="h-px flex-1 bg-zinc-100" aria-hidden="true" />
              </div>
            )}
            <EventRow entry={entry} room={entry.event.roomId ? byId.get(entry.event.roomId) : undefined} showRoom={showRoom} />
          </li>
        );
      })}
    </ol>
  );
}

function EventRow({ entry: { event: e, files }, room, showRoom }: { entry: Entry; room: RoomName | undefined; showRoom: boolean }) {
  const kind = kindOf(e, files);
  return (
    <div
      data-testid="timeline-event"
      data-kind={e.kind}
      data-intervention={e.intervention}
      data-handle={e.who.handle}
      className={`group/event flex items-start gap-3 border-l-2 px-4 py-2 text-sm ${e.intervention ? "border-l-sky-400 bg-sky-50/60" : "border-l-transparent"}`}
    >
      <time dateTime={e.at} title={dateTime(e.at)} className="w-16 shrink-0 pt-0.5 text-right text-xs text-zinc-500 tabular-nums">
        {time(e.at)}
      </time>
      <span className={`mt-px flex h-5 w-5 shrink-0 items-center justify-center rounded-full ${kind.tone}`} aria-hidden="true">
        {kind.icon}
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
          <Avatar id={e.who.id} name={e.who.displayName} kind={e.who.kind} size={18} />
          <span className="font-medium text-zinc-900" data-testid="event-who">
            {e.who.displayName}
          </span>
          <span className="text-xs font-medium text-zinc-500" data-testid="event-kind">
            {kind.label}
          </span>
          {e.intervention && (
            <span
              className="inline-flex items-center gap-0.5 rounded-full bg-sky-100 px-1.5 py-px text-[10px] font-semibold tracking-wide text-sky-800 uppercase"
              data-testid="event-intervention"
            >
              <UsersIcon size={10} /> Person
            </span>
          )}
          {showRoom && room && (
            <Link
              href={`/r/${room.id}`}
              className="ml-auto inline-flex max-w-[12rem] items-center gap-0.5 truncate rounded text-xs text-zinc-500 hover:text-indigo-700 hover:underline focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
              title={e.threadRootId ? `In a thread of ${roomLabel(room)}` : `In ${roomLabel(room)}`}
              data-testid="event-room"
            >
              {room.kind === "channel" ? <HashIcon size={11} className="shrink-0" /> : <LockIcon size={11} className="shrink-0" />}
              <span className="truncate">{room.title}</span>
              {e.threadRootId && <span className="shrink-0 text-zinc-300">· thread</span>}
            </Link>
          )}
        </div>
        <EventBody event={e} files={files} />
      </div>
    </div>
  );
}

function EventBody({ event: e, files }: { event: WorkEvent; files: FileEvent[] }) {
  if (e.kind === "file") {
    return (
      <ul className="mt-1 space-y-0.5" data-testid="event-files">
        {[...files]
          .sort((x, y) => x.file.path.localeCompare(y.file.path))
          .map((f) => {
            const { label, icon: OpIcon } = FILE_OPS[f.file.operation];
            return (
              <li key={f.id} className="flex items-center gap-2 text-xs" data-testid="timeline-file" data-path={f.file.path} data-op={f.file.operation}>
                <span className="shrink-0 text-zinc-500" title={label}>
                  <OpIcon size={12} />
                  <span className="sr-only">{label}</span>
                </span>
                <span className="min-w-0 truncate font-mono text-zinc-700" title={f.file.path}>
                  {f.file.path}
                </span>
                {(f.file.linesAdded !== null || f.file.linesRemoved !== null) && (
                  <span className="shrink-0 font-mono tabular-nums">
                    <span className="text-emerald-700">+{f.file.linesAdded ?? 0}</span> <span className="text-rose-700">−{f.file.linesRemoved ?? 0}</span>
                  </span>
                )}
              </li>
            );
          })}
      </ul>
    );
  }
  if (e.kind === "link") {
    const label =
      e.link.kind === "pull_request" ? (e.link.title ?? pullRequestName(e.link.value)) : e.link.kind === "commit" ? e.link.value.slice(0, 7) : e.link.value;
    return (
      <p className="mt-0.5 text-zinc-700" data-testid="event-text">
        {e.link.kind === "pull_request" ? (
          <a href={e.link.value} target="_blank" rel="noreferrer noopener" className="font-medium text-indigo-700 hover:underline">
            {label}
          </a>
        ) : (
          <span className="font-mono text-xs">{label}</span>
        )}
      </p>
    );
  }
  if (e.kind === "answer") {
    return (
      <p className="mt-0.5 text-zinc-700" data-testid="event-text">
        <span className="font-medium">{e.answer}</span>
        <span className="text-zinc-500"> · </span>
        <span className="text-zinc-500">{e.text}</span>
      </p>
    );
  }
  // Messages and questions are Markdown, as in their room.
  if (e.kind === "message" || e.kind === "question") {
    return (
      <div className="mt-0.5 line-clamp-4 min-w-0 break-words text-zinc-700" data-testid="event-text">
        <Markdown body={e.text} />
      </div>
    );
  }
  const struck = e.kind === "task_completed" || e.kind === "task_dropped";
  return (
    <p
      className={`mt-0.5 line-clamp-3 break-words whitespace-pre-line ${struck ? "text-zinc-500" : "text-zinc-700"} ${e.kind === "task_dropped" ? "line-through" : ""}`}
      data-testid="event-text"
    >
      {e.text}
    </p>
  );
}

export const roomLabel = (room: RoomName) => (room.kind === "channel" ? `#${room.title}` : room.title);
