import { involvementInput, setComponentMapInput, setWorkStatusInput, timelineInput, workBoardInput } from "@switchboard/sdk/work";
import * as components from "../../services/work/components";
import { involvement, involvementCsv } from "../../services/work/involvement";
import { workBoard } from "../../services/work/board";
import { workTimeline } from "../../services/work/timeline";
import * as workStatus from "../../services/work/status";
import { authedProcedure, router } from "../init";

export const workRouter = router({
  /** The Work page: every agent's status, and the tasks, files, components and links the viewer may see. */
  board: authedProcedure.input(workBoardInput).query(({ ctx, input }) => workBoard(ctx.actor, input)),
  /** Who drove a pull request, a branch or a task: people's and agents' parts in the conversations that produced it. */
  involvement: authedProcedure.input(involvementInput).query(({ ctx, input }) => involvement(ctx.actor, input)),
  /** The same as CSV, one row per participant (every figure a column). */
  involvementCsv: authedProcedure.input(involvementInput).query(async ({ ctx, input }) => ({ csv: involvementCsv(await involvement(ctx.actor, input)) })),
  /** A room's (or a thread's) or a task's timeline: tasks, files, links, messages and people's interventions, newest page first. */
  timeline: authedProcedure.input(timelineInput).query(({ ctx, input: { direction: _forward, ...input } }) => workTimeline(ctx.actor, input)),
  /** Everyone's status that is not idle, for the badges beside names (then `status:updated` keeps them). */
  statuses: authedProcedure.query(({ ctx }) => workStatus.workspaceStatuses(ctx.actor)),
  /** A person's own status (an agent sets its own over the socket, `work:status`). */
  setStatus: authedProcedure.input(setWorkStatusInput).mutation(({ ctx, input }) => workStatus.setStatus(ctx.actor, input)),
  /** The component map (every member may read it); admins replace it. */
  components: authedProcedure.query(async ({ ctx }) => ({ components: await components.componentMap(ctx.actor) })),
  setComponents: authedProcedure.input(setComponentMapInput).mutation(({ ctx, input }) => components.setComponentMap(ctx.actor, input)),
  /** What a draft map would make of the paths agents touched lately (admins, before saving). */
  previewComponents: authedProcedure.input(setComponentMapInput).query(({ ctx, input }) => components.previewComponentMap(ctx.actor, input)),
});
