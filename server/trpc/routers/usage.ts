import { z } from "zod";
import * as budgets from "../../services/usage/budgets";
import * as reports from "../../services/usage/reports";
import * as usage from "../../services/usage/usage";
import { authedProcedure, router } from "../init";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD");
const range = z.strictObject({ from: day, to: day });
const query = range.extend({
  bucket: z.enum(["day", "week", "month"]).default("day"),
  agentId: z.string().min(1).max(64).optional(),
  ownerId: z.string().min(1).max(64).optional(),
  requesterId: z.string().min(1).max(64).optional(),
  roomId: z.string().min(1).max(64).optional(),
  taskId: z.string().min(1).max(128).optional(),
  model: z.string().min(1).max(100).optional(),
});
const participantId = z.string().min(1).max(64);
const money = z.number().min(0).max(1_000_000);

export const usageRouter = router({
  overview: authedProcedure.input(query).query(({ ctx, input }) => reports.usageOverview(ctx.actor, input)),
  room: authedProcedure.input(range.extend({ roomId: z.string().min(1).max(64) })).query(({ ctx, input }) => reports.roomUsage(ctx.actor, input.roomId, input)),
  task: authedProcedure.input(range.extend({ taskId: z.string().min(1).max(128) })).query(({ ctx, input }) => reports.taskUsage(ctx.actor, input.taskId, input)),
  exportCsv: authedProcedure
    .input(query.extend({ view: z.enum(["series", "byAgent", "byPerson", "byRequester", "byRoom", "byTask", "byModel", "detail"]) }))
    .query(({ ctx, input }) => {
      const { view, ...q } = input;
      return reports.exportUsage(ctx.actor, q, view);
    }),
  prices: authedProcedure.query(({ ctx }) => usage.listPrices(ctx.actor)),
  setPrice: authedProcedure
    .input(z.strictObject({ model: z.string().trim().min(1).max(100), inputPerMTok: money, outputPerMTok: money, cachedPerMTok: money.default(0) }))
    .mutation(({ ctx, input }) => usage.setPrice(ctx.actor, input)),
  deletePrice: authedProcedure.input(z.strictObject({ model: z.string().min(1).max(100) })).mutation(({ ctx, input }) => usage.deletePrice(ctx.actor, input.model)),
  budgets: authedProcedure
    .input(z.strictObject({ subjectId: participantId.optional() }).optional())
    .query(({ ctx, input }) => budgets.listBudgets(ctx.actor, input?.subjectId)),
  setBudget: authedProcedure
    .input(
      z.strictObject({
        subjectType: z.enum(["agent", "person"]),
        subjectId: participantId,
        period: z.enum(["day", "month"]),
        unit: z.enum(["usd", "tokens"]),
        amount: z.number().min(0).max(1_000_000_000),
      }),
    )
    .mutation(({ ctx, input }) => budgets.setBudget(ctx.actor, input)),
  deleteBudget: authedProcedure.input(z.strictObject({ budgetId: z.string().min(1).max(64) })).mutation(({ ctx, input }) => budgets.deleteBudget(ctx.actor, input.budgetId)),
  /** Budget pills for the participants a page shows; those the viewer may not see are left out. */
  budgetStates: authedProcedure
    .input(z.strictObject({ participantIds: z.array(participantId).max(500) }))
    .query(({ ctx, input }) => budgets.budgetStates(ctx.actor, input.participantIds)),
});
