import type { BudgetView } from "../../sdk/contract";

interface BudgetRow {
  id: string;
  subjectType: string;
  subjectId: string;
  period: string;
  unit: string;
  amount: number;
  state: string;
}

/** A budget with what was spent against it in its current period (`spent`: dollars or tokens, as its unit). */
export function presentBudget(b: BudgetRow, spent: number): BudgetView {
  return {
    id: b.id,
    subjectType: b.subjectType as BudgetView["subjectType"],
    subjectId: b.subjectId,
    period: b.period as BudgetView["period"],
    unit: b.unit as BudgetView["unit"],
    amount: b.amount,
    spent: Math.round(spent * 1e6) / 1e6,
    state: b.state as BudgetView["state"],
  };
}
