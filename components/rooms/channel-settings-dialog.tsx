"use client";
// A channel's settings after creation, for its owner and admins (`can.update`): its name, its topic,
// sharing it with connected workspaces (channel-sharing.tsx), and archiving it (read-only, out of the
// sidebar, still in Browse channels) or bringing it back.
// Each change is posted in the channel by the server; the room's view comes back as `room:updated`.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { TOPIC_MAX, type RoomView } from "@switchboard/sdk/contract";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, TextInput } from "@/components/ui/field";
import { HashIcon } from "@/components/ui/icons";
import { toast } from "@/components/ui/toast";
import { ChannelSharing } from "./channel-sharing";
import { toChannelName } from "./create-channel-dialog";

export function ChannelSettingsDialog({ room, open, onClose }: { room: RoomView; open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`#${room.name ?? room.title} settings`}
      description="Changes are posted in the channel for everyone to see."
      testId="channel-settings-dialog"
    >
      {open && <SettingsForm room={room} onClose={onClose} />}
    </Dialog>
  );
}

function SettingsForm({ room, onClose }: { room: RoomView; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(room.name ?? "");
  const [topic, setTopic] = useState(room.topic);
  const archived = room.archivedAt !== null;
  const update = useMutation(
    trpc.rooms.update.mutationOptions({
      onSuccess: (view) => {
        void queryClient.invalidateQueries({ queryKey: trpc.rooms.get.queryKey({ roomId: room.id }) });
        void queryClient.invalidateQueries({ queryKey: trpc.rooms.mine.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.rooms.browse.queryKey() });
        toast(view.archivedAt ? `#${view.name} archived` : archived ? `#${view.name} unarchived` : `#${view.name} saved`);
        onClose();
      },
    }),
  );
  const changed = name !== room.name || topic.trim() !== room.topic;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!changed || archived) return;
    update.mutate({ roomId: room.id, ...(name !== room.name ? { name } : {}), ...(topic.trim() !== room.topic ? { topic: topic.trim() } : {}) });
  };
  return (
    <div className="space-y-5">
      <form onSubmit={submit} className="space-y-4" data-testid="channel-settings-form">
        <FormError message={update.error ? errorMessage(update.error) : null} testId="channel-settings-error" />
        {archived && (
          <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200">
            This channel is archived. Unarchive it to rename it or change its topic.
          </p>
        )}
        <Field label="Name" hint="Lower-case letters, numbers, - and _.">
          <div className="relative">
            <HashIcon size={15} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-zinc-400" />
            <TextInput
              value={name}
              onChange={(e) => setName(toChannelName(e.target.value))}
              className="pl-9"
              required
              disabled={archived}
              data-testid="channel-settings-name"
            />
          </div>
        </Field>
        <Field label="Topic">
          <TextInput
            value={topic}
            onChange={(e) => setTopic(e.target.value)}
            maxLength={TOPIC_MAX}
            placeholder="What is this channel about?"
            disabled={archived}
            data-testid="channel-settings-topic"
          />
        </Field>
        {!archived && (
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!changed || !name || update.isPending} data-testid="channel-settings-save">
              {update.isPending && <Spinner />} Save
            </Button>
          </div>
        )}
      </form>
      {!archived && <ChannelSharing room={room} />}
      <div className="flex flex-wrap items-center gap-3 border-t border-zinc-100 pt-4">
        <div className="min-w-0 flex-1 text-sm">
          <div className="font-medium text-zinc-900">{archived ? "Unarchive this channel" : "Archive this channel"}</div>
          <div className="text-xs text-zinc-500">
            {archived
              ? "It comes back to its members' sidebars, and they can post again."
              : "It becomes read-only and leaves everyone's sidebar; it stays in Browse channels."}
          </div>
        </div>
        <Button
          variant={archived ? "primary" : "danger"}
          disabled={update.isPending}
          onClick={() => update.mutate({ roomId: room.id, archived: !archived })}
          data-testid={archived ? "channel-unarchive" : "channel-archive"}
        >
          {archived ? "Unarchive" : "Archive"}
        </Button>
      </div>
    </div>
  );
}
