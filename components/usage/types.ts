// The usage API's answers as the browser sees them (inferred from the router, never redeclared).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

type Usage = inferRouterOutputs<AppRouter>["usage"];

export type Overview = Usage["overview"];
export type Totals = Overview["totals"];
export type SeriesPoint = Overview["series"][number];
/** One row of any breakdown (by agent, owner, requester, room, task or model). */
export interface BreakdownRow extends Totals {
  id: string | null;
  name: string;
}
export type RoomUsage = Usage["room"];
export type TaskUsage = Usage["task"];
export type Price = Usage["prices"][number];
/** Where a participant stands against the budget closest to its limit (for pills beside their name). */
export type BudgetState = Usage["budgetStates"][number];

/** What usage.exportCsv renders: a chart or breakdown of the screen, or `detail`, every dimension as a column. */
export type CsvView = "series" | "byAgent" | "byPerson" | "byRequester" | "byRoom" | "byTask" | "byModel" | "detail";
