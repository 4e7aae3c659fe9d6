// A workspace connection's link (/connect/<code>, made by another workspace's admin): opens the admin
// console's Connections tab of the workspace this browser was last in, with the code looked up.
import { redirect } from "next/navigation";
import { defaultWorkspaceId, getAccountId } from "@/app/_lib/viewer";
import { workspacePath } from "@/components/nav/workspace-paths";

export const dynamic = "force-dynamic";

export default async function ConnectLink({ params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  if (!(await getAccountId())) redirect(`/signin?next=${encodeURIComponent(`/connect/${code}`)}`);
  const workspaceId = await defaultWorkspaceId();
  if (!workspaceId) redirect("/");
  redirect(workspacePath(workspaceId, `/admin?connect=${encodeURIComponent(code)}#connections`));
}
