"use client";
// A channel's sharing with connected workspaces, in its settings: share it with one (it may wait for
// that workspace's admin), see with whom it is shared, stop sharing. Its owner or an admin sees it
// all (workspaceConnections.roomSharing); where this workspace asks that an admin share each channel,
// an owner who is not one is told whom to ask. Anyone else sees with whom it is shared. The server
// decides each share; a refusal shows its message.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { RoomView } from "@switchboard/sdk/contract";
import type { RoomShareView } from "@switchboard/sdk/workspace-connections";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Button, Spinner } from "@/components/ui/button";
import { appErrorOf, errorMessage } from "@/components/ui/errors";
import { FormError, inputClass } from "@/components/ui/field";
import { BuildingIcon, SharedIcon } from "@/components/ui/icons";
import { Pill } from "@/components/ui/pill";
import { toast } from "@/components/ui/toast";
import { StopSharingDialog } from "@/components/workspace/stop-sharing-dialog";

type Share = Pick<RoomShareView, "status"> & { workspace: { id: string; name: string } };

export function ChannelSharing({ room }: { room: RoomView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { workspace } = useViewer();
  const home = !room.shared || room.shared.home.id === workspace.id;
  const sharing = useQuery({ ...trpc.workspaceConnections.roomSharing.queryOptions({ roomId: room.id }), enabled: home, retry: false });
  const [picked, setPicked] = useState("");
  const [stopping, setStopping] = useState<Share["workspace"] | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.workspaceConnections.roomSharing.queryKey({ roomId: room.id }) });
    void queryClient.invalidateQueries({ queryKey: trpc.workspaceConnections.shares.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.rooms.get.queryKey({ roomId: room.id }) });
    void queryClient.invalidateQueries({ queryKey: trpc.rooms.mine.queryKey() });
  };
  const share = useMutation(
    trpc.workspaceConnections.share.mutationOptions({
      onSuccess: (s) => {
        setPicked("");
        toast(s.status === "pending" ? `Shared: waiting for ${s.workspace.name}'s admin to approve it` : `#${s.name} is shared with ${s.workspace.name}`);
      },
      onSettled: refresh,
    }),
  );
  const unshare = useMutation(
    trpc.workspaceConnections.unshare.mutationOptions({
      onSuccess: (_, input) => {
        setStopping(null);
        toast(`#${room.name} is no longer shared with ${shares.find((s) => s.workspace.id === input.workspaceId)?.workspace.name ?? "them"}`);
      },
      onSettled: refresh,
    }),
  );

  // A channel of another workspace, shared with this one, is its owners' to share.
  if (!home) return null;

  // Its owner and admins see shares waiting too; anyone else, those the room's view says are active.
  const mayManage = sharing.isSuccess;
  const shares: Share[] = sharing.data?.shares ?? (room.shared?.with ?? []).map((w) => ({ status: "active" as const, workspace: w }));
  const targets = sharing.data?.targets ?? [];
  const shareable = targets.filter((t) => t.mayShare);
  const askAdmin = targets.filter((t) => !t.mayShare);
  const forbidden = sharing.error && appErrorOf(sharing.error).code === "FORBIDDEN";
  if (forbidden && shares.length === 0) return null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (picked && !share.isPending) share.mutate({ roomId: room.id, workspaceId: picked });
  };

  return (
    <section className="space-y-3 border-t border-zinc-100 pt-4" aria-labelledby="channel-share-heading" data-testid="channel-share-section">
      <div>
        <h3 id="channel-share-heading" className="flex items-center gap-1.5 text-sm font-medium text-zinc-900">
          <SharedIcon size={15} className="text-violet-600" /> Share with another workspace
        </h3>
        <p className="text-xs text-zinc-500">
          Its people can then find #{room.name} in Browse channels, join and read its history; its agents come in when invited, with their owner&apos;s consent.
          The channel stays yours.
        </p>
      </div>
      {shares.length > 0 && (
        <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200" data-testid="channel-shares">
          {shares.map((s) => (
            <li key={s.workspace.id} className="flex items-center gap-2 px-3 py-2 text-sm" data-testid="channel-share-row" data-status={s.status}>
              <BuildingIcon size={14} className="shrink-0 text-zinc-400" />
              <span className="min-w-0 flex-1 truncate font-medium text-zinc-900">{s.workspace.name}</span>
              <Pill tone={s.status === "pending" ? "amber" : "emerald"} testId="channel-share-status">
                {s.status === "pending" ? `Waiting for ${s.workspace.name}'s admin` : "Shared"}
              </Pill>
              {mayManage && (
                <Button size="sm" variant="ghost" onClick={() => setStopping(s.workspace)} data-testid="channel-share-stop">
                  Stop sharing
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {sharing.isPending ? (
        <p className="text-sm text-zinc-500">Loading connected workspaces…</p>
      ) : forbidden ? (
        <p className="text-sm text-zinc-500" data-testid="channel-share-owner-only">
          Only the channel&apos;s owner or an admin of {workspace.name} shares it with other workspaces.
        </p>
      ) : sharing.error ? (
        <FormError message={errorMessage(sharing.error)} />
      ) : targets.length === 0 ? (
        <p className="text-sm text-zinc-500" data-testid="channel-share-no-peers">
          {shares.length > 0
            ? "It is shared with every workspace yours is connected with."
            : "Your workspace is not connected with another yet: an admin connects one under Admin → Connections."}
        </p>
      ) : (
        <>
          {shareable.length > 0 && (
            <form onSubmit={submit} className="flex gap-2" data-testid="channel-share-form">
              <select
                className={inputClass}
                value={picked}
                onChange={(e) => setPicked(e.target.value)}
                aria-label="Workspace to share with"
                data-testid="channel-share-workspace"
              >
                <option value="">Pick a connected workspace…</option>
                {shareable.map(({ workspace: w }) => (
                  <option key={w.id} value={w.id}>
                    {w.name}
                    {w.verifiedDomain ? ` (${w.verifiedDomain})` : ""}
                  </option>
                ))}
              </select>
              <Button type="submit" className="shrink-0" disabled={!picked || share.isPending} data-testid="channel-share-submit">
                {share.isPending && <Spinner />} Share
              </Button>
            </form>
          )}
          {askAdmin.length > 0 && (
            <p className="rounded-md bg-zinc-50 px-3 py-2 text-sm text-zinc-600 ring-1 ring-zinc-200" data-testid="channel-share-ask-admin">
              {workspace.name} asks that an admin share each channel with {askAdmin.map((t) => t.workspace.name).join(", ")}: ask one to share #{room.name}.
            </p>
          )}
        </>
      )}
      <FormError message={share.error ? errorMessage(share.error) : null} testId="channel-share-error" />
      <StopSharingDialog
        open={stopping !== null}
        onClose={() => setStopping(null)}
        name={room.name ?? room.title}
        workspace={stopping?.name ?? ""}
        error={unshare.error}
        busy={unshare.isPending}
        onConfirm={() => stopping && unshare.mutate({ roomId: room.id, workspaceId: stopping.id })}
      />
    </section>
  );
}
