"use client";
// Budgets per agent or per person (their agents), per day or month, in dollars or tokens: spent
// against the amount, coloured by state (ok, warned at 80%, exceeded at 100%, when the agents are
// suspended). Owners and admins set and delete them. `budget:updated` refreshes the list live and
// raises a banner.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState, type FormEvent } from "react";
import type { BudgetView } from "@switchboard/sdk/contract";
import { useDirectory } from "@/components/providers/directory";
import { useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, inputClass } from "@/components/ui/field";
import { AlertIcon, PencilIcon, PlusIcon, TrashIcon, XIcon } from "@/components/ui/icons";
import { Segmented } from "@/components/ui/segmented";
import { ErrorState } from "@/components/ui/states";
import { toast } from "@/components/ui/toast";
import { WalletIcon } from "@/components/ui/usage-icons";
import { EntityIcon } from "./breakdowns";
import { formatInt, formatTokens, formatUsd } from "./format";
import { Card, Skeleton } from "./parts";

type Subject = { id: string; kind: "human" | "agent"; handle: string; displayName: string };

const periodWord = (p: BudgetView["period"]) => (p === "day" ? "daily" : "monthly");
const amountText = (b: Pick<BudgetView, "unit">, n: number) => (b.unit === "usd" ? formatUsd(n) : `${formatTokens(n)} tokens`);

/** "@scout" for an agent, "Maya Chen's agents" for a person. */
function subjectLabel(b: BudgetView, who: Subject | undefined): string {
  if (b.subjectType === "agent") return who ? `@${who.handle}` : "An agent";
  return who ? `${who.displayName}'s agents` : "A person's agents";
}

export function alertText(b: BudgetView, transition: "warned" | "exceeded", who: Subject | undefined): string {
  const label = subjectLabel(b, who);
  const whose = b.subjectType === "agent" ? "its" : "their";
  const spent = `${amountText(b, b.spent)} of ${amountText(b, b.amount)}`;
  return transition === "warned"
    ? `${label} reached 80% of ${whose} ${periodWord(b.period)} budget (${spent}).`
    : `${label} reached ${whose} ${periodWord(b.period)} budget (${spent}) and ${b.subjectType === "agent" ? "was" : "were"} suspended.`;
}

export interface BudgetAlert {
  key: string;
  transition: "warned" | "exceeded";
  budget: BudgetView;
}

/** Live budget transitions: refetch the list, and keep a banner per warned / exceeded budget. */
export function useBudgetAlerts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [alerts, setAlerts] = useState<BudgetAlert[]>([]);
  useSocketEvent("budget:updated", ({ budget, transition }) => {
    void queryClient.invalidateQueries(trpc.usage.budgets.pathFilter());
    // An exceeded budget suspends agents: their status elsewhere on the page follows.
    if (transition === "exceeded") void queryClient.invalidateQueries(trpc.workspace.participants.pathFilter());
    setAlerts((list) => {
      const others = list.filter((a) => a.budget.id !== budget.id);
      return transition === "ok" ? others : [{ key: `${budget.id}:${transition}`, transition, budget }, ...others].slice(0, 4);
    });
  });
  const dismiss = useCallback((key: string) => setAlerts((list) => list.filter((a) => a.key !== key)), []);
  return { alerts, dismiss };
}

export function BudgetAlerts({ alerts, onDismiss }: { alerts: BudgetAlert[]; onDismiss: (key: string) => void }) {
  const { byId, nameOf } = useDirectory();
  if (alerts.length === 0) return null;
  return (
    <div className="space-y-2" aria-live="polite">
      {alerts.map((a) => {
        const who = byId.get(a.budget.subjectId);
        if (!who) nameOf(a.budget.subjectId); // someone new: the directory refetches, the name follows
        return (
          <div
            key={a.key}
            role="status"
            data-testid="budget-alert"
            data-transition={a.transition}
            className={`animate-pop flex items-start gap-2.5 rounded-lg px-3.5 py-2.5 text-sm ring-1 ring-inset ${
              a.transition === "exceeded" ? "bg-rose-50 text-rose-800 ring-rose-200" : "bg-amber-50 text-amber-900 ring-amber-200"
            }`}
          >
            <AlertIcon size={17} className={`mt-px shrink-0 ${a.transition === "exceeded" ? "text-rose-500" : "text-amber-500"}`} />
            <span className="flex-1">{alertText(a.budget, a.transition, who)}</span>
            <button type="button" onClick={() => onDismiss(a.key)} aria-label="Dismiss" className="-mr-1 rounded p-0.5 opacity-60 hover:opacity-100">
              <XIcon size={15} />
            </button>
          </div>
        );
      })}
    </div>
  );
}

