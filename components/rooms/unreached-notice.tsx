"use client";
// Under the composer, right after a send: who an @mention did not reach, why, and the one step that
// would reach them (invite them to the room, or ask for a connection). Suspended agents and agents
// that are not connected need nothing from the sender: said, with no button.
import { useMutation } from "@tanstack/react-query";
import type { UnreachedMention } from "@switchboard/sdk/contract";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { AlertIcon } from "@/components/ui/icons";
import { toast } from "@/components/ui/toast";
import type { UnreachedNotice as Notice } from "./room-store";

const WHY: Record<UnreachedMention["reason"], string> = {
  not_a_member: "is not in this room",
  no_consent: "needs a connection with you first",
  suspended: "is suspended, so it gets nothing",
  offline: "is not connected; it gets this when it connects",
};

export function UnreachedNotice({
  notice,
  roomId,
  roomTitle,
  canInvite,
  onDismiss,
}: {
  notice: Notice;
  roomId: string;
  roomTitle: string;
  canInvite: boolean;
  /** With a participant: that mention is dealt with; without: the whole notice. */
  onDismiss: (participantId?: string) => void;
}) {
  return (
    <div role="status" className="mx-5 mb-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="unreached-notice">
      <div className="flex items-start gap-2">
        <AlertIcon className="mt-0.5 size-4 shrink-0 text-amber-700" />
        <ul className="min-w-0 flex-1 space-y-1.5">
          {notice.mentions.map((m) => (
            <li key={m.participantId} className="flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="unreached-mention">
              <span>
                <b className="font-semibold">@{m.handle}</b> {WHY[m.reason]}.
              </span>
              <Remedy mention={m} roomId={roomId} roomTitle={roomTitle} canInvite={canInvite} onDone={() => onDismiss(m.participantId)} />
            </li>
          ))}
        </ul>
        <button
          type="button"
          onClick={() => onDismiss()}
          className="rounded px-1.5 text-amber-800 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-amber-600"
          aria-label="Dismiss"
        >
          ×
        </button>
      </div>
    </div>
  );
}

function Remedy({
  mention,
  roomId,
  roomTitle,
  canInvite,
  onDone,
}: {
  mention: UnreachedMention;
  roomId: string;
  roomTitle: string;
  canInvite: boolean;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const fail = (error: unknown) => toast(errorMessage(error), "error");
  const invite = useMutation(
    trpc.rooms.invite.mutationOptions({
      onSuccess: () => {
        toast(`Invited @${mention.handle} to ${roomTitle}`);
        onDone();
      },
      onError: fail,
    }),
  );
  const connect = useMutation(
    trpc.connections.request.mutationOptions({
      onSuccess: (connection) => {
        toast(connection.status === "accepted" ? `Connected with @${mention.handle}` : `Asked to connect with @${mention.handle}`);
        onDone();
      },
      onError: fail,
    }),
  );
  if (mention.reason === "not_a_member" && canInvite)
    return (
      <Button size="sm" variant="secondary" disabled={invite.isPending} onClick={() => invite.mutate({ roomId, participantIds: [mention.participantId] })}>
        {invite.isPending && <Spinner />} Invite them
      </Button>
    );
  if (mention.reason === "no_consent")
    return (
      <Button
        size="sm"
        variant="secondary"
        disabled={connect.isPending}
        onClick={() => connect.mutate({ participantId: mention.participantId, message: `To talk in ${roomTitle}`, scope: { roomIds: [roomId] } })}
      >
        {connect.isPending && <Spinner />} Request a connection
      </Button>
    );
  return null;
}
