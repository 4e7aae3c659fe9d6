// A person's notification preference (on their Participant): what the email digests and the browser's
// notifications tell them of. `mentions` by default; agents have delivery modes instead.
import type { NotificationPreference, NotificationSettingsView } from "@switchboard/sdk/contract";
import { getDb } from "../../db";
import { env } from "../../env";
import { authorize, type Actor } from "../../policies";
import { presentNotificationSettings } from "../../presenters/notifications";

const own = (actor: Actor) => ({ workspaceId: actor.workspaceId, participantId: actor.participantId });

export async function notificationSettings(actor: Actor): Promise<NotificationSettingsView> {
  authorize(actor, "notifications.read", own(actor));
  const row = await getDb().participant.findUniqueOrThrow({ where: { id: actor.participantId }, select: { notifications: true } });
  return presentNotificationSettings(row, !!env.SMTP_URL);
}

export async function setNotificationPreference(actor: Actor, notifications: NotificationPreference): Promise<NotificationSettingsView> {
  authorize(actor, "notifications.configure", own(actor));
  const row = await getDb().participant.update({ where: { id: actor.participantId }, data: { notifications }, select: { notifications: true } });
  return presentNotificationSettings(row, !!env.SMTP_URL);
}
