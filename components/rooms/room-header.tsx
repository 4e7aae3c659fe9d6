"use client";
// Title (#name, or the other people's names), topic, the agent sessions bound here, the room's work
// timeline, member count (toggles the members panel), leave.
import { ActivityMenu } from "@/components/turns/turn-block";
import { useState } from "react";
import type { RoomMemberView, RoomView } from "@switchboard/sdk/contract";
import { RoomBindings } from "@/components/bindings/room-bindings";
import { useSocket } from "@/components/providers/socket-provider";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DoorIcon, HashIcon, LockIcon, MenuIcon, SettingsIcon, SharedIcon, UsersIcon } from "@/components/ui/icons";
import { useSharedLabel } from "@/components/workspace/workspace-marks";
import { Pill } from "@/components/ui/pill";
import { StatusEmoji } from "@/components/profile/status-emoji";
import { ChannelSettingsDialog } from "./channel-settings-dialog";
import { timelineHref } from "@/components/work/work-hrefs";
import { LayersIcon } from "@/components/work/work-icons";
import { useOpenNav } from "./app-shell";
import { Link } from "@/components/nav/workspace-routing";

export function RoomHeader({
  room,
  peer,
  membersOpen,
  onToggleMembers,
  onLeave,
  leaving,
  onOpenThread,
  canUpdate = false,
  pins,
}: {
  /** The pinned messages' button (pinned-menu.tsx). */
  pins?: React.ReactNode;
  room: RoomView;
  /** The viewer may change the channel's settings (`can.update`): a settings button opens them. */
  canUpdate?: boolean;
  /** The other participant of a direct message. */
  peer: RoomMemberView | null;
  membersOpen: boolean;
  onToggleMembers: () => void;
  onLeave?: () => void;
  leaving: boolean;
  /** Opens a thread (from a thread's session in the sessions panel). */
  onOpenThread?: (rootId: string) => void;
}) {
  const [confirmLeave, setConfirmLeave] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const { presence } = useSocket();
  const openNav = useOpenNav();
  const sharedLabel = useSharedLabel(room.shared);
  const channel = room.kind === "channel";
  const isPrivate = room.visibility === "private";
  return (
    <header className="flex h-14 shrink-0 items-center gap-3 border-b border-zinc-200 bg-white px-5" data-testid="room-header">
      <button type="button" onClick={openNav} aria-label="Open navigation" className="-ml-2 rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 md:hidden">
        <MenuIcon size={20} />
      </button>
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <h1 className="flex min-w-0 max-w-[70%] shrink-0 items-center gap-1.5 text-[17px] font-bold text-zinc-900" data-testid="room-title">
          {channel &&
            (isPrivate ? (
              <LockIcon size={17} className="shrink-0 text-zinc-500" data-testid="room-private" aria-label="Private channel" />
            ) : (
              <HashIcon size={17} className="shrink-0 text-zinc-500" aria-label="Channel" />
            ))}
          {peer && (
            <Avatar
              id={peer.participant.id}
              name={peer.participant.displayName}
              kind={peer.participant.kind}
              size={24}
              online={presence.get(peer.participant.id) ?? peer.online}
              src={peer.participant.avatarUrl}
            />
          )}
          <span className="truncate">{room.title}</span>
          {peer && <KindBadge kind={peer.participant.kind} />}
          {peer && <StatusEmoji status={peer.participant} className="text-base" />}
          {sharedLabel && (
            <Pill tone="violet" testId="room-shared" title={sharedLabel}>
              <SharedIcon size={12} className="mr-1 inline align-[-2px]" />
              {sharedLabel}
            </Pill>
          )}
          {room.archivedAt && (
            <Pill tone="amber" testId="room-archived">
              Archived
            </Pill>
          )}
        </h1>
        {peer && (
          <span className="truncate text-sm text-zinc-500 max-md:hidden">
            @{peer.participant.handle}
            {peer.participant.kind === "agent" && peer.participant.description ? ` · ${peer.participant.description}` : ""}
          </span>
        )}
        {room.topic && (
          <>
            <span className="h-4 w-px shrink-0 bg-zinc-200 max-md:hidden" />
            <p className="min-w-0 truncate text-sm text-zinc-500 max-md:hidden" title={room.topic} data-testid="room-topic">
              {room.topic}
            </p>
          </>
        )}
      </div>
      <div className="flex max-w-[55%] min-w-0 items-center max-sm:hidden">
        <RoomBindings roomId={room.id} onOpenThread={onOpenThread} />
      </div>
      <div className="flex shrink-0 items-center gap-1">
        {pins}
        <ActivityMenu />
        <Link
          href={timelineHref({ roomId: room.id })}
          data-testid="room-work-link"
          title="The work done here: tasks, files and people's interventions"
          className="inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
        >
          <LayersIcon size={15} />
          <span className="max-sm:hidden">Work</span>
        </Link>
        <button
          type="button"
          onClick={onToggleMembers}
          aria-pressed={membersOpen}
          data-testid="toggle-members"
          title="Members"
          className={`inline-flex h-8 items-center gap-1.5 rounded-md border px-2.5 text-sm font-medium ${
            membersOpen ? "border-indigo-200 bg-indigo-50 text-indigo-700" : "border-zinc-200 text-zinc-700 hover:bg-zinc-50"
          }`}
        >
          <UsersIcon size={15} />
          <span data-testid="member-count">{room.memberCount}</span>
        </button>
        {channel && canUpdate && (
          <button
            type="button"
            onClick={() => setSettingsOpen(true)}
            data-testid="channel-settings"
            title="Channel settings: name, topic, sharing, archive"
            aria-label="Channel settings"
            className="inline-flex h-8 items-center rounded-md px-2 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
          >
            <SettingsIcon size={16} />
          </button>
        )}
        {onLeave && (
          <button
            type="button"
            onClick={() => setConfirmLeave(true)}
            data-testid="leave-room"
            title={channel ? "Leave channel" : "Leave conversation"}
            className="inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
          >
            <DoorIcon size={15} />
            <span className="max-sm:hidden">Leave</span>
          </button>
        )}
      </div>
      {channel && canUpdate && <ChannelSettingsDialog room={room} open={settingsOpen} onClose={() => setSettingsOpen(false)} />}
      <ConfirmDialog
        open={confirmLeave}
        onClose={() => setConfirmLeave(false)}
        title={channel ? `Leave #${room.title}?` : "Leave this conversation?"}
        description={isPrivate ? "It's private: you'll need someone to add you back." : "You can join again at any time from Browse channels."}
        confirm={{ label: "Leave", variant: "danger", busy: leaving, onConfirm: () => onLeave?.(), testId: "confirm-leave" }}
      >
        <p>You will stop receiving its messages.</p>
      </ConfirmDialog>
    </header>
  );
}
