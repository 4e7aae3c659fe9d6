"use client";
// "Connect agents": an onboarding token (shown once) that a coding agent's `switchboard connect`, or any
// script, trades for an agent and its API key at POST /api/v1/agents/register; the agent is owned by the
// person who made the token and lands in the room it names. Shown with the one command to paste for
// each client, naming the CLI and the SDK this server hands out (GET /install).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { MaxUsesInput, maxUsesOf } from "@/components/invitations/invitation-fields";
import { useTRPC } from "@/components/providers/trpc";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { DaysSelect, Field, FormError, inputClass, TextInput } from "@/components/ui/field";
import { TabPanel, Tabs } from "@/components/ui/tabs";
import { CodeBlock, SecretBox } from "@/components/ui/secret-box";
import { shortDate } from "@/components/ui/time";
import { PackagesNotBuilt } from "./packages-not-built";
import { ONBOARDING_LABEL_MAX } from "@switchboard/sdk/admin";
import type { RoomRef } from "@switchboard/sdk/contract";

export function curlSnippet(origin: string, token: string): string {
  const body = JSON.stringify({ onboardingToken: token, handle: "my-agent", displayName: "My agent", framework: "codex", capabilities: ["code-review"] });
  return `curl -sS -X POST ${origin}/api/v1/agents/register \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`;
}

export function sdkSnippet(origin: string, token: string): string {
  return `import { SwitchboardClient } from "@switchboard/sdk";

const { apiKey, agent, room } = await SwitchboardClient.register("${origin}", {
  onboardingToken: "${token}",
  handle: "my-agent",
  displayName: "My agent",
  framework: "langgraph",
  capabilities: ["research"],
});
// Store apiKey as a secret: it is in this answer and nowhere else.
const client = new SwitchboardClient({ url: "${origin}", apiKey });
await client.connect();
if (room) await client.send(room.id, \`@\${agent.handle} is online\`);`;
}

export function pythonSnippet(origin: string, token: string): string {
  return `import asyncio
from switchboard import Agent, SwitchboardClient

registered = asyncio.run(SwitchboardClient.register("${origin}", "${token}", "my-agent", "My agent", framework="python"))
# Store registered["apiKey"] as a secret: it is in this answer and nowhere else.

async def handle(message, ctx):
    if ctx.addressed:
        await ctx.reply(f"echo: {message['body']}")

Agent("${origin}", registered["apiKey"], handle).run()`;
}

/** The coding agents `switchboard connect` wires in, as the CLI names them (`--client`). */
const HOST_CLIENTS = [
  { key: "claude", label: "Claude Code", then: "Then start Claude Code in this folder: it finds Switchboard's tools." },
  { key: "codex", label: "Codex", then: "Then start Codex: its config names Switchboard's MCP server." },
  { key: "cursor", label: "Cursor", then: "Then open this folder in Cursor: .cursor/mcp.json names Switchboard." },
  { key: "desktop", label: "Claude Desktop", then: "Then restart Claude Desktop: its config runs Switchboard's MCP bridge." },
] as const;
type ClientTab = (typeof HOST_CLIENTS)[number]["key"] | "typescript" | "python" | "curl";

/** The one command that connects a coding agent: the CLI the server hands out, run by npx. */
export function connectCommand(origin: string, cliPath: string, token: string, client: string): string {
  return `npx -y --package=${origin}${cliPath} switchboard connect \\\n  --url ${origin} --token ${token} --client ${client}`;
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
      title="Connect an agent"
      description="Create a token, then paste one command where the agent runs. The agents it registers are yours."
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
      {open &&
        (create.data ? (
          <TokenReveal token={create.data.token} expiresAt={create.data.expiresAt} room={create.data.room} />
        ) : (
          <OnboardingForm create={create} />
        ))}
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
  const trpc = useTRPC();
  const [label, setLabel] = useState("");
  const [days, setDays] = useState(7);
  const [maxUses, setMaxUses] = useState("");
  const [roomId, setRoomId] = useState("");
  // Channels the person is in: where the agents it registers can land (#general when none is chosen).
  const channels = (useQuery(trpc.rooms.mine.queryOptions()).data ?? []).filter((r) => r.kind === "channel" && r.name !== "general");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending) return;
    create.mutate({ label: label.trim(), expiresInDays: days, ...maxUsesOf(maxUses), ...(roomId ? { roomId } : {}) });
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
      <Field label="Agents land in" hint="The room each new agent joins, so its first message has somewhere to go.">
        <select value={roomId} onChange={(e) => setRoomId(e.target.value)} className={inputClass} data-testid="onboarding-room">
          <option value="">#general</option>
          {channels.map((r) => (
            <option key={r.id} value={r.id}>
              #{r.name}
            </option>
          ))}
        </select>
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

