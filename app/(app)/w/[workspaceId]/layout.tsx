// Every signed-in page of a workspace: checked on the server (signed in, and a member of this
// workspace), then the client shell (the workspace's queries, socket and sidebar) around it.
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { QueryProvider } from "@/components/providers/query-provider";
import { AppShell } from "@/components/rooms/app-shell";
import { getAccountId, getViewer } from "@/app/_lib/viewer";

export const dynamic = "force-dynamic";

export default async function WorkspaceLayout({ children, params }: { children: ReactNode; params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const viewer = await getViewer(workspaceId);
  // Signed out: sign in. Signed in but no member here (a link from another workspace, a left one): home.
  if (!viewer) redirect((await getAccountId()) ? "/" : "/signin");
  const { workspace, me, can } = (await viewer.api.workspace.me())!;
  // Keyed by the workspace: switching starts with an empty cache and a socket of its own.
  return (
    <QueryProvider key={workspaceId} workspaceId={workspaceId}>
      <AppShell viewer={{ workspace, me, can }}>{children}</AppShell>
    </QueryProvider>
  );
}
