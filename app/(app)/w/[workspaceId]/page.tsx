// A workspace's home opens its #general (or the first room the viewer is in).
import { redirect } from "next/navigation";
import { CenteredState } from "@/components/rooms/room-screen";
import { getViewer } from "@/app/_lib/viewer";
import { workspacePath } from "@/components/nav/workspace-paths";

export const dynamic = "force-dynamic";

export default async function WorkspaceHome({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const viewer = await getViewer(workspaceId);
  if (!viewer) redirect("/");
  const rooms = await viewer.api.rooms.mine();
  const first = rooms.find((r) => r.kind === "channel" && r.name === "general") ?? rooms.find((r) => r.kind === "channel") ?? rooms[0];
  if (first) redirect(workspacePath(workspaceId, `/r/${first.id}`));
  return <CenteredState title="You're not in any rooms yet" body="Browse the channels in the sidebar, or start a direct message." />;
}
