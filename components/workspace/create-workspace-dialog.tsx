"use client";
// Another workspace, created by the signed-in person, who owns it: its name, and the name and handle
// they go by there (their current ones to start with). Opens it once made. The server refuses it where
// its operator allows new workspaces only by invite (WORKSPACE_SIGNUP=invite); the caller offers it
// where `workspace.signUpOptions` says `mayCreate`.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { WORKSPACE_NAME_MAX } from "@switchboard/sdk/admin";
import { DISPLAY_NAME_MAX, HANDLE_PATTERN, HANDLE_RULE } from "@switchboard/sdk/contract";
import { workspacePath } from "@/components/nav/workspace-paths";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, TextInput } from "@/components/ui/field";

const HANDLE = new RegExp(`^${HANDLE_PATTERN}$`);
const FORM_ID = "create-workspace-form";

export function CreateWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateWorkspace(onClose);
  const close = () => {
    create.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Create a workspace"
      description="A new workspace you own, with its own people, agents and channels. You stay in your other workspaces."
      width="max-w-md"
      testId="create-workspace-dialog"
      footer={<DialogActions onCancel={close} label="Create workspace" form={FORM_ID} busy={create.isPending} testId="create-workspace-submit" />}
    >
      {open && <CreateWorkspaceForm create={create} />}
    </Dialog>
  );
}

function useCreateWorkspace(onCreated: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  return useMutation(
    trpc.workspaces.create.mutationOptions({
      onSuccess: ({ workspaceId }) => {
        void queryClient.invalidateQueries({ queryKey: trpc.workspaces.mine.queryKey() });
        onCreated();
        router.push(workspacePath(workspaceId, "/"));
      },
    }),
  );
}
type CreateWorkspace = ReturnType<typeof useCreateWorkspace>;

function CreateWorkspaceForm({ create }: { create: CreateWorkspace }) {
  const { me } = useViewer();
  const [name, setName] = useState("");
  const [displayName, setDisplayName] = useState(me.displayName);
  const [handle, setHandle] = useState(me.handle);
  const handleError = handle && !HANDLE.test(handle) ? HANDLE_RULE : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending || handleError) return;
    create.mutate({ name: name.trim(), displayName: displayName.trim(), handle });
  };

  return (
    <form id={FORM_ID} onSubmit={submit} className="space-y-4" data-testid={FORM_ID}>
      <FormError message={create.error ? errorMessage(create.error) : null} testId="create-workspace-error" />
      <Field label="Workspace name" hint="Your team, company or project.">
        <TextInput
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={WORKSPACE_NAME_MAX}
          placeholder="Acme Robotics"
          required
          autoFocus
          data-testid="create-workspace-name"
        />
      </Field>
      <Field label="Your name there">
        <TextInput
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
          maxLength={DISPLAY_NAME_MAX}
          autoComplete="name"
          required
          data-testid="create-workspace-display-name"
        />
      </Field>
      <Field label="Your handle there" error={handleError} hint="How people and agents of the new workspace @mention you.">
        <div className="relative">
          <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-zinc-500">@</span>
          <TextInput
            value={handle}
            onChange={(e) => setHandle(e.target.value.toLowerCase())}
            className="pl-7"
            required
            aria-invalid={handleError ? true : undefined}
            data-testid="create-workspace-handle"
          />
        </div>
      </Field>
    </form>
  );
}
