// Who is connecting: a bearer credential in `auth.apiKey` (an agent's API key, or a person's access
// token: ./bearer.ts), or a person by the session cookie.
import type { IncomingHttpHeaders } from "node:http";
import { AppError } from "../errors";
import type { Actor } from "../policies";
import { reauthenticateAccessToken } from "../services/identity/access-tokens";
import { actorForAccount, actorForMember } from "../services/identity/accounts";
import { countFailedHandshake, handshakesBlocked } from "../services/governance/address-limits";
import { actorForAgent } from "../services/identity/agents";
import { authenticateBearer, type BearerIdentity } from "./bearer";
import { accountIdFromCookies } from "./session";

export interface Handshake {
  auth: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  /** The client's address (server/http/client-address.ts). */
  address: string | null;
}

export interface HandshakeOptions {
  secret: string;
  /** AUTH_URL: the origin people's pages are served from. Unset: the origin the request addressed. */
  publicUrl?: string;
}

export interface Admitted {
  actor: Actor;
  /** The bearer credential it connected with; null for a session cookie. */
  credential: BearerIdentity["credential"] | null;
  /** A session cookie's account (a person's browser, in any of their workspaces); null for a bearer credential. */
  accountId: string | null;
}

/**
 * An address whose handshakes failed too often is refused before its credentials are looked at;
 * only refused credentials count, not suspended agents or bad payloads.
 */
export async function authenticateHandshake(handshake: Handshake, opts: HandshakeOptions): Promise<Admitted> {
  if (await handshakesBlocked(handshake.address)) {
    throw new AppError("RATE_LIMITED", "Too many failed connection attempts from your address; retry in a few minutes", { retryAfterMs: 60_000 });
  }
  try {
    return await authenticate(handshake, opts);
  } catch (error) {
    if (error instanceof AppError && error.code === "UNAUTHENTICATED") await countFailedHandshake(handshake.address);
    throw error;
  }
}

async function authenticate({ auth, headers, address }: Handshake, opts: HandshakeOptions): Promise<Admitted> {
  if (auth.apiKey !== undefined) {
    if (typeof auth.apiKey !== "string") throw new AppError("UNAUTHENTICATED", "Invalid or revoked API key");
    return { ...(await authenticateBearer(auth.apiKey, address)), accountId: null };
  }
  assertOwnOrigin(headers, opts.publicUrl);
  const accountId = await accountIdFromCookies(headers.cookie, opts.secret);
  // A person in several workspaces connects to one: `auth.workspaceId`, the workspace of the page.
  const workspaceId = typeof auth.workspaceId === "string" ? auth.workspaceId : null;
  const actor = accountId ? await actorForAccount(accountId, workspaceId) : null;
  if (!actor) throw new AppError("UNAUTHENTICATED", "Sign in first, or connect with an API key or an access token");
  return { actor, credential: null, accountId };
}

/**
 * A browser sends the session cookie with a WebSocket handshake from any page of the same site (a
 * sibling subdomain, another port on localhost: cookies ignore ports), and says which page in
 * `Origin`. So a cookie counts only from the app's own origin. Clients that are not browsers send no
 * Origin and are not refused for it; they could claim any origin anyway, and have no victim's cookie.
 */
function assertOwnOrigin(headers: IncomingHttpHeaders, publicUrl: string | undefined): void {
  const origin = headers.origin;
  if (origin === undefined) return;
  const own = publicUrl ? origin === new URL(publicUrl).origin : hostOf(origin) === headers.host;
  if (!own) throw new AppError("FORBIDDEN", "Sockets signed in by cookie are accepted only from the app's own pages");
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null; // "null" (a sandboxed or file page) or garbage
  }
}

/**
 * A connected socket's rights, read again (after a role change), the way its handshake read them. A
 * person's token keeps its scope, and a token revoked or expired meanwhile closes the socket.
 */
export async function reauthenticate(actor: Actor): Promise<Actor> {
  if (actor.kind === "agent") return actorForAgent(actor.participantId);
  if (actor.accessToken) return reauthenticateAccessToken(actor.accessToken.id);
  const again = await actorForMember(actor.participantId);
  if (!again) throw new AppError("UNAUTHENTICATED", "This person may no longer connect");
  return again;
}
