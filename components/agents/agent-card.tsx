"use client";
// One agent the viewer owns: profile, status, consent policy, what it must ask first, keys, its
// runtime sessions, and the controls that manage them.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AgentView, ApiKeyView, ConsentPolicy } from "@switchboard/sdk/contract";
import { AgentSessions } from "@/components/bindings/agent-sessions";
import { useDirectory } from "@/components/providers/directory";
import { useSocket } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { Avatar } from "@/components/ui/avatar";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { KeyIcon } from "@/components/ui/extra-icons";
import { inputClass } from "@/components/ui/field";
import { MessageIcon, PencilIcon } from "@/components/ui/icons";
import { Pill, Tag } from "@/components/ui/pill";
import { dateTime, relativeTime } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { BudgetPill } from "@/components/usage/budget-pill";
import type { BudgetState } from "@/components/usage/types";
import { A2aRemotePanel } from "./a2a-remote-panel";
import { A2aServing } from "./a2a-serving";
import { ApprovalSettings } from "./approval-settings";
import { CONSENT_POLICIES, frameworkLabel } from "./labels";
import { KillSwitch } from "./suspend-dialog";
import { LifecycleBadge, lifecycleOf, PresenceBadge } from "@/components/ui/participant-states";
import { ScrollX } from "@/components/ui/scroll-x";
import { RenameAgentDialog } from "./rename-agent-dialog";
import { useRouter } from "@/components/nav/workspace-routing";

/** Its lifecycle in the shared words (components/ui/participant-states.tsx): active, suspended, never connected. */
export function AgentStatus({ agent }: { agent: Pick<AgentView, "status" | "lastSeenAt"> }) {
  return <LifecycleBadge lifecycle={lifecycleOf(agent)} testId="agent-status" />;
}

