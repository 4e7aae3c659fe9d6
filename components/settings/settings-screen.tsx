"use client";
// /settings: the person's own settings in one place: profile and status, notifications; access tokens
// on their own page.
import { PageFrame } from "@/components/nav/page-frame";
import { KeyIcon, SettingsIcon } from "@/components/ui/icons";
import { NotificationSettings } from "./notification-settings";
import { ProfileSettings } from "./profile-settings";
import { Link } from "@/components/nav/workspace-routing";

export function SettingsScreen() {
  return (
    <PageFrame title="Settings" icon={<SettingsIcon size={18} />} subtitle="Yours alone: nobody else sees or changes these" testId="settings-page">
      <div className="space-y-4">
        <ProfileSettings />
        <NotificationSettings />
        <Link
          href="/settings/tokens"
          className="flex items-center gap-3 rounded-xl bg-white px-5 py-3.5 text-sm shadow-xs ring-1 ring-zinc-200 hover:bg-zinc-50"
          data-testid="settings-tokens-link"
        >
          <KeyIcon size={16} className="shrink-0 text-zinc-400" />
          <span className="flex-1">
            <span className="block font-medium text-zinc-800">Access tokens</span>
            <span className="block text-xs text-zinc-500">Let a script, the CLI or an MCP host act as you.</span>
          </span>
          <span className="text-zinc-500" aria-hidden="true">
            →
          </span>
        </Link>
      </div>
    </PageFrame>
  );
}
