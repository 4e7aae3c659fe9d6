"use client";
// A new access token: a name, a scope (read, or read and write) and an expiry; the answer carries the
// token itself, shown once, with a command that uses it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ACCESS_TOKEN_NAME_MAX, type AccessTokenScope, type AccessTokenView } from "@switchboard/sdk/contract";
import { useTRPC } from "@/components/providers/trpc";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { DaysSelect, Field, FormError, TextInput } from "@/components/ui/field";
import { KeyIcon } from "@/components/ui/icons";
import { CodeBlock, SecretBox } from "@/components/ui/secret-box";
import { Segmented } from "@/components/ui/segmented";
import { shortDate } from "@/components/ui/time";

const EXPIRY_DAYS = [7, 30, 90, 365];

export function curlSnippet(origin: string, token: string): string {
  return `curl -sS ${origin}/api/trpc/workspace.me \\\n  -H 'Authorization: Bearer ${token}'`;
}

export function CreateTokenDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateToken();
  const close = () => {
    create.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={create.data ? `"${create.data.accessToken.name}" is ready` : "New access token"}
      description={
        create.data ? "Give it to the script, the CLI or the MCP host that acts as you." : "For a script, the switchboard CLI or an MCP host that acts as you."
      }
      testId="create-token-dialog"
      width="max-w-xl"
      footer={
        <DialogActions
          onCancel={close}
          done={create.data !== undefined}
          doneTestId="create-token-done"
          label="Create token"
          icon={<KeyIcon size={15} />}
          form="create-token-form"
          busy={create.isPending}
          testId="create-token-submit"
        />
      }
    >
      {open && (create.data ? <TokenReveal token={create.data.token} view={create.data.accessToken} /> : <CreateTokenForm create={create} />)}
    </Dialog>
  );
}

function useCreateToken() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(trpc.tokens.create.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries(trpc.tokens.pathFilter()) }));
}
type CreateToken = ReturnType<typeof useCreateToken>;

function CreateTokenForm({ create }: { create: CreateToken }) {
  const [name, setName] = useState("");
  const [scope, setScope] = useState<AccessTokenScope>("read");
  const [days, setDays] = useState(30);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending) return;
    create.mutate({ name: name.trim(), scope, expiresInDays: days === 0 ? null : days });
  };
  return (
    <form id="create-token-form" onSubmit={submit} className="space-y-4" data-testid="create-token-form">
      <FormError message={create.error ? errorMessage(create.error) : null} />
      <Field label="Name" hint="For you: what uses it, e.g. “laptop CLI” or “CI reports”.">
        <TextInput
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={ACCESS_TOKEN_NAME_MAX}
          placeholder="laptop CLI"
          autoFocus
          data-testid="token-name"
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <span className="mb-1.5 block text-sm font-medium text-zinc-800">Scope</span>
          <Segmented
            label="Scope"
            value={scope}
            onChange={setScope}
            testId="token-scope-choice"
            options={[
              { key: "read", label: "Read only", title: "Reads, and moves your own read cursors" },
              { key: "write", label: "Read and write", title: "Does whatever you may do" },
            ]}
          />
          <span className="mt-1 block text-xs text-zinc-500">
            {scope === "read" ? "Sends, joins and changes nothing." : "Acts as you in everything your role allows."}
          </span>
        </div>
        <Field label="Expires after">
          <DaysSelect value={days} onChange={setDays} days={EXPIRY_DAYS} never="Never" testId="token-expiry" />
        </Field>
      </div>
    </form>
  );
}

function TokenReveal({ token, view }: { token: string; view: AccessTokenView }) {
  const origin = window.location.origin;
  return (
    <div className="space-y-4" data-testid="token-reveal">
      <SecretBox
        label={`Access token (${view.scope === "read" ? "read only" : "read and write"}${view.expiresAt ? `, valid until ${shortDate(view.expiresAt)}` : ", until you revoke it"})`}
        value={token}
        testId="access-token"
        warning={
          <>
            <strong className="font-semibold">Copy it now: you won&apos;t see it again.</strong> Only a hash is stored. Anyone holding it acts as you
            {view.scope === "read" ? " (reading only)" : ""} until it expires or you revoke it.
          </>
        }
      />
      <CodeBlock label="Try it" code={curlSnippet(origin, token)} testId="token-curl" />
      <p className="text-xs text-zinc-500">
        Sockets take it as <code className="font-mono">auth.apiKey</code>, HTTP as <code className="font-mono">Authorization: Bearer</code>. See{" "}
        <code className="font-mono">docs/protocol.md</code>.
      </p>
    </div>
  );
}
