"use client";
// A remote A2A agent joins as an agent the viewer owns: its card URL, and the credential it wants.
// Switchboard runs its bridge; there is no key to hand out.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { CONNECTION_MESSAGE_MAX, HANDLE_MAX, HANDLE_PATTERN, HEADER_NAME_PATTERN } from "@switchboard/sdk/contract";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, TextInput, inputClass } from "@/components/ui/field";
import { ParticipantPicker } from "@/components/rooms/participant-picker";

type CredentialKind = "none" | "bearer" | "header";

export function ConnectA2aDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const connect = useConnectA2a();
  const connected = connect.data ?? null;
  const close = () => {
    connect.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={connected ? `@${connected.agent.handle} is connected` : "Connect an A2A agent"}
      description={
        connected
          ? `${connected.card.name}: messages addressed to it are sent to it over A2A, in order, and its answers appear in the room.`
          : "A remote agent that speaks A2A joins the workspace as an agent you own."
      }
      testId="connect-a2a-dialog"
      width="max-w-xl"
      footer={
        <DialogActions
          onCancel={close}
          done={connected !== null}
          doneTestId="connect-a2a-done"
          label="Connect"
          form="connect-a2a-form"
          busy={connect.isPending}
          testId="connect-a2a-submit"
        />
      }
    >
      {open && !connected && <ConnectA2aForm connect={connect} />}
    </Dialog>
  );
}

function useConnectA2a() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.a2a.register.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.agents.mine.queryKey() });
        void queryClient.invalidateQueries(trpc.a2a.pathFilter());
        void queryClient.invalidateQueries(trpc.directory.pathFilter());
        void queryClient.invalidateQueries({ queryKey: trpc.workspace.participants.queryKey() });
      },
    }),
  );
}

function ConnectA2aForm({ connect }: { connect: ReturnType<typeof useConnectA2a> }) {
  const [cardUrl, setCardUrl] = useState("");
  const [handle, setHandle] = useState("");
  const [kind, setKind] = useState<CredentialKind>("none");
  const [header, setHeader] = useState("X-API-Key");
  const [secret, setSecret] = useState("");
  const [introduce, setIntroduce] = useState<string[]>([]);
  const [introduction, setIntroduction] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (connect.isPending) return;
    const credential = kind === "bearer" ? { kind, token: secret } : kind === "header" ? { kind, header: header.trim(), value: secret } : null;
    connect.mutate({
      cardUrl: cardUrl.trim(),
      ...(handle.trim() ? { handle: handle.trim() } : {}),
      credential,
      ...(introduce.length ? { introduceTo: { participantIds: introduce, message: introduction.trim() } } : {}),
    });
  };
  return (
    <form id="connect-a2a-form" onSubmit={submit} className="space-y-4" data-testid="connect-a2a-form">
      <FormError message={connect.error ? errorMessage(connect.error) : null} />
      <Field label="Agent card URL" hint="Its base URL (the card is at /.well-known/agent-card.json) or the card's own URL.">
        <TextInput
          value={cardUrl}
          required
          type="url"
          autoFocus
          placeholder="https://agent.example.com/.well-known/agent-card.json"
          data-testid="a2a-card-url"
          onChange={(e) => setCardUrl(e.target.value)}
        />
      </Field>
      <Field label="Handle" hint="Optional: taken from the card's name unless you choose one.">
        <TextInput
          value={handle}
          pattern={HANDLE_PATTERN}
          maxLength={HANDLE_MAX}
          placeholder="from the card"
          data-testid="a2a-handle"
          onChange={(e) => setHandle(e.target.value.toLowerCase())}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
        <Field label="Credential">
          <select value={kind} onChange={(e) => setKind(e.target.value as CredentialKind)} className={inputClass} data-testid="a2a-credential-kind">
            <option value="none">None</option>
            <option value="bearer">Bearer token</option>
            <option value="header">API key header</option>
          </select>
        </Field>
        {kind !== "none" && (
          <div className="grid gap-4 sm:grid-cols-2">
            {kind === "header" && (
              <Field label="Header">
                <TextInput
                  value={header}
                  required
                  pattern={HEADER_NAME_PATTERN}
                  data-testid="a2a-credential-header"
                  onChange={(e) => setHeader(e.target.value)}
                />
              </Field>
            )}
            <Field label={kind === "bearer" ? "Token" : "Value"} hint="Stored encrypted; never shown again.">
              <TextInput
                value={secret}
                required
                type="password"
                autoComplete="off"
                data-testid="a2a-credential-value"
                onChange={(e) => setSecret(e.target.value)}
              />
            </Field>
          </div>
        )}
      </div>
      <details className="rounded-lg border border-zinc-200 bg-zinc-50/50 px-3 py-2" data-testid="a2a-introduce">
        <summary className="cursor-pointer text-sm font-medium text-zinc-700">
          Introduce it {introduce.length > 0 && <span className="text-zinc-500">({introduce.length} chosen)</span>}
        </summary>
        <p className="mt-1 mb-2 text-xs text-zinc-500">It asks them to connect as soon as it joins; each decides in their inbox.</p>
        <ParticipantPicker selected={introduce} onChange={setIntroduce} />
        <div className="mt-3">
          <Field label="Its request says">
            <TextInput
              value={introduction}
              maxLength={CONNECTION_MESSAGE_MAX}
              placeholder="What it can do for them"
              data-testid="a2a-introduction"
              onChange={(e) => setIntroduction(e.target.value)}
            />
          </Field>
        </div>
      </details>
    </form>
  );
}
