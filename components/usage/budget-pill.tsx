"use client";
// A participant's budget at a glance, beside their name: "budget 82% of $5/day", amber from 80%, red
// at 100% (when the budget suspends the agents). The title says whose budget it is and what was spent.
import { Pill, type Tone } from "@/components/ui/pill";
import { formatTokens, formatUsd, formatUsdCompact } from "./format";
import type { BudgetState } from "./types";

const TONE: Record<BudgetState["level"], Tone> = { ok: "zinc", warned: "amber", exceeded: "rose" };

export function BudgetPill({ state, className }: { state: BudgetState; className?: string }) {
  const b = state.budget;
  const amount = (n: number) => (b.unit === "usd" ? formatUsdCompact(n) : `${formatTokens(n)} tokens`);
  const per = b.period === "day" ? "day" : "month";
  const whose = state.participantId === b.subjectId ? (b.subjectType === "agent" ? "Its" : "Their") : "Its owner's";
  const spent = b.unit === "usd" ? formatUsd(b.spent) : `${formatTokens(b.spent)} tokens`;
  const title = [
    `${whose} ${b.period === "day" ? "daily" : "monthly"} budget: ${spent} of ${amount(b.amount)} spent this ${per}.`,
    state.level === "exceeded" ? "Reached: its agents are suspended until the budget is raised and they are resumed." : "",
    state.count > 1 ? `${state.count} budgets apply; this one is closest to its limit.` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <span className={`inline-flex min-w-0 ${className ?? ""}`} data-testid="budget-pill" data-level={state.level} data-used={state.used} data-budget={b.id}>
      <Pill tone={TONE[state.level]} dot={state.level !== "ok"} title={title}>
        budget {Math.round(state.used * 100)}% of {amount(b.amount)}/{per}
      </Pill>
    </span>
  );
}
