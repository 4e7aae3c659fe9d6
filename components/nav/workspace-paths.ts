// A workspace's pages live under /w/<workspace id>/…: the URL says which workspace a page is in, so a
// link, a bookmark or a second tab opens in the right one. Paths are written without the prefix
// everywhere (`/agents`, `/r/<room>`), and these put it on and take it off.

const PREFIX = /^\/w\/[^/?#]+(?=[/?#]|$)/;

/** `path` (from the site's root, without a workspace) inside the workspace. */
export function workspacePath(workspaceId: string, path: string): string {
  const rest = path === "/" ? "" : path;
  return `/w/${encodeURIComponent(workspaceId)}${rest}`;
}

/** A site path as the app's pages name it: its workspace prefix, if any, taken off (`/w/x/agents` → `/agents`). */
export function withoutWorkspace(pathname: string): string {
  const rest = pathname.replace(PREFIX, "");
  return rest === "" ? "/" : rest;
}

/** Whether a link goes to a workspace page written without its workspace (`/agents`, not `/w/…`, `/signin` or another site). */
export function needsWorkspace(href: string): boolean {
  if (!href.startsWith("/") || href.startsWith("//") || PREFIX.test(href)) return false;
  return !OUTSIDE_WORKSPACES.some((p) => href === p || href.startsWith(`${p}/`) || href.startsWith(`${p}?`));
}

/** Pages and files that belong to no workspace. */
const OUTSIDE_WORKSPACES = ["/signin", "/signup", "/invite", "/api", "/install"];

/** The cookie that keeps the workspace this browser was last in, where "/" opens. */
export const LAST_WORKSPACE_COOKIE = "sb-workspace";