const STATE_STYLE: Record<BudgetView["state"], { bar: string; pill: string; label: string }> = {
  ok: { bar: "bg-emerald-500", pill: "bg-emerald-50 text-emerald-700 ring-emerald-200", label: "On track" },
  warned: { bar: "bg-amber-500", pill: "bg-amber-50 text-amber-800 ring-amber-200", label: "Over 80%" },
  exceeded: { bar: "bg-rose-500", pill: "bg-rose-50 text-rose-700 ring-rose-200", label: "Exceeded" },
};
const ORDER: Record<BudgetView["state"], number> = { exceeded: 0, warned: 1, ok: 2 };

export function BudgetsSection({ canManage }: { canManage: boolean }) {
  const trpc = useTRPC();
  const budgets = useQuery(trpc.usage.budgets.queryOptions());
  const { byId, participants } = useDirectory();
  const [editing, setEditing] = useState<BudgetView | "new" | null>(null);

  const list = useMemo(
    () => [...(budgets.data ?? [])].sort((a, b) => ORDER[a.state] - ORDER[b.state] || b.spent / (b.amount || 1) - a.spent / (a.amount || 1)),
    [budgets.data],
  );

  return (
    <Card
      title="Budgets"
      icon={<WalletIcon size={15} />}
      subtitle="At 80% the owner and admins are told; at 100% the agents are suspended until the budget is raised or the period ends (UTC)."
      testId="budgets"
      actions={
        canManage ? (
          <Button size="sm" variant="secondary" onClick={() => setEditing("new")} data-testid="open-budget-form">
            <PlusIcon size={15} /> Set a budget
          </Button>
        ) : undefined
      }
    >
      {budgets.isPending ? (
        <div className="space-y-3">
          {[0, 1].map((i) => (
            <Skeleton key={i} className="h-12" />
          ))}
        </div>
      ) : budgets.isError ? (
        <ErrorState error={budgets.error} onRetry={() => void budgets.refetch()} title="Couldn't load budgets" testId="budgets-error" />
      ) : list.length === 0 ? (
        <div className="rounded-lg border border-dashed border-zinc-300 bg-zinc-50/60 px-4 py-6 text-center text-sm text-zinc-500" data-testid="budgets-empty">
          {canManage
            ? "No budgets yet. Cap what an agent, or all of a person's agents, may spend per day or per month."
            : "No budgets apply to you or your agents."}
          {canManage && (
            <div className="mt-3">
              <Button size="sm" onClick={() => setEditing("new")}>
                <PlusIcon size={15} /> Set a budget
              </Button>
            </div>
          )}
        </div>
      ) : (
        <ul className="divide-y divide-zinc-100" data-testid="budget-list">
          {list.map((b) => {
            const who = byId.get(b.subjectId);
            const pct = b.amount > 0 ? b.spent / b.amount : b.spent > 0 ? 1 : 0;
            const style = STATE_STYLE[b.state];
            return (
              <li
                key={b.id}
                className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3 sm:flex-nowrap"
                data-testid="budget-row"
                data-state={b.state}
                data-subject={b.subjectId}
              >
                <EntityIcon kind={b.subjectType} id={b.subjectId} name={who?.displayName ?? "?"} size={30} />
                <div className="min-w-0 flex-1 sm:w-44 sm:flex-none">
                  <div className="truncate text-[13px] font-medium text-zinc-900">
                    {who ? (b.subjectType === "agent" ? who.displayName : `${who.displayName}'s agents`) : "Unknown"}
                  </div>
                  <div className="truncate text-xs text-zinc-500">
                    {periodWord(b.period)} · {b.unit === "usd" ? "dollars" : "tokens"}
                  </div>
                </div>
                <div className="order-last w-full min-w-0 sm:order-none sm:w-auto sm:flex-1">
                  <div
                    className="relative h-2 w-full overflow-hidden rounded-full bg-zinc-100"
                    role="meter"
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.round(pct * 100)}
                    aria-label="Budget used"
                  >
                    <div className={`h-full rounded-full transition-[width] duration-500 ${style.bar}`} style={{ width: `${Math.min(1, pct) * 100}%` }} />
                    <div className="absolute inset-y-0 left-[80%] w-px bg-zinc-400/60" title="80%: owner and admins are told" />
                  </div>
                  <div className="mt-1 flex justify-between text-xs text-zinc-500 tabular-nums">
                    <span data-testid="budget-spent">
                      <span className="font-semibold text-zinc-800">{amountText(b, b.spent)}</span> of {amountText(b, b.amount)}{" "}
                      {b.period === "day" ? "today" : "this month"}
                    </span>
                    <span
                      className={b.state === "ok" ? "" : "font-semibold text-zinc-700"}
                      title={b.unit === "tokens" ? `${formatInt(Math.round(b.spent))} of ${formatInt(b.amount)} tokens` : undefined}
                    >
                      {Math.round(pct * 100)}%
                    </span>
                  </div>
                </div>
                <span
                  className={`inline-flex w-20 shrink-0 justify-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${style.pill}`}
                  data-testid="budget-state"
                >
                  {style.label}
                </span>
                {canManage && <BudgetActions budget={b} onEdit={() => setEditing(b)} />}
              </li>
            );
          })}
        </ul>
      )}
      {canManage && (
        <BudgetDialog
          key={editing === null ? "closed" : editing === "new" ? "new" : editing.id}
          editing={editing}
          onClose={() => setEditing(null)}
          participants={participants}
          budgets={budgets.data ?? []}
        />
      )}
    </Card>
  );
}

