// The work API's answers as the browser sees them (inferred from the router, never redeclared).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

export type Board = inferRouterOutputs<AppRouter>["work"]["board"];
export type AgentWork = Board["agents"][number];
export type ComponentWork = Board["components"][number];
export type WorkConflict = Board["conflicts"][number];
export type FileSummary = AgentWork["files"][number];
export type Involvement = inferRouterOutputs<AppRouter>["work"]["involvement"];
export type ParticipantPart = Involvement["people"][number];
export type Timeline = inferRouterOutputs<AppRouter>["work"]["timeline"];
export type WorkEvent = Timeline["events"][number];
export type RoomName = Timeline["rooms"][number];
