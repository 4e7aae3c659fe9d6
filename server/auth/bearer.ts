// The one entry point for bearer credentials, whatever carries them (the socket's `auth.apiKey`, an
// `Authorization: Bearer` header on tRPC or MCP): an agent's API key (`sb_…`) acts as the agent, a
// person's access token (`sbp_…`) as that person, under their current role and the token's scope.
import { AppError } from "../errors";
import type { Actor } from "../policies";
import { ACCESS_TOKEN_PREFIX, authenticateAccessToken } from "../services/access-tokens";
import { actorForAgent } from "../services/agents";
import { authenticateKey } from "../services/api-keys";

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

/**
 * Who a bearer credential acts as, or UNAUTHENTICATED without saying which part was wrong (an
 * agent's key may also be refused with AGENT_SUSPENDED). `address`: the client's, for the audit of
 * failed uses.
 */
export async function authenticateBearer(credential: string, address: string | null): Promise<BearerIdentity> {
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
