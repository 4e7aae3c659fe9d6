"use client";
// The left rail: workspace, channels, direct messages, with unread counts and @mention badges that
// move live with socket events (message:new bumps, room:added / room:removed refetch).
import { useQuery } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { countsAsUnread, type MessageView, type RoomView } from "@switchboard/sdk/contract";
import type { WorkStatusView } from "@switchboard/sdk/work";
import { useDirectory, type DirectoryEntry } from "@/components/providers/directory";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Avatar } from "@/components/ui/avatar";
import { documentTitle } from "@/components/ui/document-title";
import {
  ChevronDownIcon,
  CompassIcon,
  HashIcon,
  KeyIcon,
  KeyboardIcon,
  LockIcon,
  LogOutIcon,
  PlusIcon,
  SearchIcon,
  SettingsIcon,
  UserPlusIcon,
  UsersIcon,
} from "@/components/ui/icons";
import { BrowseChannelsDialog } from "./browse-channels-dialog";
import { CreateChannelDialog } from "./create-channel-dialog";
import { InviteDialog } from "./invite-dialog";
import { CreateWorkspaceDialog } from "@/components/workspace/create-workspace-dialog";
import { NewDirectDialog } from "./new-direct-dialog";
import { QuickSwitcher } from "./quick-switcher";
import { useSidebarCache, useSidebarReconciler } from "./sidebar-cache";
import { useUnreadMarks } from "./unread-marks";
import { useLiveParticipants } from "@/components/profile/live-participants";
import { ProfileCardHost } from "@/components/profile/profile-card";
import { StatusEmoji, type ProfileStatus } from "@/components/profile/status-emoji";
import { WorkspaceNav } from "@/components/nav/workspace-nav";
import { keyLabel, useIsMac } from "@/components/keyboard/keys";
import { ShortcutsSheet } from "@/components/keyboard/shortcuts-sheet";
import { useWorkspaceShortcuts } from "@/components/keyboard/use-workspace-shortcuts";
import { useWorkStatuses } from "@/components/work/use-work-statuses";
import { WorkStateDot } from "@/components/work/work-state";
import { Link, usePathname } from "@/components/nav/workspace-routing";
import { SharedMark } from "@/components/workspace/workspace-marks";
import { changesSharing } from "./format";

type SidebarRoom = RoomView & { unread: number; mentions: number; readSeq: number };
type DialogName = "browse" | "create" | "direct" | "invite" | "switcher" | "shortcuts" | "workspace" | null;

