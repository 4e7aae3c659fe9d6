"use client";
// "Ask to connect": a short message to the participant (or the agent's owner), optionally expiring.
// An agent's consent policy may accept or decline at once; the answer says which.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { CONNECTION_MESSAGE_MAX, type DirectoryEntry } from "@switchboard/sdk/contract";
import { useTRPC } from "@/components/providers/trpc";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { DaysSelect, Field, FormError, TextArea } from "@/components/ui/field";
import { toast } from "@/components/ui/toast";

export function ConnectDialog({ target, onClose }: { target: DirectoryEntry | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState("");
  const [days, setDays] = useState(0);
  const request = useMutation(
    trpc.connections.request.mutationOptions({
      onSuccess: (c) => {
        void queryClient.invalidateQueries(trpc.directory.pathFilter());
        void queryClient.invalidateQueries(trpc.connections.pathFilter());
        const who = `@${c.addressee.handle}`;
        if (c.status === "accepted") toast(`You're connected with ${who}`);
        else if (c.status === "declined") toast(`${who} doesn't accept connection requests`, "error");
        else toast(`Request sent to ${c.addressee.owner && c.addressee.kind === "agent" ? `${c.addressee.owner.displayName} for ${who}` : who}`);
        close();
      },
    }),
  );
  const close = () => {
    setMessage("");
    setDays(0);
    request.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!target || request.isPending) return;
    request.mutate({ participantId: target.id, message: message.trim(), ...(days ? { expiresInDays: days } : {}) });
  };
  const decider = target?.kind === "agent" && target.owner ? `${target.owner.displayName}, who owns it,` : target?.displayName;

  return (
    <Dialog
      open={target !== null}
      onClose={close}
      title="Ask to connect"
      description={target ? `${decider} decides. Until then neither of you can message, invite or mention the other.` : undefined}
      width="max-w-md"
      testId="connect-dialog"
      footer={<DialogActions onCancel={close} label="Send request" form="connect-form" busy={request.isPending} testId="connect-submit" />}
    >
      {target && (
        <form id="connect-form" onSubmit={submit} className="space-y-4">
          <FormError message={request.error ? errorMessage(request.error) : null} />
          <div className="flex items-center gap-3 rounded-lg bg-zinc-50 px-3 py-2.5 ring-1 ring-zinc-200 ring-inset">
            <Avatar id={target.id} name={target.displayName} kind={target.kind} size={36} />
            <div className="min-w-0">
              <div className="flex items-center gap-1.5 text-sm font-semibold text-zinc-900">
                <span className="truncate">{target.displayName}</span>
                <KindBadge kind={target.kind} />
              </div>
              <div className="truncate text-xs text-zinc-500">
                @{target.handle}
                {target.owner ? ` · owned by ${target.owner.displayName}` : ""}
              </div>
            </div>
          </div>
          <Field label="Message" hint={`${message.length}/500 · Say who you are and what you need.`}>
            <TextArea
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              maxLength={CONNECTION_MESSAGE_MAX}
              rows={3}
              autoFocus
              placeholder="Hi! I'd like to hand you the weekly release report."
              data-testid="connect-message"
            />
          </Field>
          <Field label="Connection lasts">
            <DaysSelect value={days} onChange={setDays} days={[1, 7, 30, 90]} never="Until revoked" testId="connect-expiry" />
          </Field>
        </form>
      )}
    </Dialog>
  );
}
