import type { BudgetView } from "@switchboard/sdk/contract";

type BudgetRow = Omit<BudgetView, "spent">;

/** A budget with what was spent against it in its current period (`spent`: dollars or tokens, as its unit). */
export function presentBudget(b: BudgetRow, spent: number): BudgetView {
  return {
    id: b.id,
    subjectType: b.subjectType,
    subjectId: b.subjectId,
    period: b.period,
    unit: b.unit,
    amount: b.amount,
    spent: Math.round(spent * 1e6) / 1e6,
    state: b.state,
  };
}
