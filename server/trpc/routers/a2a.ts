// Remote A2A agents as participants (services/a2a/remotes.ts): register by card URL, list, change the
// credential, turn off and on, remove.
import * as r from "@switchboard/sdk/a2a-remotes";
import * as remotes from "../../services/a2a/remotes";
import { authedProcedure, router } from "../init";

export const a2aRouter = router({
  register: authedProcedure.input(r.registerA2aRemoteInput).mutation(({ ctx, input }) => remotes.registerA2aRemote(ctx.actor, input)),
  /** The viewer's remote agents (`mine`), or the workspace's (`all`, owners and admins). */
  remotes: authedProcedure.input(r.listA2aRemotesInput).query(({ ctx, input }) => remotes.listA2aRemotes(ctx.actor, input.scope)),
  updateCredential: authedProcedure.input(r.updateA2aCredentialInput).mutation(({ ctx, input }) => remotes.updateA2aCredential(ctx.actor, input)),
  setEnabled: authedProcedure.input(r.setA2aRemoteEnabledInput).mutation(({ ctx, input }) => remotes.setA2aRemoteEnabled(ctx.actor, input)),
  remove: authedProcedure.input(r.remoteAgentInput).mutation(({ ctx, input }) => remotes.removeA2aRemote(ctx.actor, input)),
});
