// The one entry point for bearer credentials, whatever carries them (the socket's `auth.apiKey`, an
// `Authorization: Bearer` header on tRPC or MCP): an agent's API key (`sb_…`) acts as the agent, a
// person's access token (`sbp_…`) as that person, under their current role and the token's scope.
import { AppError } from "../errors";
import type { Actor } from "../policies";
import { ACCESS_TOKEN_PREFIX, authenticateAccessToken } from "../services/identity/access-tokens";
import { countFailedHandshake, handshakesBlocked } from "../services/governance/address-limits";
import { actorForAgent } from "../services/identity/agents";
import { authenticateKey } from "../services/identity/api-keys";

export type CredentialKind = "agent_key" | "access_token";

export interface BearerIdentity {
  actor: Actor;
  /** Which credential it was: revoking it finds the sockets it opened by this id. */
  credential: { kind: CredentialKind; id: string };
}

/** Longer than any credential the server issues; nothing that long is looked up. */
const MAX_CREDENTIAL_LENGTH = 200;

/** What a credential claims to be, by its prefix (not whether it is valid). */
export function credentialKind(credential: string): CredentialKind {
  return credential.startsWith(ACCESS_TOKEN_PREFIX) ? "access_token" : "agent_key";
}

/** No Authorization header at all. */
const MISSING_HEADER = "No credential: send Authorization: Bearer <an agent's API key or a person's access token>";
/** A credential that is empty: missing, as opposed to wrong ("Invalid or revoked API key"). */
const EMPTY_CREDENTIAL =
  "No credential: the API key is empty. Is SWITCHBOARD_API_KEY set where the client runs? (`switchboard key` prints a connected agent's key)";

/**
 * Who a bearer credential acts as, or UNAUTHENTICATED without saying which part was wrong (an
 * agent's key may also be refused with AGENT_SUSPENDED). `address`: the client's, for the audit of
 * failed uses.
 */
export async function authenticateBearer(credential: string, address: string | null): Promise<BearerIdentity> {
  if (credential.trim() === "") throw new AppError("UNAUTHENTICATED", EMPTY_CREDENTIAL);
  const kind = credentialKind(credential);
  if (credential.length > MAX_CREDENTIAL_LENGTH) {
    throw new AppError("UNAUTHENTICATED", kind === "access_token" ? "Invalid, expired or revoked access token" : "Invalid or revoked API key");
  }
  if (kind === "access_token") {
    const { actor, tokenId } = await authenticateAccessToken(credential, address);
    return { actor, credential: { kind, id: tokenId } };
  }
  const { participantId, keyId } = await authenticateKey(credential, address);
  return { actor: await actorForAgent(participantId), credential: { kind, id: keyId } };
}

/**
 * An HTTP request's `Authorization: Bearer` credential (MCP, the hooks endpoints), checked on every
 * request. An address whose credentials failed too often is refused before they are looked at (the
 * socket handshake's limit), and each refused credential counts against its address.
 */
export async function authenticateAuthorization(authorization: string | undefined, address: string | null): Promise<BearerIdentity> {
  if (await handshakesBlocked(address)) {
    throw new AppError("RATE_LIMITED", "Too many failed attempts from your address; retry in a few minutes", { retryAfterMs: 60_000 });
  }
  if (authorization === undefined) throw new AppError("UNAUTHENTICATED", MISSING_HEADER);
  // "Bearer " with nothing after it: what an MCP host sends when the variable it expands there is unset.
  if (/^Bearer\s*$/i.test(authorization.trim())) throw new AppError("UNAUTHENTICATED", EMPTY_CREDENTIAL);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new AppError("UNAUTHENTICATED", MISSING_HEADER);
  try {
    return await authenticateBearer(match[1], address);
  } catch (error) {
    if (error instanceof AppError && error.code === "UNAUTHENTICATED") await countFailedHandshake(address);
    throw error;
  }
}
