"use client";
// One agent on the Work page: who it is (framework, owner), its status line (state, words, since
// when, whom it waits for), its tasks with progress, the files and components it touched, what its work
// shipped (branch, commit, pull request) and when it last did anything.
import { Link } from "@/components/nav/workspace-routing";
import { frameworkLabel } from "@/components/agents/labels";
import { Avatar } from "@/components/ui/avatar";
import { ClockIcon, HashIcon, UsersIcon } from "@/components/ui/icons";
import { Pill } from "@/components/ui/pill";
import { dateTime, relativeTime } from "@/components/ui/time";
import type { WorkLinkView } from "@switchboard/sdk/work";
import { FileList } from "./file-list";
import { Progress, TaskList } from "./task-list";
import type { AgentWork, RoomName } from "./types";
import { involvementHref, pullRequestName, timelineHref } from "./work-hrefs";
import { BranchIcon, CommitIcon, PullRequestIcon } from "./work-icons";
import { shownStatus, WorkStateChip } from "./work-state";
import { useSocket } from "@/components/providers/socket-provider";
import { LifecycleBadge, PresenceBadge } from "@/components/ui/participant-states";

const SMALL_LINK =
  "inline-flex items-center gap-1 rounded font-medium text-xs text-indigo-700 hover:underline focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none";

const RING = { working: "border-l-emerald-500", waiting: "border-l-amber-500", blocked: "border-l-rose-500", idle: "border-l-zinc-200" } as const;