export function AgentCard({
  agent,
  budget,
  onRotate,
  onRevoke,
  onSuspend,
}: {
  agent: AgentView;
  /** The budget closest to its limit among the agent's own and its owner's, if any. */
  budget?: BudgetState;
  onRotate: () => void;
  onRevoke: (key: ApiKeyView) => void;
  onSuspend: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const { presence } = useSocket();
  const { byId } = useDirectory();
  const online = presence.get(agent.id) ?? byId.get(agent.id)?.online;
  const policy = useMutation(
    trpc.agents.setConsentPolicy.mutationOptions({
      onSuccess: (a) => {
        queryClient.setQueryData(trpc.agents.mine.queryKey(), (list) => list?.map((x) => (x.id === a.id ? a : x)));
        toast(`@${a.handle}: ${CONSENT_POLICIES.find((p) => p.value === a.consentPolicy)?.label.toLowerCase()}`);
      },
      onError: (e) => toast(errorMessage(e), "error"),
    }),
  );
  const message = useMutation(
    trpc.rooms.openDirect.mutationOptions({
      onSuccess: (room) => router.push(`/r/${room.id}`),
      onError: (e) => toast(errorMessage(e), "error"),
    }),
  );
  const [renaming, setRenaming] = useState(false);
  const suspended = agent.status === "suspended";
  const activeKeys = agent.keys.filter((k) => !k.revokedAt);
  const policyHint = CONSENT_POLICIES.find((p) => p.value === agent.consentPolicy)?.hint;

  return (
    <article
      className={`overflow-hidden rounded-xl border bg-white shadow-xs ${suspended ? "border-rose-200" : "border-zinc-200"}`}
      data-testid="agent-card"
      data-handle={agent.handle}
      data-status={agent.status}
    >
      {suspended && (
        <div className="flex items-center gap-2 bg-rose-50 px-4 py-2 text-sm text-rose-800 ring-1 ring-rose-100" role="status">
          <span className="h-1.5 w-1.5 rounded-full bg-rose-500" />
          Suspended: its keys are refused and it cannot send. Resume it to let it back in.
        </div>
      )}
      <div className="flex items-start gap-4 p-4">
        <Avatar id={agent.id} name={agent.displayName} kind="agent" size={44} online={online} />
        <div className="flex min-w-0 flex-1 flex-col gap-4 sm:flex-row sm:items-start">
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <h2 className="min-w-0 truncate text-[15px] font-semibold text-zinc-900" data-testid="agent-name">
                {agent.displayName}
              </h2>
              <span className="min-w-0 text-sm break-all text-zinc-500">@{agent.handle}</span>
              <PresenceBadge online={online === true} />
              <AgentStatus agent={agent} />
              <Pill tone="violet" testId="agent-framework-pill">
                {frameworkLabel(agent.framework)}
              </Pill>
              {budget && <BudgetPill state={budget} />}
            </div>
            {agent.description ? (
              <p className="mt-1 text-sm break-words text-zinc-600" data-testid="agent-description-text">
                {agent.description}
              </p>
            ) : (
              <p className="mt-1 text-sm text-zinc-500 italic">No description</p>
            )}
            {agent.capabilities.length > 0 && (
              <div className="mt-2 flex flex-wrap gap-1" aria-label="Capabilities">
                {agent.capabilities.map((c) => (
                  <Tag key={c}>{c}</Tag>
                ))}
              </div>
            )}
            <p className="mt-2 text-xs text-zinc-500" title={agent.lastSeenAt ? dateTime(agent.lastSeenAt) : undefined}>
              {online ? <span className="font-medium text-emerald-700">Online now</span> : <>Last seen {relativeTime(agent.lastSeenAt)}</>}
              {" · "}
              {activeKeys.length} active key{activeKeys.length === 1 ? "" : "s"}
            </p>
          </div>
          <div className="flex shrink-0 flex-wrap gap-2 sm:flex-col sm:items-stretch">
            <Button variant="secondary" size="sm" onClick={() => message.mutate({ participantIds: [agent.id] })} disabled={message.isPending || suspended}>
              {message.isPending ? <Spinner /> : <MessageIcon size={14} />} Message
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setRenaming(true)} data-testid="rename-agent">
              <PencilIcon size={14} /> Rename
            </Button>
            <Button variant="secondary" size="sm" onClick={onRotate} data-testid="rotate-key">
              <KeyIcon size={14} /> Rotate key
            </Button>
            <KillSwitch agent={agent} onSuspend={onSuspend} tone="quiet" />
          </div>
        </div>
      </div>

      <div className="space-y-4 border-t border-zinc-100 bg-zinc-50/50 p-4">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
          <label htmlFor={`policy-${agent.id}`} className="flex items-center gap-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
            Connection requests {policy.isPending && <Spinner className="h-3 w-3" />}
          </label>
          <div className="w-full sm:w-60">
            <select
              id={`policy-${agent.id}`}
              value={agent.consentPolicy}
              disabled={policy.isPending}
              onChange={(e) => policy.mutate({ agentId: agent.id, policy: e.target.value as ConsentPolicy })}
              className={`${inputClass} h-9`}
              data-testid="consent-policy"
            >
              {CONSENT_POLICIES.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
          <p className="text-xs text-zinc-500">{policyHint}</p>
        </div>
        <ApprovalSettings agentId={agent.id} handle={agent.handle} />
        {agent.framework === "a2a" && <A2aRemotePanel agentId={agent.id} />}
        <A2aServing agent={agent} />
        <KeysTable keys={agent.keys} onRevoke={onRevoke} />
        <AgentSessions agentId={agent.id} handle={agent.handle} />
      </div>
      <RenameAgentDialog agent={agent} open={renaming} onClose={() => setRenaming(false)} />
    </article>
  );
}

export function KeysTable({ keys, onRevoke }: { keys: ApiKeyView[]; onRevoke?: (key: ApiKeyView) => void }) {
  return (
    <div className="min-w-0">
      <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">API keys</h3>
      {keys.length === 0 ? (
        <p className="text-sm text-zinc-500">No keys. Rotate to issue one.</p>
      ) : (
        <ScrollX label="API keys (scrolls sideways)" className="overflow-hidden rounded-lg border border-zinc-200 bg-white">
          <table className="w-full text-left text-sm" data-testid="keys-table">
            <thead className="bg-zinc-50 text-xs whitespace-nowrap text-zinc-500">
              <tr>
                <th className="px-3 py-1.5 font-medium">Key</th>
                <th className="px-3 py-1.5 font-medium">Created</th>
                <th className="px-3 py-1.5 font-medium">Last used</th>
                <th className="px-3 py-1.5 font-medium">Status</th>
                {onRevoke && <th className="px-3 py-1.5" aria-label="Actions" />}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {keys.map((k) => (
                <tr key={k.id} data-testid="key-row" data-revoked={k.revokedAt ? "true" : "false"} className={k.revokedAt ? "text-zinc-500" : "text-zinc-700"}>
                  <td className="px-3 py-2 whitespace-nowrap">
                    <code className="font-mono text-[12.5px]">{k.prefix}…</code>
                    {k.label && <span className="ml-2 text-xs text-zinc-500">{k.label}</span>}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap" title={dateTime(k.createdAt)}>
                    {relativeTime(k.createdAt)}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap" title={k.lastUsedAt ? dateTime(k.lastUsedAt) : undefined}>
                    {relativeTime(k.lastUsedAt)}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">
                    {k.revokedAt ? <span title={dateTime(k.revokedAt)}>Revoked {relativeTime(k.revokedAt)}</span> : <Pill tone="emerald">Active</Pill>}
                  </td>
                  {onRevoke && (
                    <td className="px-3 py-1.5 text-right">
                      {!k.revokedAt && (
                        <button
                          type="button"
                          onClick={() => onRevoke(k)}
                          data-testid="revoke-key"
                          aria-label={`Revoke key ${k.prefix}`}
                          className="inline-flex h-7 items-center rounded-md px-2 text-sm font-medium text-rose-600 hover:bg-rose-50 hover:text-rose-700"
                        >
                          Revoke
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      )}
    </div>
  );
}
