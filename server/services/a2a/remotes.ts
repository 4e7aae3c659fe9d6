// Remote A2A agents: a person registers one by its card URL (and the credential it wants), and it
// becomes an agent participant they own, like any other (consent, limits, budgets, suspension). Its
// bridge (bridges/a2a/outbound/host.ts) runs it over the socket API with its own API key; the key and
// the credential are kept sealed (secret-box.ts), and one process at a time holds its lease.
import { fetchAgentCard, type A2aCredential, type AgentCard } from "@switchboard/sdk/adapters/a2a";
import type {
  A2aCredentialInput,
  RegisterA2aRemoteInput,
  RemoteAgentInput,
  SetA2aRemoteEnabledInput,
  UpdateA2aCredentialInput,
} from "@switchboard/sdk/a2a-remotes";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { sha256 } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { presentA2aRemote, type A2aRemoteView } from "../../presenters/a2a-remote";
import { open, seal } from "../../secret-box";
import { actorForAgent, agentView, createWithKey } from "../identity/agents";
import { issueKey } from "../identity/api-keys";
import { recordAudit } from "../governance/audit";
import { announceAgentStatus, writeAgentStatus } from "../governance/suspension";
import { transaction } from "../../transaction";
import { requestConnection } from "../consent/connections";

/** The label of the key its bridge connects with (it never leaves the server). */
const BRIDGE_KEY_LABEL = "a2a bridge";

/** How long to wait for a remote's card at registration. */
const CARD_TIMEOUT_MS = 10_000;

function credentialOf(input: A2aCredentialInput | null | undefined): A2aCredential | null {
  if (!input) return null;
  return input.kind === "bearer" ? { header: "Authorization", value: `Bearer ${input.token}` } : { header: input.header, value: input.value };
}

function storedCredential(input: A2aCredentialInput | null | undefined): { credential: string | null; credentialKind: string | null } {
  const c = credentialOf(input);
  if (!c || !input) return { credential: null, credentialKind: null };
  return { credential: seal(c.value), credentialKind: input.kind === "bearer" ? "bearer" : `header:${c.header}` };
}

async function resolveCard(url: string, credential: A2aCredential | null): Promise<AgentCard> {
  try {
    return await fetchAgentCard(url, { credential, timeoutMs: CARD_TIMEOUT_MS });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new AppError("A2A_CARD_INVALID", `No usable A2A agent card at ${url}: ${why}`.slice(0, 500));
  }
}

/** A handle from the card's name: lower case, letters, digits, - and _. */
function handleFrom(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, 39);
  return base.length >= 2 ? base : `a2a-${base || "agent"}`;
}

export async function registerA2aRemote(actor: Actor, input: RegisterA2aRemoteInput): Promise<A2aRemoteView> {
  authorize(actor, "agent.create", undefined);
  const introduceTo = [...new Set(input.introduceTo?.participantIds ?? [])];
  if (introduceTo.length) {
    const found = await getDb().participant.count({ where: { id: { in: introduceTo }, workspaceId: actor.workspaceId } });
    if (found !== introduceTo.length) throw new AppError("PARTICIPANT_NOT_FOUND", "introduceTo: no such participant in your workspace");
  }
  const card = await resolveCard(input.cardUrl, credentialOf(input.credential));
  const handle = input.handle ?? handleFrom(card.name);
  const profile = {
    handle,
    displayName: (input.displayName ?? card.name).slice(0, 80),
    description: (card.description ?? "").slice(0, 500),
    framework: "a2a",
    capabilities: [...new Set((card.skills ?? []).map((s) => (s.id || s.name).trim().slice(0, 40)).filter(Boolean))].slice(0, 32),
  };
  const { id } = await createWithKey(actor, profile, BRIDGE_KEY_LABEL, async (tx, agentId, key) => {
    await tx.a2aRemoteAgent.create({
      data: {
        participantId: agentId,
        cardUrl: input.cardUrl,
        card: JSON.parse(JSON.stringify(card)) as object,
        apiKey: seal(key),
        ...storedCredential(input.credential),
      },
    });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "a2a_remote.registered",
      subjectType: "participant",
      subjectId: agentId,
      data: { cardUrl: input.cardUrl, card: card.name, credential: input.credential?.kind ?? null },
    });
  });
  // The new agent asks, as itself: each request is the agent's, decided by whoever decides for the other side.
  if (introduceTo.length) {
    const agent = await actorForAgent(id);
    for (const participantId of introduceTo) await requestConnection(agent, { participantId, message: input.introduceTo?.message ?? "" });
  }
  return view(id);
}

