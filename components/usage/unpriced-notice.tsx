"use client";
// Calls with neither a reported cost nor a price count as $0. Say so above the numbers, with how many
// calls and tokens and which models, so nobody takes an understated total for the real spend.
import { AlertIcon } from "@/components/ui/icons";
import { formatInt, formatTokens } from "./format";
import type { Totals } from "./types";

export function UnpricedNotice({ totals, models, canManage }: { totals: Totals; models: string[]; canManage: boolean }) {
  if (totals.unpricedCalls === 0) return null;
  const calls = totals.unpricedCalls;
  return (
    <div
      role="status"
      data-testid="unpriced-notice"
      data-calls={calls}
      data-tokens={totals.unpricedTokens}
      className="flex items-start gap-2.5 rounded-lg bg-amber-50 px-3.5 py-2.5 text-[13px] text-amber-900 ring-1 ring-amber-200 ring-inset"
    >
      <AlertIcon size={16} className="mt-px shrink-0 text-amber-500" />
      <p>
        <span className="font-semibold">Spend is understated.</span> {formatInt(calls)} call{calls === 1 ? "" : "s"} ({formatTokens(totals.unpricedTokens)}{" "}
        tokens)
        {models.length > 0 && (
          <>
            {" "}
            to <span className="font-mono text-[12px]">{models.join(", ")}</span>
          </>
        )}{" "}
        had no price and no reported cost, so {calls === 1 ? "it counts" : "they count"} as $0.{" "}
        {canManage ? "Add the models' prices below: calls reported from then on are priced." : "An owner or admin can add the models' prices."}
      </p>
    </div>
  );
}
