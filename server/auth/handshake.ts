// Who is connecting: an agent by API key (`auth.apiKey`), or a person by the session cookie.
import { AppError } from "../errors";
import type { Actor } from "../policies";
import { actorForAccount, actorForMember } from "../services/accounts";
import { countFailedHandshake, handshakesBlocked } from "../services/address-limits";
import { actorForAgent } from "../services/agents";
import { authenticateKey } from "../services/api-keys";
import { accountIdFromCookies } from "./session";

/**
 * An address whose handshakes failed too often is refused before its credentials are looked at;
 * only refused credentials count, not suspended agents or bad payloads.
 */
export async function authenticateHandshake(
  auth: Record<string, unknown>,
  cookieHeader: string | undefined,
  secret: string,
  address: string | null = null,
): Promise<{ actor: Actor; keyId: string | null }> {
  if (await handshakesBlocked(address)) {
    throw new AppError("RATE_LIMITED", "Too many failed connection attempts from your address; retry in a few minutes", { retryAfterMs: 60_000 });
  }
  try {
    return await authenticate(auth, cookieHeader, secret, address);
  } catch (error) {
    if (error instanceof AppError && error.code === "UNAUTHENTICATED") await countFailedHandshake(address);
    throw error;
  }
}

async function authenticate(auth: Record<string, unknown>, cookieHeader: string | undefined, secret: string, address: string | null) {
  if (auth.apiKey !== undefined) {
    if (typeof auth.apiKey !== "string" || auth.apiKey.length > 200) throw new AppError("UNAUTHENTICATED", "Invalid or revoked API key");
    const { participantId, keyId } = await authenticateKey(auth.apiKey, address);
    return { actor: await actorForAgent(participantId), keyId };
  }
  const accountId = await accountIdFromCookies(cookieHeader, secret);
  const actor = accountId ? await actorForAccount(accountId) : null;
  if (!actor) throw new AppError("UNAUTHENTICATED", "Sign in first, or connect with an API key");
  return { actor, keyId: null };
}

/** A connected socket's rights, read again (after a role change), the way its handshake read them. */
export async function reauthenticate(actor: Actor): Promise<Actor> {
  if (actor.kind === "agent") return actorForAgent(actor.participantId);
  const again = await actorForMember(actor.participantId);
  if (!again) throw new AppError("UNAUTHENTICATED", "This person may no longer connect");
  return again;
}