/** The remote agents the person owns (all of the workspace's, for its owners and admins, with `all`). */
export async function listA2aRemotes(actor: Actor, scope: "mine" | "all" = "mine"): Promise<A2aRemoteView[]> {
  if (scope === "all") authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  const rows = await getDb().a2aRemoteAgent.findMany({
    where: { participant: { workspaceId: actor.workspaceId, ...(scope === "mine" ? { ownerId: actor.participantId } : {}) } },
    orderBy: { createdAt: "asc" },
    select: { participantId: true },
  });
  return Promise.all(rows.map((r) => view(r.participantId)));
}

export async function updateA2aCredential(actor: Actor, input: UpdateA2aCredentialInput): Promise<A2aRemoteView> {
  await loadManaged(actor, input.agentId);
  await getDb().$transaction(async (tx) => {
    await tx.a2aRemoteAgent.update({ where: { participantId: input.agentId }, data: { ...storedCredential(input.credential), lastError: null } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "a2a_remote.credential",
      subjectType: "participant",
      subjectId: input.agentId,
      data: { credential: input.credential?.kind ?? null },
    });
  });
  return view(input.agentId);
}

/** Off: its bridge stops (messages addressed to it wait, and are sent when it is on again). */
export async function setA2aRemoteEnabled(actor: Actor, input: SetA2aRemoteEnabledInput): Promise<A2aRemoteView> {
  await loadManaged(actor, input.agentId);
  await getDb().$transaction(async (tx) => {
    await tx.a2aRemoteAgent.update({ where: { participantId: input.agentId }, data: { enabled: input.enabled } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: input.enabled ? "a2a_remote.enabled" : "a2a_remote.disabled",
      subjectType: "participant",
      subjectId: input.agentId,
    });
  });
  return view(input.agentId);
}

/** Forgets the remote (its card, credential and bridge key); the agent stays, suspended, with its history. */
export async function removeA2aRemote(actor: Actor, input: RemoteAgentInput): Promise<void> {
  const row = await loadManaged(actor, input.agentId);
  // Its agent stays (its messages, its history), suspended through the kill switch like any other:
  // audited, its sockets closed, the workspace told.
  const suspension = { workspaceId: row.participant.workspaceId, agentId: input.agentId, status: "suspended", actorId: actor.participantId } as const;
  const [suspended, committed] = await transaction(async (tx) => {
    await tx.a2aRemoteAgent.delete({ where: { participantId: input.agentId } });
    await tx.apiKey.updateMany({ where: { participantId: input.agentId, label: BRIDGE_KEY_LABEL, revokedAt: null }, data: { revokedAt: new Date() } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "a2a_remote.removed",
      subjectType: "participant",
      subjectId: input.agentId,
    });
    return writeAgentStatus(tx, suspension);
  });
  if (suspended) await announceAgentStatus(committed, suspension);
}

async function loadManaged(actor: Actor, agentId: string) {
  const row = await getDb().a2aRemoteAgent.findUnique({
    where: { participantId: agentId },
    include: { participant: { select: { workspaceId: true, ownerId: true } } },
  });
  if (!row) throw new AppError("PARTICIPANT_NOT_FOUND", "No such remote A2A agent");
  authorize(actor, "agent.manage", row.participant);
  return row;
}

async function view(agentId: string): Promise<A2aRemoteView> {
  const row = await getDb().a2aRemoteAgent.findUniqueOrThrow({ where: { participantId: agentId } });
  return presentA2aRemote(row, await agentView(agentId));
}

// ---- for the bridge host (no actor: the server runs its own bridges) ----

export interface RunnableRemote {
  agentId: string;
  handle: string;
  card: AgentCard;
  apiKey: string;
  credential: A2aCredential | null;
  /** Changes when the card or credential does: a running bridge with another restarts. */
  version: string;
}

