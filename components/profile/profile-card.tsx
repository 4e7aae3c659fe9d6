"use client";
// Someone's profile card, opened by clicking their name or avatar in a room: display name, handle,
// kind, status, the owner of an agent, and "Message" (a direct conversation). One card for the tab
// (`ProfileCardHost`, mounted by the sidebar); `ProfileTrigger` opens it from anywhere.
import { useMutation } from "@tanstack/react-query";
import { useSyncExternalStore, type ReactNode } from "react";
import { useDirectory } from "@/components/providers/directory";
import { useSocket } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { Button, Spinner } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { MessageIcon, SettingsIcon } from "@/components/ui/icons";
import { currentStatus, EMOJI_FONT, untilLabel } from "./status-emoji";
import { WorkspaceTag } from "@/components/workspace/workspace-marks";
import { Link, useRouter } from "@/components/nav/workspace-routing";

let openId: string | null = null;
const listeners = new Set<() => void>();
const setOpen = (id: string | null) => {
  openId = id;
  listeners.forEach((l) => l());
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export const openProfileCard = (participantId: string) => setOpen(participantId);

/**
 * Its children (a name, an avatar) as a button that opens the participant's card. `tabbable={false}`
 * inside a message: a timeline keeps one message in the tab order and Tab on it reaches its actions
 * (message-focus.tsx); the members panel's names reach the same cards by keyboard.
 */
export function ProfileTrigger({
  id,
  label,
  children,
  className = "",
  tabbable = true,
}: {
  id: string;
  label: string;
  children: ReactNode;
  className?: string;
  tabbable?: boolean;
}) {
  return (
    <button
      type="button"
      tabIndex={tabbable ? undefined : -1}
      onClick={() => openProfileCard(id)}
      aria-label={`${label}: open profile`}
      data-testid="profile-trigger"
      className={`cursor-pointer rounded-sm text-left hover:underline focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none ${className}`}
    >
      {children}
    </button>
  );
}

export function ProfileCardHost() {
  const id = useSyncExternalStore(
    subscribe,
    () => openId,
    () => null,
  );
  return (
    <Dialog open={id !== null} onClose={() => setOpen(null)} title="Profile" width="max-w-sm" testId="profile-card">
      {id && <ProfileBody id={id} onClose={() => setOpen(null)} />}
    </Dialog>
  );
}

function ProfileBody({ id, onClose }: { id: string; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { me } = useViewer();
  const { byId } = useDirectory();
  const { presence } = useSocket();
  const p = byId.get(id);
  const message = useMutation(
    trpc.rooms.openDirect.mutationOptions({
      onSuccess: (room) => {
        onClose();
        router.push(`/r/${room.id}`);
      },
    }),
  );
  if (!p) return <p className="text-sm text-zinc-500">Loading…</p>;
  const status = currentStatus(p);
  const owner = p.ownerId ? byId.get(p.ownerId) : undefined;
  const self = p.id === me.id;
  return (
    <div className="space-y-4" data-testid="profile-card-body" data-handle={p.handle}>
      <div className="flex items-center gap-3">
        <Avatar id={p.id} name={p.displayName} kind={p.kind} size={56} online={presence.get(p.id) ?? p.online} src={p.avatarUrl} />
        <div className="min-w-0">
          <div className="flex items-center gap-2">
            <span className="truncate text-lg font-semibold text-zinc-900" data-testid="profile-card-name">
              {p.displayName}
            </span>
            <KindBadge kind={p.kind} />
          </div>
          <div className="flex items-center gap-1.5 text-sm text-zinc-500">
            @{p.handle}
            <WorkspaceTag workspace={p.workspace} testId="profile-card-workspace" />
          </div>
          {p.status === "suspended" && <div className="text-xs font-medium text-rose-700">Suspended</div>}
        </div>
      </div>
      {status && (
        <p className="flex items-start gap-2 rounded-md bg-zinc-50 px-3 py-2 text-sm text-zinc-700" data-testid="profile-card-status">
          <span aria-hidden="true" style={EMOJI_FONT}>
            {status.emoji}
          </span>
          <span className="min-w-0">
            {status.text}
            {p.statusUntil && <span className="block text-xs text-zinc-500">{untilLabel(p.statusUntil)}</span>}
          </span>
        </p>
      )}
      {p.kind === "agent" && (
        <dl className="space-y-1 text-sm">
          {p.description && <dd className="text-zinc-600">{p.description}</dd>}
          <div className="flex gap-1.5">
            <dt className="text-zinc-500">Owner</dt>
            <dd className="font-medium text-zinc-800" data-testid="profile-card-owner">
              {owner ? `${owner.displayName} (@${owner.handle})` : "nobody"}
            </dd>
          </div>
        </dl>
      )}
      {message.isError && <p className="text-sm text-rose-600">{errorMessage(message.error)}</p>}
      <div className="flex justify-end gap-2">
        {self ? (
          <Link
            href="/settings"
            onClick={onClose}
            className="inline-flex h-9 items-center gap-1.5 rounded-md bg-white px-3 text-sm font-medium text-zinc-800 shadow-xs ring-1 ring-zinc-300 hover:bg-zinc-50"
          >
            <SettingsIcon size={15} /> Edit profile
          </Link>
        ) : (
          <Button onClick={() => message.mutate({ participantIds: [p.id] })} disabled={message.isPending} data-testid="profile-card-message">
            {message.isPending ? <Spinner /> : <MessageIcon size={15} />} Message
          </Button>
        )}
      </div>
    </div>
  );
}