export function AgentCard({ work, now, rooms }: { work: AgentWork; now: number; rooms: Map<string, RoomName> }) {
  const { agent, status: reportedStatus } = work;
  const { presence } = useSocket();
  const online = presence.get(agent.id) ?? agent.online;
  // Offline, its state is history: the card reads idle, as the directory reads offline.
  const { status, last } = shownStatus(reportedStatus, online, now);
  const reported = work.tasks.length > 0 || work.files.length > 0 || work.links.length > 0;
  return (
    <article
      tabIndex={0}
      aria-labelledby={`agent-${agent.id}`}
      data-testid="agent-work"
      data-handle={agent.handle}
      data-state={status.state}
      className={`rounded-xl border border-l-4 border-zinc-200 bg-white p-4 shadow-xs focus:ring-2 focus:ring-indigo-500 focus:outline-none ${RING[status.state]}`}
    >
      <header className="flex items-start gap-3">
        <Avatar id={agent.id} name={agent.displayName} kind="agent" size={36} online={online} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2">
            <h3 id={`agent-${agent.id}`} className="truncate text-[15px] font-semibold text-zinc-900">
              {agent.displayName}
            </h3>
            <span className="min-w-0 text-sm break-all text-zinc-500">@{agent.handle}</span>
            <PresenceBadge online={online} />
            <LifecycleBadge lifecycle={agent.status === "suspended" ? "suspended" : "active"} quiet />
            {work.pausedIn.flatMap((id) => {
              const room = rooms.get(id);
              return room
                ? [
                    <Link key={id} href={`/r/${id}`} data-testid="paused-in" title="Paused in this room: its messages wait until someone resumes it">
                      <Pill tone="amber" dot>
                        Paused in {room.kind === "channel" ? "#" : ""}
                        {room.title}
                      </Pill>
                    </Link>,
                  ]
                : [];
            })}
          </div>
          <p className="text-xs text-zinc-500">
            {frameworkLabel(agent.framework)} · {agent.owner ? `owned by ${agent.owner.displayName}` : "no owner"}
          </p>
        </div>
        <span className="shrink-0 text-xs text-zinc-500" title={dateTime(work.lastActivityAt)} data-testid="last-activity">
          {work.lastActivityAt ? `active ${relativeTime(work.lastActivityAt, now)}` : "no activity"}
        </span>
      </header>

      <div className="mt-3 flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="status-line">
        <WorkStateChip status={reportedStatus} online={online} />
        {last?.text && (
          <span className="min-w-0 text-sm break-words text-zinc-500" data-testid="status-history">
            Last reported: {last.text}
          </span>
        )}
        {status.text && (
          <span className="min-w-0 text-sm break-words text-zinc-700" data-testid="status-text">
            {status.text}
          </span>
        )}
        {status.since && status.state !== "idle" && (
          <span className="text-xs text-zinc-500" title={dateTime(status.since)}>
            since {relativeTime(status.since, now)}
          </span>
        )}
      </div>

      {work.tasks.length > 0 && (
        <section className="mt-4" aria-label="Tasks">
          <h4 className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Tasks</h4>
          <Progress completed={work.progress.completed} total={work.progress.total} />
          <div className="mt-2">
            <TaskList tasks={work.tasks} withLinks />
          </div>
        </section>
      )}

      {work.files.length > 0 && (
        <section className="mt-4" aria-label="Files touched">
          <h4 className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Files</h4>
          <FileList files={work.files} />
        </section>
      )}

      {work.components.length > 0 && (
        <div className="mt-3 flex flex-wrap items-center gap-1.5">
          {work.components.map((c) => (
            <span
              key={c.name}
              data-testid="agent-component"
              title={`${c.touches} touch${c.touches === 1 ? "" : "es"}, last ${relativeTime(c.lastAt, now)}`}
              className="rounded-md bg-violet-50 px-1.5 py-0.5 text-xs font-medium text-violet-700 ring-1 ring-violet-200 ring-inset"
            >
              {c.name}
            </span>
          ))}
        </div>
      )}

      {work.links.length > 0 && (
        <ul className="mt-2 space-y-1" aria-label="What it shipped">
          {work.links.map((l) => (
            <li key={l.id} className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
              <WorkLink link={l} />
              {l.kind !== "commit" && (
                <Link href={involvementHref({ kind: l.kind, value: l.value })} className={SMALL_LINK} data-testid="who-drove" data-kind={l.kind}>
                  <UsersIcon size={12} />
                  Who drove this?
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}

      {work.roomIds.some((id) => rooms.has(id)) && (
        <div className="mt-3 flex flex-wrap items-center gap-x-2 gap-y-1 border-t border-zinc-100 pt-2.5 text-xs text-zinc-500">
          <span className="inline-flex items-center gap-1">
            <ClockIcon size={12} /> Timeline of
          </span>
          {work.roomIds.flatMap((id) => {
            const room = rooms.get(id);
            return room
              ? [
                  <Link key={id} href={timelineHref({ roomId: id })} className={SMALL_LINK} data-testid="room-timeline-link" data-room={id}>
                    {room.kind === "channel" && <HashIcon size={11} />}
                    {room.title}
                  </Link>,
                ]
              : [];
          })}
        </div>
      )}

      {!reported && <p className="mt-3 text-xs text-zinc-500">No tasks or files reported in this window.</p>}
    </article>
  );
}

function WorkLink({ link }: { link: WorkLinkView }) {
  const cls =
    "inline-flex max-w-[16rem] items-center gap-1 rounded-md bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700 ring-1 ring-zinc-200 ring-inset";
  if (link.kind === "pull_request") {
    return (
      <a
        href={link.value}
        target="_blank"
        rel="noreferrer noopener"
        data-testid="work-link"
        data-kind={link.kind}
        title={link.title ?? link.value}
        className={`${cls} text-indigo-700 hover:underline`}
      >
        <PullRequestIcon size={12} className="shrink-0" />
        <span className="truncate">{link.title ?? pullRequestName(link.value)}</span>
      </a>
    );
  }
  const Icon = link.kind === "branch" ? BranchIcon : CommitIcon;
  return (
    <span data-testid="work-link" data-kind={link.kind} title={link.title ?? link.value} className={cls}>
      <Icon size={12} className="shrink-0" />
      <span className="truncate">{link.kind === "commit" ? link.value.slice(0, 7) : link.value}</span>
    </span>
  );
}
