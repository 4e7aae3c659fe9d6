// Who is looking at a server-rendered page: the Auth.js session, resolved to the participant it acts as.
// A session whose account no longer has a workspace (a reset database) counts as signed out.
import { cache } from "react";
import { auth } from "@/server/auth/config";
import { actorForAccount } from "@/server/services/identity/accounts";
import { appRouter } from "@/server/trpc/router";

export const getViewer = cache(async () => {
  const session = await auth();
  const accountId = session?.user?.id ?? null;
  if (!accountId) return null;
  const actor = await actorForAccount(accountId);
  if (!actor) return null;
  return { accountId, actor, api: appRouter.createCaller({ accountId, actor }) };
});

/** Procedures that need no session (first-run check, invite lookup). */
export const publicApi = () => appRouter.createCaller({ accountId: null, actor: null });
