"use client";
// A new agent: profile, framework and capabilities; the answer carries its first API key, shown once.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { DESCRIPTION_MAX, DISPLAY_NAME_MAX, HANDLE_MAX, HANDLE_PATTERN } from "@switchboard/sdk/contract";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, TextArea, TextInput, inputClass } from "@/components/ui/field";
import { TagInput } from "@/components/ui/tag-input";
import { KeyReveal } from "./key-reveal";
import { FRAMEWORKS, toHandle } from "./labels";

export function CreateAgentDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateAgent();
  const created = create.data ? { handle: create.data.agent.handle, apiKey: create.data.apiKey } : null;
  const close = () => {
    create.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={created ? `@${created.handle} is ready` : "Create an agent"}
      description={
        created ? "Give the key to the agent's process. It acts under its own name in the workspace." : "An agent you own, with its own identity and API key."
      }
      testId="create-agent-dialog"
      width="max-w-xl"
      footer={
        <DialogActions
          onCancel={close}
          done={created !== null}
          doneTestId="create-agent-done"
          label="Create agent"
          form="create-agent-form"
          busy={create.isPending}
          testId="create-agent-submit"
        />
      }
    >
      {open && (created ? <KeyReveal apiKey={created.apiKey} handle={created.handle} /> : <CreateAgentForm create={create} />)}
    </Dialog>
  );
}

function useCreateAgent() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.agents.create.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.agents.mine.queryKey() });
        void queryClient.invalidateQueries(trpc.directory.pathFilter());
        void queryClient.invalidateQueries({ queryKey: trpc.workspace.participants.queryKey() });
      },
    }),
  );
}
type CreateMutation = ReturnType<typeof useCreateAgent>;

function CreateAgentForm({ create }: { create: CreateMutation }) {
  const [displayName, setDisplayName] = useState("");
  const [handle, setHandle] = useState("");
  const [handleEdited, setHandleEdited] = useState(false);
  const [description, setDescription] = useState("");
  // Nothing is assumed: "Other" until the person says which (the card shows what is chosen here).
  const [framework, setFramework] = useState<string>("other");
  const [capabilities, setCapabilities] = useState<string[]>([]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending) return;
    create.mutate({ handle: handle.trim(), displayName: displayName.trim(), description: description.trim(), framework, capabilities });
  };

  return (
    <form id="create-agent-form" onSubmit={submit} className="space-y-4" data-testid="create-agent-form">
      <FormError message={create.error ? errorMessage(create.error) : null} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Display name">
          <TextInput
            value={displayName}
            required
            maxLength={DISPLAY_NAME_MAX}
            autoFocus
            placeholder="Release assistant"
            data-testid="agent-display-name"
            onChange={(e) => {
              setDisplayName(e.target.value);
              if (!handleEdited) setHandle(toHandle(e.target.value));
            }}
          />
        </Field>
        <Field label="Handle" hint="2-39 lower-case letters, digits, - and _.">
          <div className="relative">
            <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-zinc-500">@</span>
            <TextInput
              value={handle}
              required
              pattern={HANDLE_PATTERN}
              maxLength={HANDLE_MAX}
              placeholder="release-assistant"
              className="pl-7"
              data-testid="agent-handle"
              onChange={(e) => {
                setHandle(e.target.value.toLowerCase());
                setHandleEdited(true);
              }}
            />
          </div>
        </Field>
      </div>
      <Field label="Description" hint="What it does, in a sentence. People see it in the directory.">
        <TextArea
          value={description}
          maxLength={DESCRIPTION_MAX}
          rows={2}
          placeholder="Drafts release notes and chases blockers"
          data-testid="agent-description"
          onChange={(e) => setDescription(e.target.value)}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
        <Field label="Framework" hint="What it runs on, shown on its card.">
          <select value={framework} onChange={(e) => setFramework(e.target.value)} className={inputClass} data-testid="agent-framework">
            {FRAMEWORKS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </Field>
        <div>
          <label htmlFor="agent-capabilities" className="mb-1.5 block text-sm font-medium text-zinc-800">
            Capabilities
          </label>
          <TagInput
            id="agent-capabilities"
            value={capabilities}
            onChange={setCapabilities}
            placeholder="e.g. scheduling, code-review"
            testId="agent-capabilities"
          />
          <span className="mt-1 block text-xs text-zinc-500">Press Enter after each. Others find agents by capability.</span>
        </div>
      </div>
    </form>
  );
}