export function Sidebar() {
  const trpc = useTRPC();
  const { me, workspace, can } = useViewer();
  const { readyEpoch, status, presence } = useSocket();
  const { participants } = useDirectory();
  const statuses = useWorkStatuses();
  const pathname = usePathname();
  const activeRoomId = pathname.startsWith("/r/") ? pathname.slice(3).split("/")[0] : null;
  const rooms = useQuery(trpc.rooms.mine.queryOptions());
  // Whether this deployment lets anyone create a workspace (WORKSPACE_SIGNUP=open).
  const mayCreateWorkspace = useQuery(trpc.workspace.signUpOptions.queryOptions()).data?.mayCreate ?? false;
  const cache = useSidebarCache();
  useSidebarReconciler();
  useUnreadMarks();
  const [dialog, setDialog] = useState<DialogName>(null);
  const mac = useIsMac();

  useSocketEvent("room:added", () => void cache.refetch());
  useSocketEvent("room:removed", () => void cache.refetch());
  useSocketEvent("room:updated", () => void cache.refetch()); // renamed, archived (it leaves the list) or back
  useLiveParticipants();
  useSocketEvent("room:members", (p) => {
    const room = rooms.data?.find((r) => r.id === p.roomId);
    if (room && room.kind !== "channel") void cache.refetch(); // a group's title is its members
  });
  const onNewMessage = (roomId: string, message: MessageView) => {
    if (!cache.has(roomId)) return void cache.refetch();
    if (changesSharing(message)) void cache.refetch(); // "Shared with …" / "From …" beside its name
    const viewing = roomId === activeRoomId && document.visibilityState === "visible";
    if (viewing || message.author.id === me.id) return;
    cache.bump(roomId, message.seq, {
      unread: countsAsUnread(message, me.id),
      mention: message.mentions.includes(me.id),
    });
  };
  useSocketEvent("message:new", ({ roomId, message }) => onNewMessage(roomId, message));
  useSocketEvent("message:batch", ({ roomId, messages }) => {
    for (const message of messages) onNewMessage(roomId, message);
  });
  // A deleted message no longer counts (nor do its mentions): the server recounts the room.
  useSocketEvent("message:updated", ({ roomId, message }) => {
    if (message.deletedAt && cache.isUnread(roomId, message.seq)) void cache.refetch();
  });
  // Counts may have moved while the socket was away.
  const firstReady = useRef(true);
  useEffect(() => {
    if (readyEpoch === 0) return;
    if (firstReady.current) {
      firstReady.current = false;
      return;
    }
    void cache.refetch();
  }, [readyEpoch, cache]);

  const { channels, directs, totalUnread } = useMemo(() => {
    const list = (rooms.data ?? []) as SidebarRoom[];
    return {
      channels: list.filter((r) => r.kind === "channel").sort((a, b) => a.title.localeCompare(b.title, undefined, { numeric: true })),
      directs: list.filter((r) => r.kind !== "channel").sort((a, b) => b.lastSeq - a.lastSeq || a.title.localeCompare(b.title)),
      totalUnread: list.reduce((n, r) => n + (r.id === activeRoomId ? 0 : r.unread), 0),
    };
  }, [rooms.data, activeRoomId]);

  useEffect(() => documentTitle.setUnread(totalUnread), [totalUnread]);

  const ordered = useMemo(() => [...channels, ...directs], [channels, directs]);
  useWorkspaceShortcuts({
    rooms: ordered.map((r) => (r.id === activeRoomId ? { ...r, unread: 0, mentions: 0 } : r)),
    activeRoomId,
    onToggleSwitcher: () => setDialog((d) => (d === "switcher" ? null : "switcher")),
    onShortcuts: () => setDialog("shortcuts"),
  });

  return (
    <nav className="flex h-full w-64 shrink-0 flex-col bg-zinc-900 text-zinc-300" aria-label="Workspace" data-testid="sidebar">
      <div className="flex h-14 shrink-0 items-center gap-2 border-b border-white/10 px-3">
        <WorkspaceMenu
          name={workspace.name}
          onInvite={can.invite ? () => setDialog("invite") : undefined}
          onCreate={can.createChannel ? () => setDialog("create") : undefined}
          onBrowse={can.browseChannels ? () => setDialog("browse") : undefined}
          onCreateWorkspace={mayCreateWorkspace ? () => setDialog("workspace") : undefined}
        />
        <span
          className={`ml-auto h-2 w-2 shrink-0 rounded-full ${status === "connected" ? "bg-emerald-400" : "animate-pulse bg-amber-400"}`}
          title={status === "connected" ? "Connected" : "Connecting…"}
          data-testid="connection-status"
          data-status={status}
        />
      </div>

      <div className="px-3 pt-3">
        <button
          type="button"
          onClick={() => setDialog("switcher")}
          className="flex h-8 w-full items-center gap-2 rounded-md bg-white/5 px-2.5 text-sm text-zinc-400 ring-1 ring-white/10 ring-inset hover:bg-white/10 hover:text-zinc-200"
          data-testid="open-switcher"
        >
          <SearchIcon size={14} />
          <span className="flex-1 text-left">Jump to…</span>
          <kbd className="rounded bg-white/10 px-1.5 py-px font-sans text-[10px] text-zinc-300">{keyLabel("Mod", mac)} K</kbd>
        </button>
      </div>

      <div className="scroll-dark min-h-0 flex-1 overflow-y-auto px-2 pt-3 pb-4">
        <WorkspaceNav />
        <Section title="Channels" onAdd={can.createChannel ? () => setDialog("create") : undefined} addLabel="Create a channel" addTestId="create-channel">
          {rooms.isPending && <SidebarSkeleton />}
          {channels.map((r) => (
            <RoomLink key={r.id} room={r} active={r.id === activeRoomId} />
          ))}
          {can.browseChannels && (
            <SidebarAction onClick={() => setDialog("browse")} testId="browse-channels" icon={<CompassIcon size={15} />}>
              Browse channels
            </SidebarAction>
          )}
        </Section>

        <Section title="Direct messages" onAdd={() => setDialog("direct")} addLabel="New message" addTestId="new-direct">
          {directs.map((r) => {
            // RoomView has no member ids; a dm's title is the other participant's name.
            const peer = r.kind === "dm" ? participants.find((p) => p.id !== me.id && p.displayName === r.title) : undefined;
            return (
              <RoomLink
                key={r.id}
                room={r}
                active={r.id === activeRoomId}
                peer={peer}
                online={peer ? (presence.get(peer.id) ?? peer.online) : undefined}
                work={peer ? statuses.get(peer.id) : undefined}
              />
            );
          })}
          <SidebarAction onClick={() => setDialog("direct")} testId="new-direct-inline" icon={<PlusIcon size={15} />}>
            New message
          </SidebarAction>
        </Section>

        {can.invite && (
          <div className="mt-4 px-1">
            <button
              type="button"
              onClick={() => setDialog("invite")}
              data-testid="invite-people"
              className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-sm text-zinc-400 hover:bg-white/5 hover:text-zinc-100"
            >
              <UserPlusIcon size={15} /> Invite people
            </button>
          </div>
        )}
      </div>

      <UserFooter me={me} online={status === "connected"} work={statuses.get(me.id)} onShortcuts={() => setDialog("shortcuts")} />

      <BrowseChannelsDialog open={dialog === "browse"} onClose={() => setDialog(null)} />
      <CreateChannelDialog open={dialog === "create"} onClose={() => setDialog(null)} />
      <NewDirectDialog open={dialog === "direct"} onClose={() => setDialog(null)} />
      <InviteDialog open={dialog === "invite"} onClose={() => setDialog(null)} />
      <CreateWorkspaceDialog open={dialog === "workspace"} onClose={() => setDialog(null)} />
      <QuickSwitcher open={dialog === "switcher"} onClose={() => setDialog(null)} rooms={ordered} />
      <ShortcutsSheet open={dialog === "shortcuts"} onClose={() => setDialog(null)} />
      <ProfileCardHost />
    </nav>
  );
}

