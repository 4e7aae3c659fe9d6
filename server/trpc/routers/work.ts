import { z } from "zod";
import { setComponentMapInput, setWorkStatusInput } from "../../../sdk/work";
import * as components from "../../services/components";
import { workBoard } from "../../services/work-board";
import * as workStatus from "../../services/work-status";
import { authedProcedure, router } from "../init";

export const workRouter = router({
  /** The Work page: every agent's status, and the tasks, files, components and links the viewer may see. */
  board: authedProcedure.input(z.strictObject({ sinceHours: z.number().int().min(1).max(24 * 30).default(24) })).query(({ ctx, input }) => workBoard(ctx.actor, input)),
  /** Everyone's status that is not idle, for the badges beside names (then `status:updated` keeps them). */
  statuses: authedProcedure.query(({ ctx }) => workStatus.workspaceStatuses(ctx.actor.workspaceId)),
  /** A person's own status (an agent sets its own over the socket, `work:status`). */
  setStatus: authedProcedure.input(setWorkStatusInput).mutation(({ ctx, input }) => workStatus.setStatus(ctx.actor, input)),
  /** The component map (every member may read it); admins replace it. */
  components: authedProcedure.query(async ({ ctx }) => ({ components: await components.componentMap(ctx.actor.workspaceId) })),
  setComponents: authedProcedure.input(setComponentMapInput).mutation(({ ctx, input }) => components.setComponentMap(ctx.actor, input)),
});
