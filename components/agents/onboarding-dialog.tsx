"use client";
// "Onboard programmatically": an onboarding token (shown once) that a script trades for an agent and
// its API key at POST /api/v1/agents/register; the agent is owned by the person who made the token.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { MaxUsesInput, maxUsesOf } from "@/components/invitations/invitation-fields";
import { useTRPC } from "@/components/providers/trpc";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { DaysSelect, Field, FormError, TextInput } from "@/components/ui/field";
import { CodeBlock, SecretBox } from "@/components/ui/secret-box";
import { shortDate } from "@/components/ui/time";
import { ONBOARDING_LABEL_MAX } from "@switchboard/sdk/admin";

export function curlSnippet(origin: string, token: string): string {
  const body = JSON.stringify({ onboardingToken: token, handle: "my-agent", displayName: "My agent", framework: "codex", capabilities: ["code-review"] });
  return `curl -sS -X POST ${origin}/api/v1/agents/register \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`;
}

export function sdkSnippet(origin: string, token: string): string {
  return `import { SwitchboardClient } from "@switchboard/sdk";

const { apiKey, agent } = await SwitchboardClient.register("${origin}", {
  onboardingToken: "${token}",
  handle: "my-agent",
  displayName: "My agent",
  framework: "langgraph",
  capabilities: ["research"],
});
// Store apiKey as a secret: it is in this answer and nowhere else.
const client = new SwitchboardClient({ url: "${origin}", apiKey });
await client.connect();
console.log(\`@\${agent.handle} is online\`);`;
}

export function OnboardingDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateToken();
  const close = () => {
    create.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Onboard agents programmatically"
      description="A script registers itself with a token you create here. The agents it registers are yours."
      testId="onboarding-dialog"
      width="max-w-2xl"
      footer={
        <DialogActions
          onCancel={close}
          done={create.data !== undefined}
          doneTestId="onboarding-done"
          label="Create token"
          form="onboarding-form"
          busy={create.isPending}
          testId="create-onboarding-token"
        />
      }
    >
      {open && (create.data ? <TokenReveal token={create.data.token} expiresAt={create.data.expiresAt} /> : <OnboardingForm create={create} />)}
    </Dialog>
  );
}

function useCreateToken() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.agents.createOnboardingToken.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries(trpc.agents.onboardingTokens.pathFilter()) }),
  );
}
type CreateToken = ReturnType<typeof useCreateToken>;

function OnboardingForm({ create }: { create: CreateToken }) {
  const [label, setLabel] = useState("");
  const [days, setDays] = useState(7);
  const [maxUses, setMaxUses] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending) return;
    create.mutate({ label: label.trim(), expiresInDays: days, ...maxUsesOf(maxUses) });
  };
  return (
    <form id="onboarding-form" onSubmit={submit} className="space-y-4">
      <FormError message={create.error ? errorMessage(create.error) : null} />
      <Field label="Label" hint="For you: where this token is used.">
        <TextInput
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          maxLength={ONBOARDING_LABEL_MAX}
          placeholder="CI runners"
          autoFocus
          data-testid="onboarding-label"
        />
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field label="Expires after">
          <DaysSelect value={days} onChange={setDays} days={[1, 7, 30, 90]} testId="onboarding-expiry" />
        </Field>
        <Field label="Max agents" hint="Empty: no limit until it expires.">
          <MaxUsesInput value={maxUses} onChange={setMaxUses} placeholder="No limit" testId="onboarding-max-uses" />
        </Field>
      </div>
    </form>
  );
}

function TokenReveal({ token, expiresAt }: { token: string; expiresAt: string }) {
  const origin = window.location.origin;
  return (
    <div className="space-y-4" data-testid="onboarding-reveal">
      <SecretBox
        label={`Onboarding token (valid until ${shortDate(expiresAt)})`}
        value={token}
        testId="onboarding-token"
        warning={
          <>
            <strong className="font-semibold">Copy it now: you won&apos;t see this again.</strong> Anyone holding it can register agents owned by you until it
            expires.
          </>
        }
      />
      <CodeBlock label="With curl" code={curlSnippet(origin, token)} testId="onboarding-curl" />
      <CodeBlock label="With the TypeScript SDK" code={sdkSnippet(origin, token)} testId="onboarding-sdk" />
      <p className="text-xs text-zinc-500">
        The answer is <code className="font-mono">{"{ ok: true, data: { apiKey, agent, workspaceId } }"}</code>. See{" "}
        <code className="font-mono">docs/protocol.md</code>.
      </p>
    </div>
  );
}
