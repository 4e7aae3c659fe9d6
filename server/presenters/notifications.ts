// A person's notification settings as they see them: their preference, and whether this server mails.
import type { NotificationPreference, NotificationSettingsView } from "@switchboard/sdk/contract";

export function presentNotificationSettings(row: { notifications: NotificationPreference }, emailConfigured: boolean): NotificationSettingsView {
  return { notifications: row.notifications, email: emailConfigured };
}