/** Change or delete (after a confirmation, in place). Deleting leaves suspended agents suspended. */
function BudgetActions({ budget, onEdit }: { budget: BudgetView; onEdit: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(
    trpc.usage.deleteBudget.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries(trpc.usage.budgets.pathFilter());
        void queryClient.invalidateQueries(trpc.usage.budgetStates.pathFilter());
        toast(budget.state === "exceeded" ? "Budget deleted. Its suspended agents stay suspended until resumed." : "Budget deleted");
      },
      onError: (e) => toast(errorMessage(e), "error"),
    }),
  );
  if (confirming) {
    return (
      <span className="flex shrink-0 items-center gap-1">
        <span className="text-xs text-zinc-500">Delete?</span>
        <Button
          size="sm"
          variant="danger"
          onClick={() => remove.mutate({ budgetId: budget.id })}
          disabled={remove.isPending}
          data-testid="delete-budget-confirm"
        >
          {remove.isPending && <Spinner className="h-3.5 w-3.5" />} Delete
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
          Keep
        </Button>
      </span>
    );
  }
  return (
    <span className="flex shrink-0 gap-0.5">
      <button
        type="button"
        onClick={onEdit}
        className="rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-700"
        aria-label="Change budget"
        data-testid="edit-budget"
      >
        <PencilIcon size={15} />
      </button>
      <button
        type="button"
        onClick={() => setConfirming(true)}
        className="rounded-md p-1.5 text-zinc-500 hover:bg-rose-50 hover:text-rose-600"
        aria-label="Delete budget"
        data-testid="delete-budget"
      >
        <TrashIcon size={15} />
      </button>
    </span>
  );
}

