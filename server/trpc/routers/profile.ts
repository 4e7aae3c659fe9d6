import { updateProfileInput } from "@switchboard/sdk/admin";
import { setAvatarInput, setProfileStatusInput } from "@switchboard/sdk/profiles";
import * as profiles from "../../services/identity/profiles";
import { authedProcedure, router } from "../init";

/** The signed-in person's profile: name and handle, and the status beside their name. */
export const profileRouter = router({
  update: authedProcedure.input(updateProfileInput).mutation(({ ctx, input }) => profiles.updateProfile(ctx.actor, input)),
  setStatus: authedProcedure.input(setProfileStatusInput).mutation(({ ctx, input }) => profiles.setProfileStatus(ctx.actor, input)),
  /** A PNG, JPEG, GIF or WebP image as base64, at most AVATAR_MAX_BYTES. */
  setAvatar: authedProcedure.input(setAvatarInput).mutation(({ ctx, input }) => profiles.setAvatar(ctx.actor, input)),
  removeAvatar: authedProcedure.mutation(({ ctx }) => profiles.removeAvatar(ctx.actor)),
});
