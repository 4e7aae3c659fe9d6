"use client";
// Where people and rooms come from, once workspaces connect: a small tag with another workspace's name
// beside a person's or agent's name, and a shared channel's "Shared with …" / "From …".
import type { RoomView } from "@switchboard/sdk/contract";
import { useDirectoryEntry } from "@/components/profile/directory-entry";
import { useWorkspaceId } from "@/components/providers/viewer-provider";
import { BuildingIcon, CheckCircleIcon, SharedIcon } from "@/components/ui/icons";

type Workspace = { id: string; name: string; verifiedDomain?: string | null };

/** Another workspace's name beside a participant's; nothing for the viewer's own (null). */
export function WorkspaceTag({ workspace, className = "", testId = "workspace-tag" }: { workspace: Workspace | null; className?: string; testId?: string }) {
  if (!workspace) return null;
  return (
    <span
      className={`inline-flex max-w-[12rem] shrink-0 items-center gap-1 rounded-md bg-violet-50 px-1.5 py-px text-[11px] font-medium text-violet-700 ring-1 ring-violet-200 ring-inset ${className}`}
      title={`Of ${workspace.name}${workspace.verifiedDomain ? ` (${workspace.verifiedDomain}, verified)` : ""}, another workspace`}
      data-testid={testId}
    >
      <BuildingIcon size={11} className="shrink-0" />
      <span className="truncate">{workspace.name}</span>
      {workspace.verifiedDomain && <CheckCircleIcon size={11} className="shrink-0 text-emerald-600" />}
    </span>
  );
}

/** The workspace tag of a participant known only by id (a message's author), from the participants query. */
export function ParticipantWorkspaceTag({ id, className }: { id: string; className?: string }) {
  const entry = useDirectoryEntry(id);
  return <WorkspaceTag workspace={entry?.workspace ?? null} className={className} />;
}

/**
 * How a shared channel reads to the viewer: "From Acme" in the workspace it was shared with, "Shared with
 * Globex" (and more) in its own; null for a room of one workspace.
 */
export function sharedLabel(shared: RoomView["shared"], viewerWorkspaceId: string | null): string | null {
  if (!shared) return null;
  if (viewerWorkspaceId && shared.home.id !== viewerWorkspaceId) return `From ${shared.home.name}`;
  return `Shared with ${shared.with.map((w) => w.name).join(", ")}`;
}

export function useSharedLabel(shared: RoomView["shared"]): string | null {
  return sharedLabel(shared, useWorkspaceId());
}

/** The shared-channel mark in lists (the sidebar): the icon, its words as a tooltip and for screen readers. */
export function SharedMark({ shared, size = 13, className = "" }: { shared: RoomView["shared"]; size?: number; className?: string }) {
  const label = useSharedLabel(shared);
  if (!label) return null;
  return (
    <span className={`inline-flex shrink-0 ${className}`} title={label} data-testid="shared-mark">
      <SharedIcon size={size} aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
