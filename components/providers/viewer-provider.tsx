"use client";
// The signed-in participant and their workspace, loaded by the server layout and shared below it.
import { createContext, useContext, type ReactNode } from "react";
import type { ParticipantView } from "@switchboard/sdk/contract";
import type { WorkspaceCan } from "@/server/presenters/workspace";

export interface Viewer {
  workspace: { id: string; name: string };
  me: ParticipantView;
  /** What the viewer may do in the workspace, as the server's policies say: the UI asks this, never the role. */
  can: WorkspaceCan;
}

const ViewerContext = createContext<Viewer | null>(null);

export function ViewerProvider({ viewer, children }: { viewer: Viewer; children: ReactNode }) {
  return <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>;
}

export function useViewer(): Viewer {
  const viewer = useContext(ViewerContext);
  if (!viewer) throw new Error("useViewer outside ViewerProvider");
  return viewer;
}

/** The workspace the page is in, or null outside a workspace's pages (sign-in, an invite). */
export function useWorkspaceId(): string | null {
  return useContext(ViewerContext)?.workspace.id ?? null;
}
