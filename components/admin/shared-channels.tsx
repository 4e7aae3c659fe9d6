"use client";
// The Connections tab's shared channels: channels other workspaces share with this one (approve or
// decline those waiting, leave those active) and this workspace's channels shared with others (stop
// sharing). What each button may do is the server's to say: a refusal shows its message.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { RoomShareView } from "@switchboard/sdk/workspace-connections";
import { useTRPC } from "@/components/providers/trpc";
import { Link } from "@/components/nav/workspace-routing";
import { Button, Spinner } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { errorMessage } from "@/components/ui/errors";
import { FormError } from "@/components/ui/field";
import { HashIcon, SharedIcon } from "@/components/ui/icons";
import { Pill } from "@/components/ui/pill";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { dateTime } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { StopSharingDialog } from "@/components/workspace/stop-sharing-dialog";

/** After a share changes: the list here, the connections above, and the sidebar and Browse channels. */
export function useRefreshShares() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.workspaceConnections.shares.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.rooms.mine.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.rooms.browse.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.rooms.get.queryKey() });
  };
}

export function SharedChannels() {
  const trpc = useTRPC();
  const shares = useQuery(trpc.workspaceConnections.shares.queryOptions());
  const incoming = (shares.data ?? []).filter((s) => !s.ours);
  const outgoing = (shares.data ?? []).filter((s) => s.ours);
  return (
    <section aria-labelledby="shared-channels-heading" className="space-y-3" data-testid="shared-channels">
      <div>
        <h2 id="shared-channels-heading" className="text-[15px] font-semibold text-zinc-900">
          Shared channels
        </h2>
        <p className="mt-0.5 text-sm text-zinc-500">
          Channels connected workspaces share with yours, and yours shared with them. A channel stays its owner&apos;s; the other side&apos;s people and agents
          leave it when sharing ends.
        </p>
      </div>
      {shares.isPending ? (
        <SkeletonRows rows={2} />
      ) : shares.error ? (
        <ErrorState error={shares.error} onRetry={() => void shares.refetch()} />
      ) : shares.data.length === 0 ? (
        <EmptyState
          icon={<SharedIcon size={22} />}
          title="No shared channels"
          body="Share a channel from its settings (the gear in its header) with a connected workspace; channels they share with you appear here for approval."
          testId="shared-channels-empty"
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <ShareList
            title="Shared with your workspace"
            empty="No connected workspace shares a channel with yours."
            shares={incoming}
            testId="shares-incoming"
          />
          <ShareList title="Your channels shared with others" empty="None of your channels is shared." shares={outgoing} testId="shares-outgoing" />
        </div>
      )}
    </section>
  );
}

function ShareList({ title, empty, shares, testId }: { title: string; empty: string; shares: RoomShareView[]; testId: string }) {
  return (
    <div data-testid={testId}>
      <h3 className="mb-2 text-sm font-medium text-zinc-700">{title}</h3>
      {shares.length === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-500">{empty}</p>
      ) : (
        <ul className="divide-y divide-zinc-100 rounded-xl border border-zinc-200 bg-white shadow-xs">
          {shares.map((s) => (
            <ShareRow key={`${s.roomId}:${s.workspace.id}`} share={s} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ShareRow({ share: s }: { share: RoomShareView }) {
  const trpc = useTRPC();
  const refresh = useRefreshShares();
  const [confirming, setConfirming] = useState<"leave" | "stop" | null>(null);
  const decide = useMutation(
    trpc.workspaceConnections.decideShare.mutationOptions({
      onSuccess: (_, input) => toast(input.approve ? `#${s.name} from ${s.workspace.name} approved: your people can join it` : `#${s.name} declined`),
      onSettled: refresh,
    }),
  );
  const leave = useMutation(
    trpc.workspaceConnections.leaveShare.mutationOptions({
      onSuccess: () => {
        setConfirming(null);
        toast(`Your workspace left #${s.name}`);
      },
      onSettled: refresh,
    }),
  );
  const unshare = useMutation(
    trpc.workspaceConnections.unshare.mutationOptions({
      onSuccess: () => {
        setConfirming(null);
        toast(`#${s.name} is no longer shared with ${s.workspace.name}`);
      },
      onSettled: refresh,
    }),
  );
  const pending = s.status === "pending";
  const busy = decide.isPending || leave.isPending || unshare.isPending;
  return (
    <li className="p-4" data-testid="share-row" data-room-id={s.roomId} data-status={s.status} data-ours={s.ours ? "true" : "false"}>
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-1.5 font-semibold text-zinc-900">
            <HashIcon size={14} className="text-zinc-400" />
            {pending && !s.ours ? (
              <span data-testid="share-name">{s.name}</span>
            ) : (
              <Link href={`/r/${s.roomId}`} className="hover:underline" data-testid="share-name">
                {s.name}
              </Link>
            )}
            <Pill tone={pending ? "amber" : "emerald"} testId="share-status">
              {pending ? (s.ours ? `Waiting for ${s.workspace.name}'s admin` : "Waiting for your approval") : "Shared"}
            </Pill>
          </p>
          <p className="mt-0.5 text-xs text-zinc-500">
            {s.ours ? `With ${s.workspace.name}` : `From ${s.workspace.name}`} · shared by {s.sharedBy} {dateTime(s.since)}
          </p>
          {s.topic && <p className="mt-1 truncate text-sm text-zinc-600">{s.topic}</p>}
        </div>
        <div className="flex shrink-0 gap-2">
          {!s.ours && pending && (
            <>
              <Button size="sm" onClick={() => decide.mutate({ roomId: s.roomId, approve: true })} disabled={busy} data-testid="share-approve">
                {decide.isPending && decide.variables?.approve && <Spinner />} Approve
              </Button>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => decide.mutate({ roomId: s.roomId, approve: false })}
                disabled={busy}
                data-testid="share-decline"
              >
                Decline
              </Button>
            </>
          )}
          {!s.ours && !pending && (
            <Button size="sm" variant="secondary" onClick={() => setConfirming("leave")} data-testid="share-leave">
              Leave
            </Button>
          )}
          {s.ours && (
            <Button size="sm" variant="secondary" onClick={() => setConfirming("stop")} data-testid="share-stop">
              Stop sharing
            </Button>
          )}
        </div>
      </div>
      <FormError message={decide.error ? errorMessage(decide.error) : null} />
      <ConfirmDialog
        open={confirming === "leave"}
        onClose={() => setConfirming(null)}
        title={`Leave #${s.name}?`}
        error={leave.error}
        testId="share-leave-dialog"
        confirm={{
          label: "Leave",
          variant: "danger",
          testId: "share-leave-confirm",
          busy: leave.isPending,
          onConfirm: () => leave.mutate({ roomId: s.roomId }),
        }}
      >
        <p>
          Your workspace&apos;s people and agents leave #{s.name} at once, and it leaves their sidebars. It stays {s.workspace.name}&apos;s channel, with its
          history; you keep nothing of it you can read.
        </p>
        <p>To come back, {s.workspace.name} shares it again.</p>
      </ConfirmDialog>
      <StopSharingDialog
        open={confirming === "stop"}
        onClose={() => setConfirming(null)}
        name={s.name}
        workspace={s.workspace.name}
        error={unshare.error}
        busy={unshare.isPending}
        onConfirm={() => unshare.mutate({ roomId: s.roomId, workspaceId: s.workspace.id })}
      />
    </li>
  );
}
