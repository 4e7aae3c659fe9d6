"use client";
// Who is in the room: people and agents, handles, a live online dot (presence:update), the work state
// (status:updated), and the budget
// state of those whose budgets the viewer may see (their own, their agents'; admins: everyone's).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { RoomView } from "@switchboard/sdk/contract";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { ProfileTrigger } from "@/components/profile/profile-card";
import { StatusEmoji } from "@/components/profile/status-emoji";
import { ParticipantWorkspaceTag } from "@/components/workspace/workspace-marks";
import { Button, Spinner } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { FormError } from "@/components/ui/field";
import { UserPlusIcon, XIcon } from "@/components/ui/icons";
import { BudgetPill } from "@/components/usage/budget-pill";
import { useBudgetStates } from "@/components/usage/use-budget-states";
import { useWorkStatuses } from "@/components/work/use-work-statuses";
import { WorkStateChip } from "@/components/work/work-state";
import { LifecycleBadge } from "@/components/ui/participant-states";
import { ParticipantPicker } from "./participant-picker";

export function MembersPanel({ room, canInvite, onClose }: { room: RoomView; canInvite: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const { presence } = useSocket();
  const statuses = useWorkStatuses();
  const queryClient = useQueryClient();
  const members = useQuery(trpc.rooms.members.queryOptions({ roomId: room.id }));
  // A member asked a question, or had one answered: whom it waits for changed.
  useSocketEvent("question:updated", ({ question }) => {
    if (members.data?.some((m) => m.participant.id === question.asker.id))
      void queryClient.invalidateQueries({ queryKey: trpc.rooms.members.queryKey({ roomId: room.id }) });
  });
  const budgets = useBudgetStates((members.data ?? []).map((m) => m.participant.id));
  const [adding, setAdding] = useState(false);
  const list = [...(members.data ?? [])].sort((a, b) => {
    const ao = presence.get(a.participant.id) ?? a.online;
    const bo = presence.get(b.participant.id) ?? b.online;
    if (ao !== bo) return ao ? -1 : 1;
    return a.participant.displayName.localeCompare(b.participant.displayName);
  });

  return (
    <aside
      className="flex w-64 shrink-0 flex-col border-l border-zinc-200 bg-zinc-50/50 max-lg:absolute max-lg:inset-y-0 max-lg:right-0 max-lg:z-20 max-lg:bg-white max-lg:shadow-xl"
      data-testid="members-panel"
      aria-label="Members"
    >
      <header className="flex h-14 shrink-0 items-center justify-between border-b border-zinc-200 px-4">
        <h2 className="text-[15px] font-bold text-zinc-900">
          Members <span className="font-normal text-zinc-500">{members.data ? members.data.length : ""}</span>
        </h2>
        <button type="button" onClick={onClose} aria-label="Close members" className="rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900">
          <XIcon size={18} />
        </button>
      </header>
      <div className="scroll-quiet min-h-0 flex-1 overflow-y-auto py-2">
        {canInvite && (
          <button
            type="button"
            onClick={() => setAdding(true)}
            data-testid="add-members"
            className="mx-2 mb-1 flex w-[calc(100%-1rem)] items-center gap-3 rounded-md px-2 py-1.5 text-sm font-medium text-zinc-700 hover:bg-zinc-100"
          >
            <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100">
              <UserPlusIcon size={16} />
            </span>
            Add people or agents
          </button>
        )}
        {members.isLoading && (
          <div className="flex justify-center py-6 text-zinc-500">
            <Spinner />
          </div>
        )}
        {members.isError && <p className="px-4 py-3 text-sm text-rose-600">{errorMessage(members.error)}</p>}
        <ul>
          {list.map((m) => {
            const online = presence.get(m.participant.id) ?? m.online;
            const budget = budgets.get(m.participant.id);
            const work = statuses.get(m.participant.id);
            return (
              <li
                key={m.participant.id}
                className="mx-2 flex items-center gap-3 rounded-md px-2 py-1.5 hover:bg-zinc-100"
                data-testid="member"
                data-handle={m.participant.handle}
                data-online={online ? "true" : "false"}
              >
                <ProfileTrigger id={m.participant.id} label={m.participant.displayName} className="hover:no-underline">
                  <Avatar
                    id={m.participant.id}
                    name={m.participant.displayName}
                    kind={m.participant.kind}
                    size={32}
                    online={online}
                    ring="ring-zinc-50"
                    src={m.participant.avatarUrl}
                  />
                </ProfileTrigger>
                <div className="min-w-0 flex-1">
                  <div className="flex items-center gap-1.5">
                    <ProfileTrigger id={m.participant.id} label={m.participant.displayName} className="min-w-0 truncate text-sm font-medium text-zinc-900">
                      {m.participant.displayName}
                    </ProfileTrigger>
                    <KindBadge kind={m.participant.kind} />
                    <StatusEmoji status={m.participant} />
                    {m.participant.status === "suspended" && <LifecycleBadge lifecycle="suspended" />}
                  </div>
                  <div className="flex min-w-0 items-center gap-1.5 text-xs text-zinc-500">
                    <span className="truncate">
                      @{m.participant.handle}
                      {m.role === "owner" && room.kind === "channel" ? " · owner" : ""}
                    </span>
                    <ParticipantWorkspaceTag id={m.participant.id} />
                  </div>
                  {m.waitingFor && (
                    <div className="mt-0.5 truncate text-xs text-amber-700" data-testid="member-waiting-for">
                      Waiting for {m.waitingFor}
                    </div>
                  )}
                  {work && <WorkStateChip status={work} online={m.participant.kind === "agent" ? online : undefined} withText className="mt-0.5" />}
                  {budget && <BudgetPill state={budget} className="mt-0.5 max-w-full" />}
                </div>
              </li>
            );
          })}
        </ul>
      </div>
      {adding && <AddMembersDialog room={room} existing={(members.data ?? []).map((m) => m.participant.id)} onClose={() => setAdding(false)} />}
    </aside>
  );
}

function AddMembersDialog({ room, existing, onClose }: { room: RoomView; existing: string[]; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<string[]>([]);
  const invite = useMutation(
    trpc.rooms.invite.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.rooms.members.queryKey({ roomId: room.id }) });
        void queryClient.invalidateQueries({ queryKey: trpc.rooms.get.queryKey({ roomId: room.id }) });
        onClose();
      },
    }),
  );
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Add to ${room.kind === "channel" ? `#${room.title}` : "conversation"}`}
      description="They will see the room's history."
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={selected.length === 0 || invite.isPending}
            onClick={() => invite.mutate({ roomId: room.id, participantIds: selected })}
            data-testid="confirm-add-members"
          >
            {invite.isPending ? <Spinner /> : null} Add {selected.length > 0 ? selected.length : ""}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <FormError message={invite.error ? errorMessage(invite.error) : null} />
        <ParticipantPicker selected={selected} onChange={setSelected} exclude={existing} autoFocus />
      </div>
    </Dialog>
  );
}
