import * as u from "@switchboard/sdk/usage";
import * as budgets from "../../services/usage/budgets";
import * as reports from "../../services/usage/reports";
import * as usage from "../../services/usage/usage";
import { authedProcedure, router } from "../init";

export const usageRouter = router({
  overview: authedProcedure.input(u.usageQueryInput).query(({ ctx, input }) => reports.usageOverview(ctx.actor, input)),
  room: authedProcedure.input(u.roomUsageInput).query(({ ctx, input }) => reports.roomUsage(ctx.actor, input.roomId, input)),
  task: authedProcedure.input(u.taskUsageInput).query(({ ctx, input }) => reports.taskUsage(ctx.actor, input.taskId, input)),
  exportCsv: authedProcedure.input(u.usageExportInput).query(({ ctx, input }) => {
    const { view, ...q } = input;
    return reports.exportUsage(ctx.actor, q, view);
  }),
  prices: authedProcedure.query(({ ctx }) => usage.listPrices(ctx.actor)),
  setPrice: authedProcedure.input(u.setPriceInput).mutation(({ ctx, input }) => usage.setPrice(ctx.actor, input)),
  deletePrice: authedProcedure.input(u.deletePriceInput).mutation(({ ctx, input }) => usage.deletePrice(ctx.actor, input.model)),
  budgets: authedProcedure.input(u.listBudgetsInput).query(({ ctx, input }) => budgets.listBudgets(ctx.actor, input?.subjectId)),
  setBudget: authedProcedure.input(u.setBudgetInput).mutation(({ ctx, input }) => budgets.setBudget(ctx.actor, input)),
  deleteBudget: authedProcedure.input(u.deleteBudgetInput).mutation(({ ctx, input }) => budgets.deleteBudget(ctx.actor, input.budgetId)),
  /** Budget pills for the participants a page shows; those the viewer may not see are left out. */
  budgetStates: authedProcedure.input(u.budgetStatesInput).query(({ ctx, input }) => budgets.budgetStates(ctx.actor, input.participantIds)),
});
