// Agents' API keys. A key is `sb_<prefix>_<secret>`: the prefix finds the row, the SHA-256 of the whole
// key is compared in constant time. The key itself is returned once and never stored.
import { timingSafeEqual } from "node:crypto";
import { getDb, type Tx } from "../../db";
import { AppError } from "../../errors";
import { newId, newPrefix, newSecret, sha256 } from "../../ids";
import { auditFailedUse } from "./failed-uses";

const KEY_SHAPE = /^sb_([A-Za-z0-9_-]{10})_([A-Za-z0-9_-]{32,64})$/;

export interface IssuedKey {
  id: string;
  prefix: string;
  key: string;
}

export async function issueKey(tx: Tx, participantId: string, label = ""): Promise<IssuedKey> {
  const prefix = newPrefix();
  const key = `sb_${prefix}_${newSecret(32)}`;
  const id = newId();
  await tx.apiKey.create({ data: { id, participantId, prefix, hash: sha256(key), label } });
  return { id, prefix, key };
}

/** The agent a key belongs to, or an UNAUTHENTICATED error that does not say which part was wrong. */
export async function authenticateKey(key: string, address: string | null = null): Promise<{ participantId: string; keyId: string }> {
  const refused = new AppError("UNAUTHENTICATED", "Invalid or revoked API key");
  const match = KEY_SHAPE.exec(key);
  if (!match) throw refused;
  const row = await getDb().apiKey.findUnique({ where: { prefix: match[1] } });
  const expected = Buffer.from(row?.hash ?? sha256("no such key"), "hex");
  const given = Buffer.from(sha256(key), "hex");
  if (!timingSafeEqual(expected, given) || !row || row.revokedAt) {
    if (row) await auditFailedKey(row.id, row.participantId, row.revokedAt ? "revoked" : "mismatch", address);
    throw refused;
  }
  // Last use is informational: never let it fail or slow the handshake.
  void getDb()
    .apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } })
    .catch(() => {});
  return { participantId: row.participantId, keyId: row.id };
}

/** Audited once per key in a window (./failed-uses.ts). */
function auditFailedKey(keyId: string, participantId: string, reason: string, address: string | null): Promise<void> {
  return auditFailedUse(keyId, async () => {
    const agent = await getDb().participant.findUnique({ where: { id: participantId }, select: { workspaceId: true } });
    if (!agent) return null;
    return {
      workspaceId: agent.workspaceId,
      actorId: null,
      action: "key.failed",
      subjectType: "api_key",
      subjectId: keyId,
      data: { agentId: participantId, reason },
      address,
    };
  });
}
