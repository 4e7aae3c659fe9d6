"use client";
// A new channel: name, public or private, topic, and its first members (people and agents).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Button, Spinner } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, TextInput } from "@/components/ui/field";
import { HashIcon, LockIcon } from "@/components/ui/icons";
import { ParticipantPicker } from "./participant-picker";
import { TOPIC_MAX } from "@switchboard/sdk/contract";
import { useRouter } from "@/components/nav/workspace-routing";

/** What a channel name may hold, as it is typed (the server checks the same rule). */
export const toChannelName = (raw: string) =>
  raw
    .toLowerCase()
    .replace(/\s+/g, "-")
    .replace(/[^a-z0-9_-]/g, "")
    .slice(0, 80);

export function CreateChannelDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Create a channel"
      description="Channels are where people and agents work on a topic together."
      testId="create-channel-dialog"
      width="max-w-xl"
    >
      {open && <CreateChannelForm onClose={onClose} />}
    </Dialog>
  );
}

function CreateChannelForm({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const { me } = useViewer();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState("");
  const [visibility, setVisibility] = useState<"public" | "private">("public");
  const [topic, setTopic] = useState("");
  const [members, setMembers] = useState<string[]>([]);
  const create = useMutation(
    trpc.rooms.createChannel.mutationOptions({
      onSuccess: (room) => {
        void queryClient.invalidateQueries({ queryKey: trpc.rooms.mine.queryKey() });
        onClose();
        router.push(`/r/${room.id}`);
      },
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name) return;
    create.mutate({ name, visibility, topic, memberIds: members });
  };

  return (
    <form onSubmit={submit} className="space-y-4" data-testid="create-channel-form">
      <FormError message={create.error ? errorMessage(create.error) : null} />
      <Field label="Name" hint="Lower-case letters, numbers, - and _.">
        <div className="relative">
          <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-zinc-500">
            {visibility === "private" ? <LockIcon size={15} /> : <HashIcon size={15} />}
          </span>
          <TextInput
            value={name}
            onChange={(e) => setName(toChannelName(e.target.value))}
            placeholder="e.g. release-planning"
            className="pl-9"
            autoFocus
            required
            data-testid="channel-name"
          />
        </div>
      </Field>
      <fieldset>
        <legend className="mb-1.5 block text-sm font-medium text-zinc-800">Visibility</legend>
        <div className="grid grid-cols-2 gap-2">
          {(["public", "private"] as const).map((v) => (
            <label
              key={v}
              className={`flex cursor-pointer items-start gap-2.5 rounded-lg border p-3 ${
                visibility === v ? "border-indigo-500 bg-indigo-50/50 ring-1 ring-indigo-500" : "border-zinc-200 hover:border-zinc-300"
              }`}
            >
              <input
                type="radio"
                name="visibility"
                value={v}
                checked={visibility === v}
                onChange={() => setVisibility(v)}
                className="mt-0.5 accent-indigo-600"
                data-testid={`visibility-${v}`}
              />
              <span>
                <span className="flex items-center gap-1 text-sm font-medium text-zinc-900">
                  {v === "public" ? <HashIcon size={14} /> : <LockIcon size={14} />}
                  {v === "public" ? "Public" : "Private"}
                </span>
                <span className="block text-xs text-zinc-500">
                  {v === "public" ? "Anyone in the workspace can find and join." : "Only people and agents you add can see it."}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <Field label="Topic (optional)">
        <TextInput
          value={topic}
          onChange={(e) => setTopic(e.target.value)}
          maxLength={TOPIC_MAX}
          placeholder="What is this channel about?"
          data-testid="channel-topic"
        />
      </Field>
      <div>
        <span className="mb-1.5 block text-sm font-medium text-zinc-800">
          Add members <span className="font-normal text-zinc-500">{members.length > 0 ? `(${members.length} selected)` : "(optional)"}</span>
        </span>
        <ParticipantPicker selected={members} onChange={setMembers} exclude={[me.id]} />
      </div>
      <div className="flex justify-end gap-2 pt-1">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={!name || create.isPending} data-testid="create-channel-submit">
          {create.isPending && <Spinner />} Create channel
        </Button>
      </div>
    </form>
  );
}
