"use client";
// Sign-up: the first person also names the workspace; later people come with an invite token.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { DISPLAY_NAME_MAX, HANDLE_MAX, HANDLE_PATTERN, HANDLE_RULE } from "@switchboard/sdk/contract";
import { PASSWORD_MIN, WORKSPACE_NAME_MAX } from "@switchboard/sdk/admin";
import { Button, Spinner } from "@/components/ui/button";
import { appErrorOf } from "@/components/ui/errors";
import { Field, FormError, TextInput } from "@/components/ui/field";
import { signInAndEnter } from "./signin-form";

const HANDLE = new RegExp(`^${HANDLE_PATTERN}$`);

const handleFrom = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, "-")
    .replace(/[^a-z0-9_-]/g, "")
    .replace(/^[-_]+/, "")
    .slice(0, HANDLE_MAX);

export function SignUpForm({ mode, inviteToken }: { mode: "first-run" | "invite"; inviteToken?: string }) {
  const trpc = useTRPC();
  const [displayName, setDisplayName] = useState("");
  const [handle, setHandle] = useState("");
  const [handleEdited, setHandleEdited] = useState(false);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [workspaceName, setWorkspaceName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const signUp = useMutation(trpc.workspace.signUp.mutationOptions());
  const [entering, setEntering] = useState(false);

  const handleError = handle && !HANDLE.test(handle) ? HANDLE_RULE : null;
  const passwordError = password && password.length < PASSWORD_MIN ? `At least ${PASSWORD_MIN} characters` : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (handleError || passwordError) return;
    setError(null);
    try {
      await signUp.mutateAsync({
        displayName: displayName.trim(),
        handle,
        email: email.trim(),
        password,
        ...(mode === "first-run" ? { workspaceName: workspaceName.trim() || undefined } : { inviteToken }),
      });
    } catch (err) {
      setError(appErrorOf(err).message);
      return;
    }
    setEntering(true);
    const failure = await signInAndEnter(email.trim(), password);
    if (failure) {
      setEntering(false);
      setError(`Your account was created, but signing in failed: ${failure}`);
    }
  };

  const busy = signUp.isPending || entering;
  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" data-testid="signup-form">
      <FormError message={error} testId="signup-error" />
      <Field label="Your name">
        <TextInput
          required
          autoFocus
          maxLength={DISPLAY_NAME_MAX}
          autoComplete="name"
          value={displayName}
          onChange={(e) => {
            setDisplayName(e.target.value);
            if (!handleEdited) setHandle(handleFrom(e.target.value));
          }}
          placeholder="Ada Lovelace"
          data-testid="signup-name"
        />
      </Field>
      <Field label="Handle" error={handleError} hint="How people and agents @mention you.">
        <div className="relative">
          <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-zinc-500">@</span>
          <TextInput
            required
            value={handle}
            onChange={(e) => {
              setHandleEdited(true);
              setHandle(e.target.value.toLowerCase());
            }}
            className="pl-7"
            placeholder="ada"
            data-testid="signup-handle"
          />
        </div>
      </Field>
      <Field label="Email">
        <TextInput type="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} data-testid="signup-email" />
      </Field>
      <Field label="Password" error={passwordError} hint={`At least ${PASSWORD_MIN} characters.`}>
        <TextInput
          type="password"
          required
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          data-testid="signup-password"
        />
      </Field>
      {mode === "first-run" && (
        <Field label="Workspace name" hint="Your team, company or project. You can invite people next.">
          <TextInput
            required
            maxLength={WORKSPACE_NAME_MAX}
            value={workspaceName}
            onChange={(e) => setWorkspaceName(e.target.value)}
            placeholder="Acme Robotics"
            data-testid="signup-workspace"
          />
        </Field>
      )}
      <Button type="submit" className="w-full" disabled={busy} data-testid="signup-submit">
        {busy && <Spinner />} {mode === "first-run" ? "Create workspace" : "Join workspace"}
      </Button>
    </form>
  );
}
