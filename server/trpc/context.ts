import type { IncomingMessage } from "node:http";
import { authenticateBearer, credentialKind } from "../auth/bearer";
import { accountIdFromCookies } from "../auth/session";
import { AppError } from "../errors";
import { stampedAddress } from "../http/client-address";
import type { Actor } from "../policies";
import { actorForAccount } from "../services/identity/accounts";
import { trpcErrorOf } from "./errors";

export interface Context {
  actor: Actor | null;
  /** The session cookie's account; null with an access token or without a session. */
  accountId: string | null;
  /** The client's address, as the server worked it out (server/app.ts); absent for server-side callers. */
  address?: string | null;
}

/**
 * Who calls: a person's access token (`Authorization: Bearer sbp_…`), or the session cookie. A bad
 * token refuses the whole request, whatever the procedure: a script must not silently run signed out.
 */
export async function createContext(req: IncomingMessage, secret: string): Promise<Context> {
  const address = stampedAddress(req);
  const bearer = bearerOf(req.headers.authorization);
  if (bearer !== null) {
    try {
      return { accountId: null, actor: await personByToken(bearer, address), address };
    } catch (error) {
      throw error instanceof AppError ? trpcErrorOf(error) : error;
    }
  }
  const accountId = await accountIdFromCookies(req.headers.cookie, secret);
  return { accountId, actor: accountId ? await actorForAccount(accountId, workspaceOf(req.headers[WORKSPACE_HEADER])) : null, address };
}

/**
 * A person in several workspaces says which one a request acts in (the browser sends the workspace
 * its page is in); an account that is no member there acts as nobody. Absent: their first workspace.
 */
export const WORKSPACE_HEADER = "x-switchboard-workspace";

function workspaceOf(header: string | string[] | undefined): string | null {
  return typeof header === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(header) ? header : null;
}

function bearerOf(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match ? match[1] : null;
}

/** tRPC is for people: agents' keys belong on the socket (and MCP), where agents act as agents. */
async function personByToken(credential: string, address: string | null): Promise<Actor> {
  if (credentialKind(credential) === "agent_key") {
    throw new AppError("UNAUTHENTICATED", "Agent API keys connect over the socket or MCP; tRPC takes a person's access token (sbp_…) or a session");
  }
  return (await authenticateBearer(credential, address)).actor;
}
