"use client";
// An invite accepted by someone already signed in: their account joins the invite's workspace as a
// new person there, named as they choose (their current name and handle to start with), and opens it.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { DISPLAY_NAME_MAX, HANDLE_PATTERN, HANDLE_RULE } from "@switchboard/sdk/contract";
import { workspacePath } from "@/components/nav/workspace-paths";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { appErrorOf } from "@/components/ui/errors";
import { Field, FormError, TextInput } from "@/components/ui/field";

const HANDLE = new RegExp(`^${HANDLE_PATTERN}$`);

export function JoinWorkspaceForm({
  token,
  workspaceName,
  suggested,
  handleTaken,
}: {
  token: string;
  workspaceName: string;
  suggested: { handle: string; displayName: string } | null;
  /** The suggested handle is someone's in that workspace already. */
  handleTaken: boolean;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [displayName, setDisplayName] = useState(suggested?.displayName ?? "");
  const [handle, setHandle] = useState(suggested?.handle ?? "");
  const [takenHandle, setTakenHandle] = useState(handleTaken ? (suggested?.handle ?? null) : null);
  const [error, setError] = useState<string | null>(null);
  const join = useMutation(trpc.workspaces.joinByInvite.mutationOptions());

  const handleError = handle && !HANDLE.test(handle) ? HANDLE_RULE : handle === takenHandle ? `@${handle} is taken in ${workspaceName}: choose another` : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (handleError || join.isPending) return;
    setError(null);
    try {
      const { workspaceId } = await join.mutateAsync({ token, handle, displayName: displayName.trim() });
      router.push(workspacePath(workspaceId, "/"));
    } catch (err) {
      const app = appErrorOf(err);
      if (app.code === "NAME_TAKEN") setTakenHandle(handle);
      else if (app.code === "ALREADY_MEMBER")
        router.refresh(); // the page says so, with a link to it
      else setError(app.message);
    }
  };

  const busy = join.isPending || join.isSuccess;
  const name = displayName.trim() || "you";
  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" data-testid="join-workspace-form">
      <FormError message={error} testId="join-workspace-error" />
      <Field label="Your name there">
        <TextInput
          required
          maxLength={DISPLAY_NAME_MAX}
          autoComplete="name"
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
          data-testid="join-workspace-name"
        />
      </Field>
      <Field label="Your handle there" error={handleError} hint={`How people and agents of ${workspaceName} @mention you.`}>
        <div className="relative">
          <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-zinc-500">@</span>
          <TextInput
            required
            value={handle}
            onChange={(e) => setHandle(e.target.value.toLowerCase())}
            className="pl-7"
            aria-invalid={handleError ? true : undefined}
            autoFocus={handleTaken}
            data-testid="join-workspace-handle"
          />
        </div>
      </Field>
      <Button type="submit" className="w-full" disabled={busy} data-testid="join-workspace-submit">
        {busy && <Spinner />} Join {workspaceName} as {name}
      </Button>
    </form>
  );
}
