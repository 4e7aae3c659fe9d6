import { setNotificationPreferenceInput } from "@switchboard/sdk/contract";
import * as preferences from "../../services/notifications/preferences";
import { authedProcedure, router } from "../init";

/** The signed-in person's notification settings. */
export const notificationsRouter = router({
  /** `{ notifications, email }`: the preference, and whether this server sends email digests. */
  settings: authedProcedure.query(({ ctx }) => preferences.notificationSettings(ctx.actor)),
  setPreference: authedProcedure
    .input(setNotificationPreferenceInput)
    .mutation(({ ctx, input }) => preferences.setNotificationPreference(ctx.actor, input.notifications)),
});
