"use client";
// On a remote A2A agent's card: where its card is, how it is reached, whether its bridge runs (or why
// the remote cannot be reached), and the switch that stops and starts it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { Pill } from "@/components/ui/pill";
import { toast } from "@/components/ui/toast";

export function A2aRemotePanel({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remotes = useQuery({ ...trpc.a2a.remotes.queryOptions({ scope: "mine" }), refetchInterval: 10_000 });
  const remote = remotes.data?.find((r) => r.agent.id === agentId);
  const toggle = useMutation(
    trpc.a2a.setEnabled.mutationOptions({
      onSuccess: (r) => {
        void queryClient.invalidateQueries(trpc.a2a.pathFilter());
        toast(`@${r.agent.handle}: ${r.enabled ? "turned on" : "turned off; messages to it wait"}`);
      },
      onError: (e) => toast(errorMessage(e), "error"),
    }),
  );
  if (!remote) return null;
  const state = !remote.enabled
    ? { tone: "zinc" as const, text: "Off: messages to it wait" }
    : remote.lastError
      ? { tone: "amber" as const, text: `Unreachable, retrying: ${remote.lastError}` }
      : remote.running
        ? { tone: "emerald" as const, text: "Connected" }
        : { tone: "zinc" as const, text: "Starting" };
  const credential = !remote.credential
    ? "no credential"
    : remote.credential.kind === "bearer"
      ? "a bearer token"
      : `an API key in ${remote.credential.header}`;
  return (
    <div className="min-w-0" data-testid="a2a-remote-panel">
      <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Remote A2A agent</h3>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-sm text-zinc-700">
        <Pill tone={state.tone} dot testId="a2a-remote-state">
          {state.text}
        </Pill>
        <a
          href={remote.cardUrl}
          target="_blank"
          rel="noreferrer"
          className="truncate font-mono text-[12.5px] text-zinc-600 underline decoration-zinc-300 hover:text-zinc-900"
        >
          {remote.cardUrl}
        </a>
        <span className="text-xs text-zinc-500">
          {remote.card.name} {remote.card.version && `v${remote.card.version}`} · {remote.card.streaming ? "streams its answers" : "answers at once"} · sent
          with {credential}
        </span>
        <Button
          variant="secondary"
          size="sm"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate({ agentId, enabled: !remote.enabled })}
          data-testid="a2a-remote-toggle"
        >
          {toggle.isPending && <Spinner />} {remote.enabled ? "Turn off" : "Turn on"}
        </Button>
      </div>
    </div>
  );
}
