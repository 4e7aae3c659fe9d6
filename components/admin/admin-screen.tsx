"use client";
// /admin: the workspace console for owners and admins: members and roles, invite links, connections
// with other workspaces, every agent
// with its kill switch, settings and limits, and the audit log. Others see a clean "not allowed".
import { useEffect, useState } from "react";
import { PageFrame } from "@/components/nav/page-frame";
import { useViewer } from "@/components/providers/viewer-provider";
import { BotIcon, HandshakeIcon, LinkIcon, ListIcon, SettingsIcon, ShieldIcon, UsersIcon } from "@/components/ui/icons";
import { EmptyState } from "@/components/ui/states";
import { TabPanel, Tabs } from "@/components/ui/tabs";
import { AgentsTab } from "./agents-tab";
import { AuditTab } from "./audit-tab";
import { ConnectionsTab } from "./connections-tab";
import { InvitesTab } from "./invites-tab";
import { MembersTab } from "./members-tab";
import { SettingsTab } from "./settings-tab";

const TABS = ["members", "invites", "connections", "agents", "settings", "audit"] as const;
type Tab = (typeof TABS)[number];

export function AdminScreen() {
  const { can, workspace } = useViewer();
  const allowed = can.manage;
  const [tab, setTab] = useState<Tab>("members");

  // The tab is in the URL's hash, so a reload or a shared link opens the same one.
  useEffect(() => {
    const fromHash = () => {
      const key = window.location.hash.slice(1) as Tab;
      if (TABS.includes(key)) setTab(key);
    };
    fromHash();
    window.addEventListener("hashchange", fromHash);
    return () => window.removeEventListener("hashchange", fromHash);
  }, []);
  const choose = (next: Tab) => {
    setTab(next);
    window.history.replaceState(null, "", `#${next}`);
  };

  if (!allowed) {
    return (
      <PageFrame title="Admin" icon={<ShieldIcon size={18} />} testId="admin-page">
        <EmptyState
          icon={<ShieldIcon size={22} />}
          title="Only owners and admins can open the admin console"
          body={`Ask an owner or admin of ${workspace.name} if you need a member's role changed, an invite link, or an agent stopped.`}
          testId="admin-forbidden"
        />
      </PageFrame>
    );
  }

  return (
    <PageFrame title="Admin" icon={<ShieldIcon size={18} />} subtitle={workspace.name} testId="admin-page" wide>
      <div className="mb-5 border-b border-zinc-200">
        <Tabs<Tab>
          label="Admin sections"
          idPrefix="admin"
          active={tab}
          onChange={choose}
          tabs={[
            { key: "members", label: "Members", icon: <UsersIcon size={15} /> },
            { key: "invites", label: "Invite links", icon: <LinkIcon size={15} /> },
            { key: "connections", label: "Connections", icon: <HandshakeIcon size={15} /> },
            { key: "agents", label: "Agents", icon: <BotIcon size={15} /> },
            { key: "settings", label: "Settings", icon: <SettingsIcon size={15} /> },
            { key: "audit", label: "Audit log", icon: <ListIcon size={15} /> },
          ]}
        />
      </div>
      <TabPanel id={tab} idPrefix="admin">
        {tab === "members" && <MembersTab />}
        {tab === "invites" && <InvitesTab />}
        {tab === "connections" && <ConnectionsTab />}
        {tab === "agents" && <AgentsTab />}
        {tab === "settings" && <SettingsTab />}
        {tab === "audit" && <AuditTab />}
      </TabPanel>
    </PageFrame>
  );
}
