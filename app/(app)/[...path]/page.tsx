// A page named without its workspace (/agents, a link to /r/<room> from before workspaces, a
// bookmark): opened in the workspace it belongs to. A room's link opens in the room's workspace when
// the viewer is a member there; anything else in the workspace the browser was last in.
import { notFound, redirect } from "next/navigation";
import { defaultWorkspaceId, getAccountId, getViewer } from "@/app/_lib/viewer";
import { workspacePath } from "@/components/nav/workspace-paths";
import { workspaceOfRoom } from "@/server/services/rooms/references";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ path: string[] }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The first segments of a workspace's pages (app/(app)/w/[workspaceId]/…); anything else is a 404, not a redirect. */
const WORKSPACE_PAGES = new Set(["admin", "agents", "directory", "inbox", "needs-you", "r", "search", "settings", "usage", "work"]);

export default async function WithoutWorkspace({ params, searchParams }: Props) {
  const { path } = await params;
  if (!WORKSPACE_PAGES.has(path[0])) notFound();
  if (!(await getAccountId())) redirect("/signin");
  const roomWorkspace = path[0] === "r" && path[1] ? await workspaceOfRoom(path[1]) : null;
  const workspaceId = roomWorkspace && (await getViewer(roomWorkspace)) ? roomWorkspace : await defaultWorkspaceId();
  if (!workspaceId) notFound();
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) for (const v of [value ?? []].flat()) query.append(key, v);
  const rest = `/${path.map(encodeURIComponent).join("/")}${query.size ? `?${query}` : ""}`;
  redirect(workspacePath(workspaceId, rest));
}
