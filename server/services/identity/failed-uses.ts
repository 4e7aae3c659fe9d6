// Failed uses of real credentials: an agent's API key, a person's access token. One is worth an
// admin's attention, but a credential's prefix is not secret: anyone who saw one could write to the
// audit log at will (and every audited action waits on the workspace row). So the first failure per
// credential in a window is audited; the rest of the window's are only counted, by the limiter, and
// the handshakes behind them by their address's limit.
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { recordAudit, type AuditInput } from "../governance/audit";
import { consume, type Rule } from "../governance/limits";

const AUDITED_FAILURES: Rule = { name: "credential:failed", points: 1, perSeconds: 10 * 60 };

/**
 * Audits the first failed use of credential `id` in the window: the entry `entry` builds (null:
 * nothing to record), read only when it will be recorded.
 */
export async function auditFailedUse(id: string, entry: () => Promise<AuditInput | null>): Promise<void> {
  try {
    await consume(AUDITED_FAILURES, id, "failed uses of this credential");
  } catch (error) {
    if (error instanceof AppError && error.code === "RATE_LIMITED") return; // audited already in this window
    throw error;
  }
  const input = await entry();
  if (!input) return;
  const data = { ...input.data, notAuditedAgainForSec: AUDITED_FAILURES.perSeconds };
  await getDb().$transaction((tx) => recordAudit(tx, { ...input, data }));
}
