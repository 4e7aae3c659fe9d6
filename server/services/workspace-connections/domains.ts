// A workspace's domain, shown to connected workspaces once verified (beside its name in their inbox,
// directory and Connections tab): its admins name it, publish a TXT record with a token, and ask to
// verify, which looks the record up in DNS; where the deployment cannot reach DNS, an operator of the
// deployment verifies it (scripts/verify-domain.ts). Changing the domain forgets the verification.
import { Resolver } from "node:dns/promises";
import type { WorkspaceDomainView } from "@switchboard/sdk/workspace-connections";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { newSecret } from "../../ids";
import { assertMayWrite, authorize, type Actor } from "../../policies";
import { recordAudit } from "../governance/audit";

const RECORD_PREFIX = "_switchboard";
const VALUE_PREFIX = "switchboard-verify=";

export async function workspaceDomain(actor: Actor): Promise<WorkspaceDomainView> {
  authorize(actor, "workspace_connection.manage", { workspaceId: actor.workspaceId });
  return presentDomain(await getDb().workspace.findUniqueOrThrow({ where: { id: actor.workspaceId } }));
}

/** Names the workspace's domain (or none), with a new token to publish; unverified until checked. */
export async function setDomain(actor: Actor, named: string | null): Promise<WorkspaceDomainView> {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  const domain = named?.toLowerCase() ?? null;
  assertMayWrite(actor);
  const row = await getDb().$transaction(async (tx) => {
    const updated = await tx.workspace.update({
      where: { id: actor.workspaceId },
      data: { domain, domainToken: domain ? newSecret(18) : null, domainVerifiedAt: null, domainVerifiedBy: null },
    });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "workspace.domain_set",
      subjectType: "workspace",
      subjectId: actor.workspaceId,
      data: { domain },
    });
    return updated;
  });
  return presentDomain(row);
}

/**
 * Looks the TXT record up: verified when one of `_switchboard.<domain>`'s records is the token's. Not
 * there, or DNS out of reach: CONFLICT, saying which, and that an operator can verify it instead.
 */
export async function verifyDomain(actor: Actor, resolveTxt: (name: string) => Promise<string[][]> = lookUp): Promise<WorkspaceDomainView> {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  assertMayWrite(actor);
  const workspace = await getDb().workspace.findUniqueOrThrow({ where: { id: actor.workspaceId } });
  const record = recordOf(workspace);
  if (!record) throw new AppError("CONFLICT", "Name the workspace's domain first");
  let found: string[];
  try {
    found = (await resolveTxt(record.name)).map((chunks) => chunks.join(""));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "ENOTFOUND" && code !== "ENODATA") {
      throw new AppError(
        "CONFLICT",
        `DNS could not be asked (${code ?? "no answer"}): try again, or ask an operator of this deployment to verify ${workspace.domain}`,
      );
    }
    found = [];
  }
  if (!found.includes(record.value))
    throw new AppError("CONFLICT", `No TXT record ${record.name} with "${record.value}" yet: DNS changes can take a while to show`);
  return markVerified(actor.workspaceId, "dns", actor.participantId);
}

/** Marks the workspace's domain verified (by DNS, or by an operator of this deployment: `actorId` null). */
export async function markVerified(workspaceId: string, by: "dns" | "operator", actorId: string | null): Promise<WorkspaceDomainView> {
  const row = await getDb().$transaction(async (tx) => {
    const current = await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
    if (!current.domain) throw new AppError("CONFLICT", "The workspace names no domain");
    const updated = await tx.workspace.update({ where: { id: workspaceId }, data: { domainVerifiedAt: new Date(), domainVerifiedBy: by } });
    await recordAudit(tx, {
      workspaceId,
      actorId,
      action: "workspace.domain_verified",
      subjectType: "workspace",
      subjectId: workspaceId,
      data: { domain: current.domain, by },
    });
    return updated;
  });
  return presentDomain(row);
}

function lookUp(name: string): Promise<string[][]> {
  const resolver = new Resolver({ timeout: 3000, tries: 1 });
  return resolver.resolveTxt(name);
}

function recordOf(w: { domain: string | null; domainToken: string | null }): WorkspaceDomainView["record"] {
  return w.domain && w.domainToken ? { name: `${RECORD_PREFIX}.${w.domain}`, value: `${VALUE_PREFIX}${w.domainToken}` } : null;
}

function presentDomain(w: {
  domain: string | null;
  domainToken: string | null;
  domainVerifiedAt: Date | null;
  domainVerifiedBy: string | null;
}): WorkspaceDomainView {
  return {
    domain: w.domain,
    record: recordOf(w),
    verifiedAt: w.domainVerifiedAt?.toISOString() ?? null,
    verifiedBy: (w.domainVerifiedBy as WorkspaceDomainView["verifiedBy"]) ?? null,
  };
}