function Section({
  title,
  onAdd,
  addLabel,
  addTestId,
  children,
}: {
  title: string;
  /** Absent: the viewer may not add here, so no button. */
  onAdd?: () => void;
  addLabel: string;
  addTestId: string;
  children: ReactNode;
}) {
  return (
    <section className="mb-4" aria-label={title}>
      <div className="group flex h-7 items-center justify-between px-2">
        <h2 className="text-xs font-semibold tracking-wide text-zinc-400 uppercase">{title}</h2>
        {onAdd && (
          <button
            type="button"
            onClick={onAdd}
            title={addLabel}
            aria-label={addLabel}
            data-testid={addTestId}
            className="rounded p-0.5 text-zinc-500 hover:bg-white/10 hover:text-zinc-100"
          >
            <PlusIcon size={15} />
          </button>
        )}
      </div>
      <ul className="space-y-px">{children}</ul>
    </section>
  );
}

function RoomLink({
  room,
  active,
  peer,
  online,
  work,
}: {
  room: SidebarRoom;
  active: boolean;
  peer?: DirectoryEntry;
  online?: boolean;
  work?: WorkStatusView;
}) {
  // The open room counts nothing, unless the viewer marked it unread ("mark unread from here").
  const shown = !active || (room as { markedUnread?: boolean }).markedUnread === true;
  const unread = shown ? room.unread : 0;
  const mentions = shown ? room.mentions : 0;
  const bold = unread > 0 || mentions > 0;
  const icon =
    room.kind === "channel" ? (
      room.visibility === "private" ? (
        <LockIcon size={15} className="shrink-0 opacity-70" />
      ) : (
        <HashIcon size={15} className="shrink-0 opacity-70" />
      )
    ) : room.kind === "group" ? (
      <UsersIcon size={15} className="shrink-0 opacity-70" />
    ) : (
      <Avatar
        id={peer?.id ?? room.id}
        name={room.title}
        kind={peer?.kind ?? "human"}
        size={18}
        online={online}
        ring={active ? "ring-indigo-600" : "ring-zinc-900"}
        src={peer?.avatarUrl}
      />
    );
  return (
    <li>
      <Link
        href={`/r/${room.id}`}
        data-testid="sidebar-room"
        data-room-id={room.id}
        data-title={room.title}
        data-unread={unread}
        aria-current={active ? "page" : undefined}
        className={`flex h-8 items-center gap-2 rounded-md px-2 text-[15px] ${
          active
            ? "bg-indigo-600 font-medium text-white"
            : bold
              ? "font-semibold text-white hover:bg-white/5"
              : "text-zinc-400 hover:bg-white/5 hover:text-zinc-100"
        }`}
      >
        {icon}
        <span className="min-w-0 flex-1 truncate">{room.title}</span>
        <SharedMark shared={room.shared} className="opacity-70" />
        {peer && <StatusEmoji status={peer} />}
        <WorkStateDot status={work} online={peer?.kind === "agent" ? online : undefined} />
        {mentions > 0 && (
          <span
            data-testid="mention-badge"
            className="inline-flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-rose-700 px-1.5 text-[11px] font-bold text-white"
            title={`${mentions} mention${mentions === 1 ? "" : "s"}`}
          >
            @{mentions}
          </span>
        )}
        {unread > 0 && (
          <span
            data-testid="unread-count"
            className="inline-flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-zinc-700 px-1.5 text-[11px] font-semibold text-zinc-100"
            title={`${unread} unread`}
          >
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </Link>
    </li>
  );
}

function SidebarAction({ onClick, children, icon, testId }: { onClick: () => void; children: ReactNode; icon: ReactNode; testId: string }) {
  return (
    <li>
      <button
        type="button"
        onClick={onClick}
        data-testid={testId}
        className="flex h-8 w-full items-center gap-2 rounded-md px-2 text-[15px] text-zinc-400 hover:bg-white/5 hover:text-zinc-200"
      >
        {icon}
        {children}
      </button>
    </li>
  );
}

function SidebarSkeleton() {
  return (
    <>
      {[60, 80, 50].map((w) => (
        <li key={w} className="flex h-8 items-center gap-2 px-2">
          <span className="h-3 w-3 animate-pulse rounded bg-white/10" />
          <span className="h-3 animate-pulse rounded bg-white/10" style={{ width: `${w}%` }} />
        </li>
      ))}
    </>
  );
}

/** A menu's items go with it: focus goes back to the button that opened it (and from there to a dialog and back). */
const focusMenuButton = (menu: HTMLElement | null) => menu?.querySelector<HTMLElement>("[aria-haspopup=menu]")?.focus();

/** A menu closes on a click outside it and on Escape, which gives focus back to its button. */
function useDismiss(open: boolean, close: () => void) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      close();
      focusMenuButton(ref.current);
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open, close]);
  return ref;
}

