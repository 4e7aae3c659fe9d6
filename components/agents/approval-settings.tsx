"use client";
// What an agent must ask its owner before doing: opening a conversation, inviting, asking to connect,
// and spending past a daily amount. The owner's answer comes as a question in their direct
// conversation with the agent (and their Needs-you page); see server/services/approvals/approvals.ts.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { inputClass } from "@/components/ui/field";
import { toast } from "@/components/ui/toast";
import { GATED_ACTIONS, MAX_APPROVAL_SPEND_USD, type GatedAction } from "@switchboard/sdk/admin";

const LABELS: Record<GatedAction, string> = {
  "dm.open": "Opening a direct conversation",
  "room.invite": "Inviting someone to a room",
  "connection.request": "Asking someone to connect",
};
const ACTIONS = GATED_ACTIONS.map((value) => ({ value, label: LABELS[value] }));
type Action = GatedAction;

export function ApprovalSettings({ agentId, handle }: { agentId: string; handle: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.agents.approvals.queryOptions({ agentId }));
  const [spend, setSpend] = useState<string | null>(null); // the field while edited; null: as stored
  const key = trpc.agents.approvals.queryKey({ agentId });
  const save = useMutation(
    trpc.agents.setApprovals.mutationOptions({
      // Shown at once (a checkbox follows the click); put back if the server refuses.
      onMutate: async (next) => {
        await queryClient.cancelQueries({ queryKey: key }); // a fetch in flight must not overwrite it
        const before = queryClient.getQueryData(key);
        queryClient.setQueryData(key, { actions: next.actions, spendUsdPerDay: next.spendUsdPerDay ?? null });
        return { before };
      },
      onSuccess: (saved) => {
        queryClient.setQueryData(key, saved);
        setSpend(null);
        toast(`@${handle}: approvals saved`);
      },
      onError: (e, _next, context) => {
        if (context?.before) queryClient.setQueryData(key, context.before);
        toast(errorMessage(e), "error");
      },
    }),
  );
  if (settings.isLoading) return <Spinner className="h-4 w-4" />;
  if (!settings.data) return <p className="text-xs text-rose-600">{settings.error ? errorMessage(settings.error) : "Could not load approvals"}</p>;
  const { actions, spendUsdPerDay } = settings.data;
  const toggle = (action: Action, on: boolean) =>
    save.mutate({ agentId, actions: on ? [...actions, action] : actions.filter((a) => a !== action), spendUsdPerDay });
  const spendText = spend ?? (spendUsdPerDay === null ? "" : String(spendUsdPerDay));
  const spendValue = spendText.trim() === "" ? null : Number(spendText);
  const spendValid = spendValue === null || (Number.isFinite(spendValue) && spendValue >= 0 && spendValue <= MAX_APPROVAL_SPEND_USD);

  return (
    <fieldset className="flex flex-col gap-2" data-testid="approval-settings">
      <legend className="mb-1 flex items-center gap-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
        Ask me first {save.isPending && <Spinner className="h-3 w-3" />}
      </legend>
      <div className="flex flex-wrap gap-x-5 gap-y-1.5">
        {ACTIONS.map((a) => (
          <label key={a.value} className="flex items-center gap-2 text-sm text-zinc-700">
            <input
              type="checkbox"
              className="h-4 w-4 rounded border-zinc-300 text-indigo-600 focus:ring-indigo-500"
              checked={actions.includes(a.value)}
              onChange={(e) => toggle(a.value, e.target.checked)}
              data-testid={`approval-${a.value}`}
            />
            {a.label}
          </label>
        ))}
      </div>
      <form
        className="flex flex-wrap items-center gap-2 text-sm text-zinc-700"
        onSubmit={(e) => {
          e.preventDefault();
          if (spendValid) save.mutate({ agentId, actions, spendUsdPerDay: spendValue });
        }}
      >
        <label htmlFor={`spend-${agentId}`}>Spending more than</label>
        {/* "$ [amount] a day" as one piece, so that it never breaks across lines. */}
        <span className="inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap">
          $
          <input
            id={`spend-${agentId}`}
            inputMode="decimal"
            placeholder="no limit"
            value={spendText}
            onChange={(e) => setSpend(e.target.value)}
            className={`${inputClass.replace("w-full", "w-24")} h-8`}
            aria-invalid={!spendValid}
            data-testid="approval-spend"
          />
          a day
        </span>
        {spend !== null && (
          <Button type="submit" size="sm" variant="secondary" disabled={!spendValid} data-testid="approval-spend-save">
            Save
          </Button>
        )}
        {!spendValid && <span className="text-xs text-rose-600">A dollar amount, or empty for no limit</span>}
      </form>
      <p className="text-xs text-zinc-500">The agent waits; you answer in your direct conversation with it, or from Needs you.</p>
    </fieldset>
  );
}
