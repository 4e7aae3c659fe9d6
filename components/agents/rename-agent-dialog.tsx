"use client";
// An agent's display name, changed by its owner or an admin; its handle is its address and stays.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { DISPLAY_NAME_MAX, type AgentView } from "@switchboard/sdk/contract";
import { useTRPC } from "@/components/providers/trpc";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, TextInput } from "@/components/ui/field";
import { toast } from "@/components/ui/toast";

export function RenameAgentDialog({ agent, open, onClose }: { agent: AgentView; open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Rename @${agent.handle}`}
      description="Its handle stays: it is how people mention it and how it connects."
      width="max-w-md"
      testId="rename-agent-dialog"
      footer={<DialogActions onCancel={onClose} label="Rename" form={`rename-${agent.id}`} testId="rename-agent-save" />}
    >
      {open && <RenameForm agent={agent} onClose={onClose} />}
    </Dialog>
  );
}

function RenameForm({ agent, onClose }: { agent: AgentView; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(agent.displayName);
  const rename = useMutation(
    trpc.agents.rename.mutationOptions({
      onSuccess: (a) => {
        queryClient.setQueryData(trpc.agents.mine.queryKey(), (list) => list?.map((x) => (x.id === a.id ? a : x)));
        void queryClient.invalidateQueries({ queryKey: trpc.agents.all.queryKey() });
        toast(`@${a.handle} is now ${a.displayName}`);
        onClose();
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) rename.mutate({ agentId: agent.id, displayName: name.trim() });
  };
  return (
    <form id={`rename-${agent.id}`} onSubmit={submit} className="space-y-3">
      <FormError message={rename.error ? errorMessage(rename.error) : null} />
      <Field label="Display name">
        <TextInput value={name} onChange={(e) => setName(e.target.value)} maxLength={DISPLAY_NAME_MAX} required autoFocus data-testid="rename-agent-name" />
      </Field>
    </form>
  );
}
