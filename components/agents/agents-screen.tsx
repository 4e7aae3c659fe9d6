"use client";
// /agents: the agents the viewer owns, with creation, keys, the kill switch, consent policies and
// programmatic onboarding.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AgentView, ApiKeyView } from "@switchboard/sdk/contract";
import { PageFrame } from "@/components/nav/page-frame";
import { useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Button } from "@/components/ui/button";
import { TerminalIcon } from "@/components/ui/extra-icons";
import { BotIcon, PlusIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { useBudgetStates } from "@/components/usage/use-budget-states";
import { AgentCard } from "./agent-card";
import { ConnectA2aDialog } from "./connect-a2a-dialog";
import { CreateAgentDialog } from "./create-agent-dialog";
import { RevokeKeyDialog, RotateKeyDialog } from "./key-dialogs";
import { OnboardingDialog } from "./onboarding-dialog";
import { OnboardingTokens } from "./onboarding-tokens";
import { SuspendDialog } from "./suspend-dialog";

export function AgentsScreen() {
  const { can } = useViewer();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const agents = useQuery({ ...trpc.agents.mine.queryOptions(), refetchInterval: 60_000 });
  const [dialog, setDialog] = useState<"create" | "onboard" | "a2a" | null>(null);
  const [rotating, setRotating] = useState<AgentView | null>(null);
  const [revoking, setRevoking] = useState<{ agent: AgentView; key: ApiKeyView } | null>(null);
  const [suspending, setSuspending] = useState<AgentView | null>(null);

  // A suspension or resume by an admin elsewhere shows at once.
  useSocketEvent("participant:updated", ({ participant }) => {
    if (agents.data?.some((a) => a.id === participant.id)) void queryClient.invalidateQueries({ queryKey: trpc.agents.mine.queryKey() });
  });

  const list = agents.data ?? [];
  const suspended = list.filter((a) => a.status === "suspended").length;
  const budgets = useBudgetStates(list.map((a) => a.id));

  return (
    <PageFrame
      title="My agents"
      icon={<BotIcon size={18} />}
      subtitle={agents.data ? `${list.length} agent${list.length === 1 ? "" : "s"}${suspended ? ` · ${suspended} suspended` : ""}` : "Agents you own"}
      testId="agents-page"
      actions={
        can.createAgent && (
          <>
            <Button
              size="sm"
              onClick={() => setDialog("onboard")}
              data-testid="open-onboarding"
              aria-label="Connect an agent"
              title="Connect a coding agent or a script with one command"
            >
              <TerminalIcon size={15} /> <span className="max-sm:hidden">Connect an agent</span>
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => setDialog("a2a")}
              data-testid="open-connect-a2a"
              aria-label="Connect an A2A agent"
              title="Connect an A2A agent"
            >
              <PlusIcon size={15} /> <span className="max-sm:hidden">Connect an A2A agent</span>
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setDialog("create")} data-testid="open-create-agent">
              <PlusIcon size={15} /> Create agent
            </Button>
          </>
        )
      }
    >
      <p className="mb-5 text-sm text-zinc-600">
        Each agent acts under its own name with its own API keys. You decide who may connect to it, and you can stop it at once with{" "}
        <strong className="font-semibold">Suspend</strong>.
      </p>
      {agents.isPending ? (
        <SkeletonRows rows={3} />
      ) : agents.isError ? (
        <ErrorState error={agents.error} onRetry={() => void agents.refetch()} title="Couldn't load your agents" />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<BotIcon size={22} />}
          title="You don't have any agents yet"
          body={
            can.createAgent
              ? "Connect a coding agent (Claude Code, Codex, Cursor, Claude Desktop) or a script with one command, or create one here and give its API key to the process that runs it."
              : "Guests take part in rooms; members create agents."
          }
          testId="agents-empty"
        >
          {can.createAgent && (
            <>
              <Button size="sm" onClick={() => setDialog("onboard")}>
                <TerminalIcon size={15} /> Connect an agent
              </Button>
              <Button variant="secondary" size="sm" onClick={() => setDialog("create")}>
                <PlusIcon size={15} /> Create agent
              </Button>
            </>
          )}
        </EmptyState>
      ) : (
        <div className="space-y-4" data-testid="agents-list">
          {list.map((agent) => (
            <AgentCard
              key={agent.id}
              agent={agent}
              budget={budgets.get(agent.id)}
              onRotate={() => setRotating(agent)}
              onRevoke={(key) => setRevoking({ agent, key })}
              onSuspend={() => setSuspending(agent)}
            />
          ))}
        </div>
      )}
      <OnboardingTokens />

      <CreateAgentDialog open={dialog === "create"} onClose={() => setDialog(null)} />
      <OnboardingDialog open={dialog === "onboard"} onClose={() => setDialog(null)} />
      <ConnectA2aDialog open={dialog === "a2a"} onClose={() => setDialog(null)} />
      <RotateKeyDialog agent={rotating} onClose={() => setRotating(null)} />
      <RevokeKeyDialog target={revoking} onClose={() => setRevoking(null)} />
      <SuspendDialog agent={suspending} onClose={() => setSuspending(null)} />
    </PageFrame>
  );
}
