// Who is looking at a server-rendered page: the Auth.js session, resolved to the participant it acts
// as in the page's workspace. A session whose account is no member there (or no longer has any
// workspace: a reset database) has no viewer.
import { cache } from "react";
import { cookies } from "next/headers";
import { LAST_WORKSPACE_COOKIE } from "@/components/nav/workspace-paths";
import { auth } from "@/server/auth/config";
import { actorForAccount } from "@/server/services/identity/accounts";
import { appRouter } from "@/server/trpc/router";

export const getAccountId = cache(async (): Promise<string | null> => (await auth())?.user?.id ?? null);

export const getViewer = cache(async (workspaceId?: string | null) => {
  const accountId = await getAccountId();
  if (!accountId) return null;
  const actor = await actorForAccount(accountId, workspaceId);
  if (!actor) return null;
  return { accountId, actor, api: appRouter.createCaller({ accountId, actor }) };
});

/**
 * Where a page that names no workspace opens: the one the browser was last in, if the account is
 * still a member there, else its first. Null: signed out, or in no workspace.
 */
export async function defaultWorkspaceId(): Promise<string | null> {
  const last = (await cookies()).get(LAST_WORKSPACE_COOKIE)?.value;
  const viewer = (last ? await getViewer(last) : null) ?? (await getViewer());
  return viewer?.actor.workspaceId ?? null;
}

/** Procedures that need no session (first-run check, invite lookup). */
export const publicApi = () => appRouter.createCaller({ accountId: null, actor: null });