/** The remotes a bridge should run: enabled, and their agent active. */
export async function listRunnableRemotes(): Promise<{ agentId: string; version: string }[]> {
  const rows = await getDb().a2aRemoteAgent.findMany({
    where: { enabled: true, participant: { status: "active" } },
    select: { participantId: true, cardUrl: true, credential: true },
  });
  return rows.map((r) => ({ agentId: r.participantId, version: versionOf(r) }));
}

/** Sealing is randomised, so a credential entered again (even the same one) is a new version. */
const versionOf = (row: { cardUrl: string; credential: string | null }) => sha256(`${row.cardUrl}\n${row.credential ?? ""}`);

/** The remote's secrets, opened, for the bridge that holds its lease. */
export async function runnableRemote(agentId: string): Promise<RunnableRemote | null> {
  const row = await getDb().a2aRemoteAgent.findUnique({ where: { participantId: agentId }, include: { participant: { select: { handle: true } } } });
  if (!row) return null;
  const header = row.credentialKind === "bearer" ? "Authorization" : row.credentialKind?.slice("header:".length);
  return {
    agentId,
    handle: row.participant.handle,
    card: row.card as unknown as AgentCard,
    apiKey: open(row.apiKey),
    credential: row.credential && header ? { header, value: open(row.credential) } : null,
    version: versionOf(row),
  };
}

/**
 * Takes or renews the lease on running a remote's bridge: free, lapsed, or already `holder`'s. True
 * when `holder` has it until `now + leaseMs`.
 */
export async function holdRemoteLease(agentId: string, holder: string, leaseMs: number): Promise<boolean> {
  const now = new Date();
  const { count } = await getDb().a2aRemoteAgent.updateMany({
    where: { participantId: agentId, OR: [{ leaseHolder: null }, { leaseHolder: holder }, { leaseUntil: { lt: now } }] },
    data: { leaseHolder: holder, leaseUntil: new Date(now.getTime() + leaseMs) },
  });
  return count === 1;
}

export async function releaseRemoteLease(agentId: string, holder: string): Promise<void> {
  await getDb().a2aRemoteAgent.updateMany({ where: { participantId: agentId, leaseHolder: holder }, data: { leaseHolder: null, leaseUntil: null } });
}

/**
 * The bridge's key was refused (its owner rotated or revoked the agent's keys): the key never leaves
 * the server, so the bridge simply gets another one, as long as `holder` still holds the remote's
 * lease (a process that lost it leaves the remote to the one that has it). True: try again with it.
 */
export async function rekeyRefusedBridge(agentId: string, holder: string, leaseMs: number): Promise<boolean> {
  if (!(await holdRemoteLease(agentId, holder, leaseMs))) return false;
  await reissueBridgeKey(agentId);
  return true;
}

/** A new key for the bridge, the old ones revoked. Audited, with no actor. */
async function reissueBridgeKey(agentId: string): Promise<void> {
  await getDb().$transaction(async (tx) => {
    const agent = await tx.participant.findUniqueOrThrow({ where: { id: agentId }, select: { workspaceId: true } });
    await tx.apiKey.updateMany({ where: { participantId: agentId, label: BRIDGE_KEY_LABEL, revokedAt: null }, data: { revokedAt: new Date() } });
    const issued = await issueKey(tx, agentId, BRIDGE_KEY_LABEL);
    await tx.a2aRemoteAgent.update({ where: { participantId: agentId }, data: { apiKey: seal(issued.key) } });
    await recordAudit(tx, {
      workspaceId: agent.workspaceId,
      actorId: null,
      action: "key.created",
      subjectType: "api_key",
      subjectId: issued.id,
      data: { agentId, prefix: issued.prefix, via: "a2a bridge, its key having been refused" },
    });
  });
}

/** Why the remote cannot be reached now (null: it answers again), for its owner to see. */
export async function recordRemoteAvailability(agentId: string, error: string | null): Promise<void> {
  await getDb().a2aRemoteAgent.updateMany({ where: { participantId: agentId }, data: { lastError: error?.slice(0, 500) ?? null } });
}
