// "/" opens the workspace the browser was last in (or the person's first).
import { redirect } from "next/navigation";
import { CenteredState } from "@/components/rooms/room-screen";
import { defaultWorkspaceId, getAccountId } from "@/app/_lib/viewer";
import { workspacePath } from "@/components/nav/workspace-paths";

export const dynamic = "force-dynamic";

export default async function Home() {
  if (!(await getAccountId())) redirect("/signin");
  const workspaceId = await defaultWorkspaceId();
  if (workspaceId) redirect(workspacePath(workspaceId, "/"));
  return <CenteredState title="You're not in any workspace" body="Ask an admin of a workspace for an invite link, and open it here." />;
}
