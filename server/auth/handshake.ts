// Who is connecting: an agent by API key (`auth.apiKey`), or a person by the session cookie.
import { AppError } from "../errors";
import type { Actor } from "../policies";
import { actorForAccount } from "../services/accounts";
import { actorForAgent } from "../services/agents";
import { authenticateKey } from "../services/api-keys";
import { accountIdFromCookies } from "./session";

export async function authenticateHandshake(
  auth: Record<string, unknown>,
  cookieHeader: string | undefined,
  secret: string,
  address: string | null = null,
): Promise<{ actor: Actor; keyId: string | null }> {
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
