// The usage dashboards' operations (tRPC `usage.*`): each input written once, as a zod schema the
// router validates with, the service takes the output of, and the dashboard builds from the URL.
import { z } from "zod";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD");
const id = z.string().min(1).max(64);
const taskId = z.string().min(1).max(128);
/** A model's name, at most. */
export const MODEL_NAME_MAX = 100;
const model = z.string().min(1).max(MODEL_NAME_MAX);
const money = z.number().min(0).max(1_000_000);

export const USAGE_BUCKETS = ["day", "week", "month"] as const;
export type UsageBucket = (typeof USAGE_BUCKETS)[number];

/** A UTC date range, both days inclusive. */
export const usageRangeInput = z.strictObject({ from: day, to: day });
export type UsageRange = z.output<typeof usageRangeInput>;

/** A dashboard's view: its range, its bucket and its filters (an agent, its owner, who asked, a room, a task, a model). */
export const usageQueryInput = usageRangeInput.extend({
  bucket: z.enum(USAGE_BUCKETS).default("day"),
  agentId: id.optional(),
  ownerId: id.optional(),
  requesterId: id.optional(),
  roomId: id.optional(),
  taskId: taskId.optional(),
  model: model.optional(),
});
/** What a client sends (the bucket may be left out) and what a service reads (the bucket filled in). */
export type UsageQueryInput = z.input<typeof usageQueryInput>;
export type UsageQuery = z.output<typeof usageQueryInput>;

export const roomUsageInput = usageRangeInput.extend({ roomId: id });
export const taskUsageInput = usageRangeInput.extend({ taskId });

export const USAGE_CSV_VIEWS = ["series", "byAgent", "byPerson", "byRequester", "byRoom", "byTask", "byModel", "detail"] as const;
export type UsageCsvView = (typeof USAGE_CSV_VIEWS)[number];
export const usageExportInput = usageQueryInput.extend({ view: z.enum(USAGE_CSV_VIEWS) });

/** A model's price per million tokens. */
export const setPriceInput = z.strictObject({
  model: z.string().trim().min(1).max(MODEL_NAME_MAX),
  inputPerMTok: money,
  outputPerMTok: money,
  cachedPerMTok: money.default(0),
});
export type SetPriceInput = z.output<typeof setPriceInput>;
export const deletePriceInput = z.strictObject({ model });

export const listBudgetsInput = z.strictObject({ subjectId: id.optional() }).optional();
/** A spending limit for an agent or a person, per day or month, in dollars or tokens. */
export const setBudgetInput = z.strictObject({
  subjectType: z.enum(["agent", "person"]),
  subjectId: id,
  period: z.enum(["day", "month"]),
  unit: z.enum(["usd", "tokens"]),
  amount: z.number().min(0).max(1_000_000_000),
});
export type SetBudgetInput = z.output<typeof setBudgetInput>;
export const deleteBudgetInput = z.strictObject({ budgetId: id });
/** The participants a page shows budget pills for. */
export const budgetStatesInput = z.strictObject({ participantIds: z.array(id).max(500) });
