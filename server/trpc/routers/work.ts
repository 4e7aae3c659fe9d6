import { z } from "zod";
import { setComponentMapInput, setWorkStatusInput } from "../../../sdk/work";
import * as components from "../../services/work/components";
import { involvement, involvementCsv } from "../../services/work/involvement";
import { workBoard } from "../../services/work/board";
import { CURSOR_PATTERN } from "../../services/work/events";
import { MAX_TIMELINE_PAGE, TIMELINE_PAGE, workTimeline } from "../../services/work/timeline";
import * as workStatus from "../../services/work/status";
import { authedProcedure, router } from "../init";

const involvementInput = z.union([
  z.strictObject({ kind: z.enum(["pull_request", "branch"]), value: z.string().trim().min(1).max(1000) }),
  z.strictObject({ kind: z.literal("task"), taskId: z.string().min(1).max(64) }),
]);

const id = z.string().min(1).max(64);
const page = {
  /** The `nextCursor` of the page after the one wanted (the newest page without it). */
  cursor: z.string().max(120).regex(CURSOR_PATTERN, "not a timeline cursor").optional(),
  limit: z.number().int().min(1).max(MAX_TIMELINE_PAGE).default(TIMELINE_PAGE),
  /** tRPC's infinite queries add the page `direction`; pages only go forward, to earlier events. */
  direction: z.literal("forward").optional(),
};
const timelineInput = z.union([z.strictObject({ roomId: id, threadRootId: id.optional(), ...page }), z.strictObject({ taskId: id, ...page })]);

export const workRouter = router({
  /** The Work page: every agent's status, and the tasks, files, components and links the viewer may see. */
  board: authedProcedure.input(z.strictObject({ sinceHours: z.number().int().min(1).max(24 * 30).default(24) })).query(({ ctx, input }) => workBoard(ctx.actor, input)),
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
