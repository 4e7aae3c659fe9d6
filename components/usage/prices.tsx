"use client";
// The workspace's price table: dollars per million input, output and cached tokens per model, used
// when an agent does not report a call's cost itself. Owners and admins add, change and delete rows.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { CheckIcon, PencilIcon, PlusIcon, TrashIcon, XIcon } from "@/components/ui/icons";
import { ErrorState } from "@/components/ui/states";
import { relativeTime } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { PriceTagIcon } from "@/components/ui/usage-icons";
import { Card, Skeleton } from "./parts";
import type { Price } from "./types";
import { MODEL_NAME_MAX } from "@switchboard/sdk/usage";

interface Draft {
  model: string;
  inputPerMTok: string;
  outputPerMTok: string;
  cachedPerMTok: string;
}

const money = (n: number) => `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;
const cell =
  "h-8 w-full rounded-md border-0 bg-white px-2 text-right text-[13px] tabular-nums text-zinc-900 shadow-xs ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-indigo-500 focus:outline-none";

export function PricesSection({ canManage, unpriced }: { canManage: boolean; unpriced: string[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const prices = useQuery(trpc.usage.prices.queryOptions());
  const [draft, setDraft] = useState<(Draft & { isNew: boolean }) | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onSaved = (list: Price[]) => {
    queryClient.setQueryData(trpc.usage.prices.queryKey(), list);
    // New prices apply to calls reported from now on; refresh the unpriced hints.
    void queryClient.invalidateQueries(trpc.usage.overview.pathFilter());
  };
  const save = useMutation(
    trpc.usage.setPrice.mutationOptions({
      onSuccess: (list, input) => {
        onSaved(list);
        toast(`Price for ${input.model} saved`);
        setDraft(null);
        setError(null);
      },
      onError: (e) => setError(errorMessage(e)),
    }),
  );
  const remove = useMutation(
    trpc.usage.deletePrice.mutationOptions({
      onSuccess: (list, input) => {
        onSaved(list);
        toast(`Price for ${input.model} deleted`);
        setConfirming(null);
      },
      onError: (e) => toast(errorMessage(e), "error"),
    }),
  );

  const startNew = (model = "") => {
    setError(null);
    setDraft({ model, inputPerMTok: "", outputPerMTok: "", cachedPerMTok: "0", isNew: true });
  };
  const startEdit = (p: Price) => {
    setError(null);
    setDraft({
      model: p.model,
      inputPerMTok: String(p.inputPerMTok),
      outputPerMTok: String(p.outputPerMTok),
      cachedPerMTok: String(p.cachedPerMTok),
      isNew: false,
    });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    const nums = [draft.inputPerMTok, draft.outputPerMTok, draft.cachedPerMTok || "0"].map(Number);
    if (!draft.model.trim()) return setError("Name the model, exactly as agents report it");
    if (draft.inputPerMTok === "" || draft.outputPerMTok === "" || nums.some((n) => !Number.isFinite(n) || n < 0))
      return setError("Prices are dollars per million tokens, zero or more");
    save.mutate({ model: draft.model.trim(), inputPerMTok: nums[0], outputPerMTok: nums[1], cachedPerMTok: nums[2] });
  };

  const list = prices.data ?? [];
  const rows: (Price | null)[] = draft?.isNew ? [null, ...list] : list;

  return (
    <Card
      title="Model prices"
      icon={<PriceTagIcon size={15} />}
      subtitle="Dollars per million tokens. Used to price a call when the agent doesn't report its cost; changes apply to calls reported from then on."
      testId="prices"
      flush
      actions={
        canManage ? (
          <Button size="sm" variant="secondary" onClick={() => startNew()} disabled={!!draft?.isNew} data-testid="add-price">
            <PlusIcon size={15} /> Add model
          </Button>
        ) : undefined
      }
    >
      {unpriced.length > 0 && (
        <div className="mx-4 mb-3 rounded-lg bg-amber-50 px-3 py-2 text-[13px] text-amber-900 ring-1 ring-amber-200 ring-inset" data-testid="unpriced-models">
          <span className="font-medium">Not in the table:</span>{" "}
          {unpriced.map((m, i) => (
            <span key={m}>
              {i > 0 && ", "}
              {canManage ? (
                <button
                  type="button"
                  className="font-mono text-[12px] underline decoration-amber-400 underline-offset-2 hover:decoration-amber-700"
                  onClick={() => startNew(m)}
                >
                  {m}
                </button>
              ) : (
                <span className="font-mono text-[12px]">{m}</span>
              )}
            </span>
          ))}
          . Their calls count as $0 unless the agent reports the cost itself.
        </div>
      )}
      {prices.isPending ? (
        <div className="space-y-2 px-4 pb-4">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-8" />
          ))}
        </div>
      ) : prices.isError ? (
        <div className="px-4 pb-4">
          <ErrorState error={prices.error} onRetry={() => void prices.refetch()} title="Couldn't load prices" testId="prices-error" />
        </div>
      ) : (
        <form onSubmit={submit} className="overflow-x-auto">
          <table className="w-full min-w-[620px] text-sm" data-testid="price-table">
            <thead>
              <tr className="border-y border-zinc-100 bg-zinc-50/70 text-left text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">
                <th scope="col" className="py-2 pl-4 font-semibold">
                  Model
                </th>
                <th scope="col" className="w-32 py-2 pr-3 text-right font-semibold">
                  Input
                </th>
                <th scope="col" className="w-32 py-2 pr-3 text-right font-semibold">
                  Output
                </th>
                <th scope="col" className="w-32 py-2 pr-3 text-right font-semibold">
                  Cached input
                </th>
                <th scope="col" className="w-28 py-2 font-semibold">
                  Updated
                </th>
                {canManage && <th scope="col" className="w-32 py-2 pr-4" aria-label="Actions" />}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {list.length === 0 && !draft && (
                <tr>
                  <td colSpan={canManage ? 6 : 5} className="px-4 py-6 text-center text-sm text-zinc-500">
                    No prices yet: calls are free unless agents report their cost.
                  </td>
                </tr>
              )}
              {rows.map((p) => {
                const editingThis = draft && (p === null ? draft.isNew : !draft.isNew && draft.model === p.model);
                if (editingThis && draft) {
                  return (
                    <tr key={p?.model ?? "__new"} className="bg-indigo-50/40" data-testid="price-edit-row">
                      <td className="py-2 pr-3 pl-4">
                        {draft.isNew ? (
                          <input
                            autoFocus
                            className={`${cell} text-left font-mono`}
                            value={draft.model}
                            onChange={(e) => setDraft({ ...draft, model: e.target.value })}
                            placeholder="e.g. claude-sonnet-4.5"
                            aria-label="Model"
                            maxLength={MODEL_NAME_MAX}
                            data-testid="price-model"
                          />
                        ) : (
                          <span className="font-mono text-[12.5px] text-zinc-900">{draft.model}</span>
                        )}
                      </td>
                      {(["inputPerMTok", "outputPerMTok", "cachedPerMTok"] as const).map((k) => (
                        <td key={k} className="py-2 pr-3">
                          <div className="relative">
                            <span className="pointer-events-none absolute top-1/2 left-2 -translate-y-1/2 text-xs text-zinc-500">$</span>
                            <input
                              type="number"
                              min={0}
                              step="any"
                              inputMode="decimal"
                              className={cell}
                              value={draft[k]}
                              onChange={(e) => setDraft({ ...draft, [k]: e.target.value })}
                              aria-label={
                                k === "inputPerMTok"
                                  ? "Input $ per million tokens"
                                  : k === "outputPerMTok"
                                    ? "Output $ per million tokens"
                                    : "Cached input $ per million tokens"
                              }
                              data-testid={`price-${k}`}
                            />
                          </div>
                        </td>
                      ))}
                      <td className="py-2 text-xs text-zinc-500">per 1M tokens</td>
                      <td className="py-2 pr-4">
                        <span className="flex justify-end gap-1">
                          <Button size="sm" type="submit" disabled={save.isPending} data-testid="price-save" aria-label="Save price">
                            {save.isPending ? <Spinner className="h-3.5 w-3.5" /> : <CheckIcon size={15} />} Save
                          </Button>
                          <Button size="sm" variant="ghost" onClick={() => setDraft(null)} aria-label="Cancel">
                            <XIcon size={15} />
                          </Button>
                        </span>
                      </td>
                    </tr>
                  );
                }
                if (!p) return null;
                return (
                  <tr key={p.model} data-testid="price-row" data-model={p.model} className="group hover:bg-zinc-50/60">
                    <td className="py-2.5 pl-4 font-mono text-[12.5px] text-zinc-900">{p.model}</td>
                    <td className="py-2.5 pr-3 text-right text-zinc-700 tabular-nums">{money(p.inputPerMTok)}</td>
                    <td className="py-2.5 pr-3 text-right text-zinc-700 tabular-nums">{money(p.outputPerMTok)}</td>
                    <td className="py-2.5 pr-3 text-right text-zinc-700 tabular-nums">{money(p.cachedPerMTok)}</td>
                    <td className="py-2.5 text-xs text-zinc-500">{relativeTime(p.updatedAt)}</td>
                    {canManage && (
                      <td className="py-2 pr-4">
                        {confirming === p.model ? (
                          <span className="flex items-center justify-end gap-1">
                            <span className="text-xs text-zinc-500">Delete?</span>
                            <Button
                              size="sm"
                              variant="danger"
                              onClick={() => remove.mutate({ model: p.model })}
                              disabled={remove.isPending}
                              data-testid="price-delete-confirm"
                            >
                              Delete
                            </Button>
                            <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                              Keep
                            </Button>
                          </span>
                        ) : (
                          <span className="flex justify-end gap-0.5 opacity-60 group-hover:opacity-100">
                            <button
                              type="button"
                              onClick={() => startEdit(p)}
                              className="rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800"
                              aria-label={`Edit ${p.model}`}
                              data-testid="price-edit"
                            >
                              <PencilIcon size={15} />
                            </button>
                            <button
                              type="button"
                              onClick={() => setConfirming(p.model)}
                              className="rounded-md p-1.5 text-zinc-500 hover:bg-rose-50 hover:text-rose-600"
                              aria-label={`Delete ${p.model}`}
                              data-testid="price-delete"
                            >
                              <TrashIcon size={15} />
                            </button>
                          </span>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
          {error && (
            <p role="alert" className="px-4 py-2 text-xs text-rose-600" data-testid="price-error">
              {error}
            </p>
          )}
          <div className="h-2" />
        </form>
      )}
    </Card>
  );
}
