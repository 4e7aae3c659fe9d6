import type { IncomingMessage } from "node:http";
import { accountIdFromCookies } from "../auth/session";
import { stampedAddress } from "../http/client-address";
import type { Actor } from "../policies";
import { actorForAccount } from "../services/accounts";

export interface Context {
  actor: Actor | null;
  accountId: string | null;
  /** The client's address, as the server worked it out (server/app.ts); absent for server-side callers. */
  address?: string | null;
}

export async function createContext(req: IncomingMessage, secret: string): Promise<Context> {
  const accountId = await accountIdFromCookies(req.headers.cookie, secret);
  return { accountId, actor: accountId ? await actorForAccount(accountId) : null, address: stampedAddress(req) };
}