function BudgetDialog({
  editing,
  onClose,
  participants,
  budgets,
}: {
  editing: BudgetView | "new" | null;
  onClose: () => void;
  participants: Subject[];
  budgets: BudgetView[];
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const existing = editing && editing !== "new" ? editing : null;
  const [subjectType, setSubjectType] = useState<"agent" | "person">(existing?.subjectType ?? "agent");
  const [subjectId, setSubjectId] = useState(existing?.subjectId ?? "");
  const [period, setPeriod] = useState<"day" | "month">(existing?.period ?? "day");
  const [unit, setUnit] = useState<"usd" | "tokens">(existing?.unit ?? "usd");
  const [amount, setAmount] = useState(existing ? String(existing.amount) : "");
  const [error, setError] = useState<string | null>(null);

  const choices = useMemo(
    () =>
      participants
        .filter((p) => (subjectType === "agent" ? p.kind === "agent" : p.kind === "human"))
        .sort((a, b) => a.displayName.localeCompare(b.displayName)),
    [participants, subjectType],
  );
  useEffect(() => {
    if (subjectId && !choices.some((c) => c.id === subjectId)) setSubjectId("");
  }, [choices, subjectId]);

  const save = useMutation(
    trpc.usage.setBudget.mutationOptions({
      onSuccess: (b) => {
        void queryClient.invalidateQueries(trpc.usage.budgets.pathFilter());
        toast(b.state === "exceeded" ? "Budget saved: already exceeded, so the agents are suspended" : "Budget saved");
        onClose();
      },
      onError: (e) => setError(errorMessage(e)),
    }),
  );

  const value = Number(amount);
  const same = budgets.find((b) => b.subjectId === subjectId && b.period === period && b.unit === unit);
  const belowSpent = same && amount !== "" && Number.isFinite(value) && value <= same.spent;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!subjectId) return setError(`Pick ${subjectType === "agent" ? "an agent" : "a person"}`);
    if (amount === "" || !Number.isFinite(value) || value <= 0) return setError("Enter an amount above zero");
    save.mutate({ subjectType, subjectId, period, unit, amount: unit === "tokens" ? Math.round(value) : value });
  };

  return (
    <Dialog
      open={editing !== null}
      onClose={onClose}
      title={existing ? "Change budget" : "Set a budget"}
      description="A cap on model spend per agent, or on all the agents a person owns."
      testId="budget-dialog"
      footer={
        <>
          <Button variant="secondary" size="sm" onClick={onClose}>
            Cancel
          </Button>
          <Button size="sm" type="submit" form="budget-form" disabled={save.isPending} data-testid="budget-submit">
            {save.isPending && <Spinner className="h-3.5 w-3.5" />} Save budget
          </Button>
        </>
      }
    >
      <form id="budget-form" onSubmit={submit} className="space-y-4">
        <div className="flex flex-wrap gap-x-6 gap-y-3">
          <div>
            <span className="mb-1.5 block text-sm font-medium text-zinc-800">Applies to</span>
            <Segmented
              label="Applies to"
              testId="budget-subject-type"
              value={subjectType}
              onChange={(k) => !existing && setSubjectType(k)}
              options={[
                { key: "agent", label: "An agent" },
                { key: "person", label: "A person's agents" },
              ]}
            />
          </div>
          <div>
            <span className="mb-1.5 block text-sm font-medium text-zinc-800">Period</span>
            <Segmented
              label="Period"
              testId="budget-period"
              value={period}
              onChange={setPeriod}
              options={[
                { key: "day", label: "Per day" },
                { key: "month", label: "Per month" },
              ]}
            />
          </div>
          <div>
            <span className="mb-1.5 block text-sm font-medium text-zinc-800">Unit</span>
            <Segmented
              label="Unit"
              testId="budget-unit"
              value={unit}
              onChange={setUnit}
              options={[
                { key: "usd", label: "Dollars" },
                { key: "tokens", label: "Tokens" },
              ]}
            />
          </div>
        </div>
        <Field label={subjectType === "agent" ? "Agent" : "Person"}>
          <select className={inputClass} value={subjectId} onChange={(e) => setSubjectId(e.target.value)} data-testid="budget-subject" disabled={!!existing}>
            <option value="">{subjectType === "agent" ? "Choose an agent…" : "Choose a person…"}</option>
            {choices.map((p) => (
              <option key={p.id} value={p.id}>
                {p.displayName} (@{p.handle})
              </option>
            ))}
          </select>
        </Field>
        <Field
          label={unit === "usd" ? "Amount (USD)" : "Amount (input + output tokens)"}
          hint={belowSpent ? undefined : `Resets every ${period === "day" ? "day" : "month"} at 00:00 UTC.`}
          error={
            belowSpent
              ? `Already ${unit === "usd" ? formatUsd(same.spent) : `${formatInt(same.spent)} tokens`} spent this ${period}: saving this suspends the agents at once.`
              : null
          }
        >
          <div className="relative">
            {unit === "usd" && <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-zinc-500">$</span>}
            <input
              type="number"
              inputMode="decimal"
              min={0}
              step={unit === "usd" ? 0.01 : 1000}
              className={`${inputClass} ${unit === "usd" ? "pl-7" : ""}`}
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              placeholder={unit === "usd" ? "25.00" : "2000000"}
              data-testid="budget-amount"
            />
          </div>
        </Field>
        <FormError message={error} testId="budget-error" />
      </form>
    </Dialog>
  );
}