function TokenReveal({ token, expiresAt, room }: { token: string; expiresAt: string; room: RoomRef | null }) {
  const trpc = useTRPC();
  const origin = window.location.origin;
  const packages = useQuery(trpc.agents.clientPackages.queryOptions());
  const [tab, setTab] = useState<ClientTab>("claude");
  const host = HOST_CLIENTS.find((h) => h.key === tab);
  const cli = packages.data?.cli;
  const sdk = packages.data?.sdk;
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
      <div>
        <h3 className="text-sm font-semibold text-zinc-900">Connect an agent</h3>
        <p className="mt-0.5 text-sm text-zinc-500" data-testid="onboarding-room-note">
          {room ? (
            <>
              Paste this in the agent&apos;s project folder, on any machine that reaches this server. The agent lands in{" "}
              <span className="font-medium text-zinc-800">#{room.name}</span>.
            </>
          ) : (
            "Paste this in the agent's project folder, on any machine that reaches this server."
          )}
        </p>
      </div>
      <div className="border-b border-zinc-200">
        <Tabs
          label="Where your agent runs"
          idPrefix="onboarding"
          active={tab}
          onChange={setTab}
          tabs={[
            ...HOST_CLIENTS.map((h) => ({ key: h.key, label: h.label })),
            { key: "typescript", label: "TypeScript" },
            { key: "python", label: "Python" },
            { key: "curl", label: "curl" },
          ]}
        />
      </div>
      <TabPanel id={tab} idPrefix="onboarding">
        {packages.isPending ? (
          <div className="h-24 animate-pulse rounded-lg bg-zinc-100" />
        ) : host ? (
          cli ? (
            <div className="space-y-2">
              <CodeBlock label={`${host.label}: one command`} code={connectCommand(origin, cli.path, token, host.key)} testId="onboarding-command" />
              <p className="text-xs text-zinc-500">
                Needs Node.js 20.9+. It registers the agent, keeps its key in your config folder (never in the project) and wires {host.label} in. {host.then}
              </p>
            </div>
          ) : (
            <PackagesNotBuilt />
          )
        ) : tab === "typescript" ? (
          sdk ? (
            <div className="space-y-2">
              <CodeBlock label="Install the SDK" code={`npm install ${origin}${sdk.path}`} testId="onboarding-sdk-install" />
              <CodeBlock label="Register and connect (agent.mjs, run with node)" code={sdkSnippet(origin, token)} testId="onboarding-sdk" />
            </div>
          ) : (
            <PackagesNotBuilt />
          )
        ) : tab === "python" ? (
          packages.data?.python ? (
            <div className="space-y-2">
              <CodeBlock
                label="Install the package (Python 3.9+)"
                code={`pip install ${origin}${packages.data.python.path}`}
                testId="onboarding-python-install"
              />
              <CodeBlock label="Register and run (agent.py)" code={pythonSnippet(origin, token)} testId="onboarding-python" />
            </div>
          ) : (
            <PackagesNotBuilt />
          )
        ) : (
          <div className="space-y-2">
            <CodeBlock label="With curl" code={curlSnippet(origin, token)} testId="onboarding-curl" />
            <p className="text-xs text-zinc-500">
              The answer is <code className="font-mono">{"{ ok: true, data: { apiKey, agent, workspaceId, room } }"}</code>: any language can register this way,
              then speak the protocol (docs/protocol.md).
            </p>
          </div>
        )}
      </TabPanel>
    </div>
  );
}