/** The workspace's menu; an action the viewer may not take is absent. */
function WorkspaceMenu({
  name,
  onInvite,
  onCreate,
  onBrowse,
  onCreateWorkspace,
}: {
  name: string;
  onInvite?: () => void;
  onCreate?: () => void;
  onBrowse?: () => void;
  onCreateWorkspace?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const ref = useDismiss(open, () => setOpen(false));
  const pick = (fn: () => void) => () => {
    setOpen(false);
    focusMenuButton(ref.current);
    fn();
  };
  return (
    <div className="relative min-w-0" ref={ref}>
      <button
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        aria-haspopup="menu"
        data-testid="workspace-menu"
        className="flex min-w-0 items-center gap-2 rounded-md px-1.5 py-1 text-left hover:bg-white/5"
      >
        <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-lg bg-indigo-500 text-sm font-bold text-white">
          {name.trim().charAt(0).toUpperCase() || "S"}
        </span>
        <span className="truncate text-[15px] font-bold text-white" data-testid="workspace-name">
          {name}
        </span>
        <ChevronDownIcon size={14} className="shrink-0 text-zinc-400" />
      </button>
      {open && (
        <div
          role="menu"
          className="animate-pop absolute top-full left-0 z-30 mt-1 w-56 rounded-lg bg-white py-1 text-sm text-zinc-800 shadow-xl ring-1 ring-zinc-900/10"
        >
          {onInvite && (
            <MenuItem onClick={pick(onInvite)} icon={<UserPlusIcon size={15} />}>
              Invite people
            </MenuItem>
          )}
          {onCreate && (
            <MenuItem onClick={pick(onCreate)} icon={<PlusIcon size={15} />}>
              Create a channel
            </MenuItem>
          )}
          {onBrowse && (
            <MenuItem onClick={pick(onBrowse)} icon={<CompassIcon size={15} />}>
              Browse channels
            </MenuItem>
          )}
          {onCreateWorkspace && (
            <>
              <div className="my-1 border-t border-zinc-100" role="separator" />
              <MenuItem onClick={pick(onCreateWorkspace)} icon={<PlusIcon size={15} />} testId="menu-create-workspace">
                Create a workspace
              </MenuItem>
            </>
          )}
        </div>
      )}
    </div>
  );
}

const menuItemClass =
  "flex w-full items-center gap-2.5 px-3 py-1.5 text-left hover:bg-indigo-600 hover:text-white focus-visible:bg-indigo-600 focus-visible:text-white focus-visible:outline-none";

function MenuItem({ onClick, icon, children, testId }: { onClick: () => void; icon: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <button type="button" role="menuitem" onClick={onClick} data-testid={testId} className={menuItemClass}>
      <span className="opacity-70">{icon}</span>
      {children}
    </button>
  );
}

/** A menu entry that opens a page (a real link: it opens in a new tab too). */
function MenuLink({ href, onClick, icon, children, testId }: { href: string; onClick: () => void; icon: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Link href={href} role="menuitem" onClick={onClick} data-testid={testId} className={menuItemClass}>
      <span className="opacity-70">{icon}</span>
      {children}
    </Link>
  );
}

function UserFooter({
  me,
  online,
  work,
  onShortcuts,
}: {
  me: { id: string; displayName: string; handle: string; kind: "human" | "agent"; avatarUrl: string | null } & ProfileStatus;
  online: boolean;
  work?: WorkStatusView;
  onShortcuts: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const ref = useDismiss(open, () => setOpen(false));
  return (
    <div className="relative shrink-0 border-t border-white/10 p-2" ref={ref}>
      {open && (
        <div
          role="menu"
          className="animate-pop absolute right-2 bottom-full left-2 z-30 mb-1 rounded-lg bg-white py-1 text-sm text-zinc-800 shadow-xl ring-1 ring-zinc-900/10"
        >
          <div className="border-b border-zinc-100 px-3 pt-1 pb-2">
            <div className="font-semibold text-zinc-900">{me.displayName}</div>
            <div className="text-xs text-zinc-500">@{me.handle}</div>
          </div>
          <MenuLink href="/settings" onClick={() => setOpen(false)} icon={<SettingsIcon size={15} />} testId="nav-settings">
            Settings
          </MenuLink>
          <MenuLink href="/settings/tokens" onClick={() => setOpen(false)} icon={<KeyIcon size={15} />} testId="nav-access-tokens">
            Access tokens
          </MenuLink>
          <MenuItem
            testId="nav-shortcuts"
            icon={<KeyboardIcon size={15} />}
            onClick={() => {
              setOpen(false);
              focusMenuButton(ref.current);
              onShortcuts();
            }}
          >
            <span className="flex-1">Keyboard shortcuts</span>
            <kbd className="rounded bg-zinc-100 px-1.5 font-sans text-[11px] text-zinc-600">?</kbd>
          </MenuItem>
          <MenuItem
            testId="sign-out"
            icon={<LogOutIcon size={15} />}
            onClick={() => {
              if (signingOut) return;
              setSigningOut(true);
              void signOut({ redirect: false }).then(() => window.location.assign("/signin"));
            }}
          >
            {signingOut ? "Signing out…" : "Sign out"}
          </MenuItem>
        </div>
      )}
      <div className="flex items-center gap-1">
        <button
          type="button"
          onClick={() => setOpen((v) => !v)}
          aria-expanded={open}
          aria-haspopup="menu"
          data-testid="user-menu"
          className="flex min-w-0 flex-1 items-center gap-2.5 rounded-md px-1.5 py-1.5 text-left hover:bg-white/5"
        >
          <Avatar id={me.id} name={me.displayName} kind={me.kind} size={30} online={online} ring="ring-zinc-900" src={me.avatarUrl} />
          <span className="min-w-0 flex-1">
            <span className="flex items-center gap-1.5">
              <span className="truncate text-sm font-semibold text-zinc-100" data-testid="me-name">
                {me.displayName}
              </span>
              <StatusEmoji status={me} />
            </span>
            <span className="block truncate text-xs text-zinc-400">@{me.handle}</span>
          </span>
          <WorkStateDot status={work} />
          <ChevronDownIcon size={14} className="rotate-180 text-zinc-400" />
        </button>
        <button
          type="button"
          onClick={onShortcuts}
          aria-haspopup="dialog"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          data-testid="open-shortcuts"
          className="shrink-0 rounded-md p-2 text-zinc-500 hover:bg-white/5 hover:text-zinc-200"
        >
          <KeyboardIcon size={16} />
        </button>
      </div>
    </div>
  );
}
