import { setNotificationPreferenceInput } from "@switchboard/sdk/contract";
import * as alerts from "../../services/notifications/alerts";
import * as preferences from "../../services/notifications/preferences";
import { authedProcedure, router } from "../init";

/** The signed-in person's notification settings, and the alerts the Inbox lists. */
export const notificationsRouter = router({
  /** The last two weeks' news of the person's budget, agents and connection requests, newest first. */
  alerts: authedProcedure.query(({ ctx }) => alerts.recentAlerts(ctx.actor)),
  /** `{ notifications, email }`: the preference, and whether this server sends email digests. */
  settings: authedProcedure.query(({ ctx }) => preferences.notificationSettings(ctx.actor)),
  setPreference: authedProcedure
    .input(setNotificationPreferenceInput)
    .mutation(({ ctx, input }) => preferences.setNotificationPreference(ctx.actor, input.notifications)),
});
