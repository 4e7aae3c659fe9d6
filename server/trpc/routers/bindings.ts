import { agentBindingsInput, bindingIdInput, roomBindingsInput } from "@switchboard/sdk/bindings";
import * as bindings from "../../services/work/bindings";
import { authedProcedure, router } from "../init";

export const bindingsRouter = router({
  /** The sessions bound in a room (the room header), for whoever may read the room. */
  ofRoom: authedProcedure.input(roomBindingsInput).query(({ ctx, input }) => bindings.roomBindings(ctx.actor, input)),
  /** An agent's bindings (its page): all to its owner and admins, else those in rooms the viewer reads. */
  ofAgent: authedProcedure.input(agentBindingsInput).query(({ ctx, input }) => bindings.agentBindings(ctx.actor, input)),
  /** Lets the session go: the agent's next message there starts a new one. */
  close: authedProcedure.input(bindingIdInput).mutation(({ ctx, input }) => bindings.closeBinding(ctx.actor, input)),
});
