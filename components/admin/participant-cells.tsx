"use client";
// The cells the members and agents tables share: who it is, and when they were last seen.
import type { ReactNode } from "react";
import { useDirectory } from "@/components/providers/directory";
import { useSocket } from "@/components/providers/socket-provider";
import { Avatar } from "@/components/ui/avatar";
import { dateTime, relativeTime } from "@/components/ui/time";

/** Whether a participant is online: live presence first, then what the directory last said. */
export function useOnline(): (id: string) => boolean | undefined {
  const { presence } = useSocket();
  const { byId } = useDirectory();
  return (id) => presence.get(id) ?? byId.get(id)?.online;
}

export function ParticipantCell({
  id,
  name,
  kind,
  online,
  badges,
  detail,
}: {
  id: string;
  name: string;
  kind: "human" | "agent";
  online: boolean | undefined;
  /** After the name: "(you)", a status pill. */
  badges?: ReactNode;
  /** The line under the name. */
  detail: ReactNode;
}) {
  return (
    <td className="px-4 py-2.5">
      <div className="flex items-center gap-3">
        <Avatar id={id} name={name} kind={kind} size={32} online={online} />
        <div className="min-w-0">
          <div className="flex items-center gap-1.5 font-medium text-zinc-900">
            <span className="truncate">{name}</span>
            {badges}
          </div>
          <div className="truncate text-xs text-zinc-500">{detail}</div>
        </div>
      </div>
    </td>
  );
}

export function LastSeenCell({ online, lastSeenAt }: { online: boolean | undefined; lastSeenAt: string | null }) {
  return (
    <td className="px-4 py-2.5 whitespace-nowrap text-zinc-600" title={lastSeenAt ? dateTime(lastSeenAt) : undefined}>
      {online ? <span className="text-emerald-700">Online</span> : relativeTime(lastSeenAt)}
    </td>
  );
}
