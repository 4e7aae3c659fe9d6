"use client";
// Start (or reopen) a direct message with one participant, or a group with several.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Button, Spinner } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { FormError } from "@/components/ui/field";
import { ParticipantPicker } from "./participant-picker";
import { useRouter } from "@/components/nav/workspace-routing";

export function NewDirectDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="New message"
      description="Pick one person or agent for a direct message, or several for a group."
      testId="new-direct-dialog"
    >
      {open && <NewDirectForm onClose={onClose} />}
    </Dialog>
  );
}

function NewDirectForm({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const { me } = useViewer();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [selected, setSelected] = useState<string[]>([]);
  const open = useMutation(
    trpc.rooms.openDirect.mutationOptions({
      onSuccess: (room) => {
        void queryClient.invalidateQueries({ queryKey: trpc.rooms.mine.queryKey() });
        onClose();
        router.push(`/r/${room.id}`);
      },
    }),
  );
  return (
    <div className="space-y-3">
      <FormError message={open.error ? errorMessage(open.error) : null} />
      <ParticipantPicker selected={selected} onChange={setSelected} exclude={[me.id]} autoFocus />
      <div className="flex justify-end gap-2 pt-1">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button disabled={selected.length === 0 || open.isPending} onClick={() => open.mutate({ participantIds: selected })} data-testid="open-direct">
          {open.isPending && <Spinner />} {selected.length > 1 ? "Start group" : "Open conversation"}
        </Button>
      </div>
    </div>
  );
}
