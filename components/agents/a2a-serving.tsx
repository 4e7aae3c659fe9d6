"use client";
// Serving an agent over A2A (server/bridges/a2a/inbound): any A2A client of this workspace can then call
// it at its card's URL, with a key or token of the workspace and an accepted connection, and every
// request lands in a room as a thread that people can follow and join.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AgentView } from "@switchboard/sdk/contract";
import { useTRPC } from "@/components/providers/trpc";
import { Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { CopyButton } from "@/components/ui/secret-box";
import { toast } from "@/components/ui/toast";

export function A2aServing({ agent }: { agent: AgentView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mineKey = trpc.agents.mine.queryKey();
  const save = useMutation(
    trpc.agents.setA2aServed.mutationOptions({
      // The box follows the click at once, and goes back if the server refuses.
      onMutate: async ({ served }) => {
        await queryClient.cancelQueries({ queryKey: mineKey });
        queryClient.setQueryData(mineKey, (list) => list?.map((x) => (x.id === agent.id ? { ...x, a2aServed: served } : x)));
      },
      onSuccess: (a) => {
        queryClient.setQueryData(mineKey, (list) => list?.map((x) => (x.id === a.id ? a : x)));
        void queryClient.invalidateQueries({ queryKey: trpc.agents.all.queryKey() });
        toast(a.a2aServed ? `@${a.handle} is served over A2A` : `@${a.handle} is no longer served over A2A`);
      },
      onError: (e, { served }) => {
        queryClient.setQueryData(mineKey, (list) => list?.map((x) => (x.id === agent.id ? { ...x, a2aServed: !served } : x)));
        toast(errorMessage(e), "error");
      },
    }),
  );
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const cardUrl = `${origin}/a2a/${agent.handle}/.well-known/agent-card.json`;

  return (
    <div className="min-w-0" data-testid="a2a-serving">
      <h3 className="mb-1.5 flex items-center gap-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
        A2A {save.isPending && <Spinner className="h-3 w-3" />}
      </h3>
      <label className="flex items-start gap-2 text-sm text-zinc-700">
        <input
          type="checkbox"
          className="mt-0.5 h-4 w-4 rounded border-zinc-300"
          checked={agent.a2aServed}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ agentId: agent.id, served: e.target.checked })}
          data-testid="a2a-served"
        />
        <span>
          Serve over A2A
          <span className="block text-xs text-zinc-500">
            A2A clients with a key or token of this workspace and an accepted connection can send it tasks; each lands in a room as a thread.
          </span>
        </span>
      </label>
      {agent.a2aServed && (
        <div className="mt-2 flex min-w-0 items-center gap-2">
          <code
            className="min-w-0 truncate rounded-md border border-zinc-200 bg-white px-2 py-1 font-mono text-xs text-zinc-700"
            title={cardUrl}
            data-testid="a2a-served-card-url"
          >
            {cardUrl}
          </code>
          <CopyButton text={cardUrl} size="sm" label="Copy card URL" testId="copy-a2a-card" />
        </div>
      )}
    </div>
  );
}
