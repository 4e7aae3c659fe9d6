// Agents: participants of kind "agent", each owned by a person, who acts under its own identity with
// its own API keys. Created in the browser by a person, or registered by a script holding one of that
// person's onboarding tokens.
import type { CreateOnboardingTokenInput } from "@switchboard/sdk/admin";
import type { AgentProfileInput, AgentView, ConsentPolicy, RegisteredAgent, RoomRef } from "@switchboard/sdk/contract";
import { getDb, type Tx } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { newId, newSecret, sha256 } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { agentRole } from "../../policies/actor";
import { invitationInclude, invitationState, listedInvitations, presentOnboardingToken, type OnboardingTokenView } from "../../presenters/invitation";
import { agentInclude, presentAgent } from "../../presenters/agent";
import { disconnectKeysOf } from "../../realtime/sessions";
import { countAgentRegistration } from "../governance/address-limits";
import { loadRoomFor } from "../access/rooms";
import { roomView } from "../access/views";
import { inviteToRoom } from "../rooms/rooms";
import { DEFAULT_CHANNEL } from "./workspaces";
import { issueKey } from "./api-keys";
import { recordAudit } from "../governance/audit";
import { setAgentStatus } from "../governance/suspension";

export type NewAgent = Required<AgentProfileInput>;

const DAY_MS = 24 * 60 * 60 * 1000;

export async function createAgent(tx: Tx, owner: Actor, agent: NewAgent): Promise<string> {
  const id = newId();
  await tx.participant.create({
    data: {
      id,
      workspaceId: owner.workspaceId,
      kind: "agent",
      handle: agent.handle,
      displayName: agent.displayName,
      description: agent.description,
      framework: agent.framework,
      capabilities: agent.capabilities,
      ownerId: owner.participantId,
    },
  });
  return id;
}

/** The actor an agent acts as: its own identity, with its owner's rights at most (`agentRole`). */
export async function actorForAgent(participantId: string): Promise<Actor> {
  const agent = await getDb().participant.findUnique({
    where: { id: participantId },
    include: { owner: { select: { member: { select: { role: true } } } } },
  });
  if (!agent || agent.kind !== "agent") throw new AppError("PARTICIPANT_NOT_FOUND", "No such agent");
  if (agent.status !== "active") throw new AppError("AGENT_SUSPENDED", "This agent is suspended");
  return { participantId: agent.id, workspaceId: agent.workspaceId, kind: "agent", role: agentRole(agent.owner?.member?.role ?? null), handle: agent.handle };
}

/** A person creates an agent they own; the API key is in the answer and nowhere else. */
export async function createAgentWithKey(actor: Actor, profile: NewAgent): Promise<{ agent: AgentView; apiKey: string }> {
  authorize(actor, "agent.create", undefined);
  const { id, key } = await createWithKey(actor, profile, "created in the browser");
  return { agent: await agentView(id), apiKey: key };
}

/**
 * Creates the agent and its first key in one transaction; `then` stores what else belongs to it in the
 * same one (a remote A2A agent's registration).
 */
export async function createWithKey(owner: Actor, profile: NewAgent, label: string, then?: (tx: Tx, id: string, key: string) => Promise<void>) {
  try {
    return await getDb().$transaction(async (tx) => {
      const id = await createAgent(tx, owner, profile);
      const issued = await issueKey(tx, id, label);
      await then?.(tx, id, issued.key);
      await recordAudit(tx, {
        workspaceId: owner.workspaceId,
        actorId: owner.participantId,
        action: "agent.created",
        subjectType: "participant",
        subjectId: id,
        data: { handle: profile.handle, via: label },
      });
      await recordAudit(tx, {
        workspaceId: owner.workspaceId,
        actorId: owner.participantId,
        action: "key.created",
        subjectType: "api_key",
        subjectId: issued.id,
        data: { agentId: id, prefix: issued.prefix },
      });
      return { id, key: issued.key };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("NAME_TAKEN", `@${profile.handle} is taken`);
    throw error;
  }
}

export async function listMyAgents(actor: Actor): Promise<AgentView[]> {
  const rows = await getDb().participant.findMany({
    where: { workspaceId: actor.workspaceId, kind: "agent", ownerId: actor.participantId },
    orderBy: { handle: "asc" },
    select: { id: true },
  });
  return Promise.all(rows.map((r) => agentView(r.id)));
}

export async function listAllAgents(actor: Actor): Promise<AgentView[]> {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  const rows = await getDb().participant.findMany({
    where: { workspaceId: actor.workspaceId, kind: "agent" },
    orderBy: { handle: "asc" },
    select: { id: true },
  });
  return Promise.all(rows.map((r) => agentView(r.id)));
}

export async function getAgent(actor: Actor, agentId: string): Promise<AgentView> {
  await loadManaged(actor, agentId);
  return agentView(agentId);
}

async function loadManaged(actor: Actor, agentId: string, action: "agent.manage" | "agent.suspend" = "agent.manage") {
  const agent = await getDb().participant.findUnique({ where: { id: agentId } });
  if (!agent || agent.kind !== "agent") throw new AppError("PARTICIPANT_NOT_FOUND", "No such agent");
  authorize(actor, action, agent);
  return agent;
}

/** Revokes every active key of the agent and issues a new one. */
export async function rotateKey(actor: Actor, agentId: string): Promise<{ apiKey: string; agent: AgentView }> {
  await loadManaged(actor, agentId);
  const { key } = await getDb().$transaction(async (tx) => {
    await tx.apiKey.updateMany({ where: { participantId: agentId, revokedAt: null }, data: { revokedAt: new Date() } });
    const issued = await issueKey(tx, agentId, "rotated");
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "key.rotated",
      subjectType: "api_key",
      subjectId: issued.id,
      data: { agentId, prefix: issued.prefix },
    });
    return issued;
  });
  await disconnectRevoked(agentId);
  return { apiKey: key, agent: await agentView(agentId) };
}

export async function revokeKey(actor: Actor, agentId: string, keyId: string): Promise<AgentView> {
  await loadManaged(actor, agentId);
  const revoked = await getDb().$transaction(async (tx) => {
    const { count } = await tx.apiKey.updateMany({
      where: { id: keyId, participantId: agentId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (count > 0) {
      await recordAudit(tx, {
        workspaceId: actor.workspaceId,
        actorId: actor.participantId,
        action: "key.revoked",
        subjectType: "api_key",
        subjectId: keyId,
        data: { agentId },
      });
    }
    return count > 0;
  });
  if (!revoked) throw new AppError("NOT_FOUND", "No such active key");
  await disconnectRevoked(agentId);
  return agentView(agentId);
}

/** Sockets authenticated by a key that is now revoked are closed at once. */
async function disconnectRevoked(agentId: string): Promise<void> {
  const active = await getDb().apiKey.findMany({ where: { participantId: agentId, revokedAt: null }, select: { id: true } });
  disconnectKeysOf(agentId, new Set(active.map((k) => k.id)));
}

/** The kill switch (governance/suspension.ts); suspending a suspended agent changes nothing. */
export async function suspendAgent(actor: Actor, agentId: string, reason = ""): Promise<AgentView> {
  await loadManaged(actor, agentId, "agent.suspend");
  const changed = await setAgentStatus({ workspaceId: actor.workspaceId, agentId, status: "suspended", actorId: actor.participantId, data: { reason } });
  return changed ?? agentView(agentId);
}

export async function resumeAgent(actor: Actor, agentId: string): Promise<AgentView> {
  await loadManaged(actor, agentId, "agent.suspend");
  const changed = await setAgentStatus({ workspaceId: actor.workspaceId, agentId, status: "active", actorId: actor.participantId });
  return changed ?? agentView(agentId);
}

/** Who decides connection requests addressed to the agent: its owner (ask) or a standing rule. */
export async function setConsentPolicy(actor: Actor, agentId: string, policy: ConsentPolicy): Promise<AgentView> {
  await loadManaged(actor, agentId);
  await getDb().$transaction(async (tx) => {
    await tx.participant.update({ where: { id: agentId }, data: { consentPolicy: policy } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "agent.consent_policy",
      subjectType: "participant",
      subjectId: agentId,
      data: { policy },
    });
  });
  return agentView(agentId);
}

/**
 * A token a script trades for an agent of the actor's (POST /api/v1/agents/register), once or `maxUses`
 * times until it expires. Its agents land in `roomId` (a room the actor may invite into), else #general:
 * `room` says which.
 */
export async function createOnboardingToken(
  actor: Actor,
  input: CreateOnboardingTokenInput,
): Promise<{ id: string; token: string; expiresAt: string; room: RoomRef | null }> {
  authorize(actor, "agent.create", undefined);
  let room: RoomRef | null;
  if (input.roomId) {
    const subject = await loadRoomFor(actor, input.roomId);
    authorize(actor, "room.invite", subject);
    room = { id: subject.room.id, name: subject.room.name ?? (await roomView(subject.room.id, actor.participantId)).title };
  } else {
    const general = await generalRoomId(actor.workspaceId);
    room = general ? { id: general, name: DEFAULT_CHANNEL } : null;
  }
  const token = `sbo_${newSecret(24)}`;
  const expiresAt = new Date(Date.now() + input.expiresInDays * DAY_MS);
  const id = newId();
  await getDb().$transaction(async (tx) => {
    await tx.onboardingToken.create({
      data: {
        id,
        workspaceId: actor.workspaceId,
        createdById: actor.participantId,
        tokenHash: sha256(token),
        label: input.label,
        expiresAt,
        maxUses: input.maxUses ?? null,
        roomId: input.roomId ?? null,
      },
    });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "onboarding_token.created",
      subjectType: "onboarding_token",
      subjectId: id,
      data: { label: input.label, expiresAt: expiresAt.toISOString(), maxUses: input.maxUses ?? null, roomId: input.roomId ?? null },
    });
  });
  return { id, token, expiresAt: expiresAt.toISOString(), room };
}

/**
 * Onboarding tokens, newest first: active ones and those that stopped working lately. `mine`: the
 * actor's own; `workspace`: everyone's (owners and admins).
 */
export async function listOnboardingTokens(actor: Actor, scope: "mine" | "workspace"): Promise<OnboardingTokenView[]> {
  const createdById = scope === "mine" ? actor.participantId : null;
  authorize(actor, "onboarding_token.manage", { workspaceId: actor.workspaceId, createdById });
  const now = new Date();
  const rows = await getDb().onboardingToken.findMany(listedInvitations({ workspaceId: actor.workspaceId, ...(createdById ? { createdById } : {}) }, now));
  return rows.map((row) => presentOnboardingToken(row, now));
}

/**
 * Revokes a token: registrations with it are refused (UNAUTHENTICATED) from the commit on; agents it
 * already registered keep their keys. Revoking a revoked token changes and records nothing.
 */
export async function revokeOnboardingToken(actor: Actor, tokenId: string): Promise<OnboardingTokenView> {
  const db = getDb();
  const token = await db.onboardingToken.findUnique({ where: { id: tokenId }, select: { workspaceId: true, createdById: true } });
  if (!token) throw new AppError("NOT_FOUND", "No such onboarding token");
  authorize(actor, "onboarding_token.manage", token);
  await db.$transaction(async (tx) => {
    const { count } = await tx.onboardingToken.updateMany({ where: { id: tokenId, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count === 0) return;
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "onboarding_token.revoked",
      subjectType: "onboarding_token",
      subjectId: tokenId,
      data: { createdById: token.createdById },
    });
  });
  return presentOnboardingToken(await db.onboardingToken.findUniqueOrThrow({ where: { id: tokenId }, include: invitationInclude }));
}

const INVALID_TOKEN = "Invalid, expired or revoked onboarding token";

/** A script registers an agent for the person whose onboarding token it holds (`address`: the script's). */
export async function registerAgent(input: NewAgent & { onboardingToken: string }, address: string | null = null): Promise<RegisteredAgent> {
  await countAgentRegistration(address);
  const db = getDb();
  const token = await db.onboardingToken.findUnique({ where: { tokenHash: sha256(input.onboardingToken) } });
  if (!token || invitationState(token) !== "active") throw new AppError("UNAUTHENTICATED", INVALID_TOKEN);
  const owner = await db.member.findFirst({ where: { participantId: token.createdById }, include: { participant: true } });
  if (!owner || owner.participant.status !== "active") throw new AppError("UNAUTHENTICATED", INVALID_TOKEN);
  const ownerActor: Actor = {
    participantId: owner.participantId,
    workspaceId: owner.workspaceId,
    kind: "human",
    role: owner.role,
    handle: owner.participant.handle,
  };
  // The token's creator may have lost the right to create agents since (demoted to guest).
  authorize(ownerActor, "agent.create", undefined);
  const { onboardingToken: _secret, ...profile } = input;
  // The claim re-checks revocation, expiry and uses in one conditional update: a revoke (or the
  // last use) that committed after the read above still wins.
  const claimed = await db.onboardingToken.updateMany({
    where: { id: token.id, revokedAt: null, expiresAt: { gt: new Date() }, ...(token.maxUses !== null ? { uses: { lt: token.maxUses } } : {}) },
    data: { uses: { increment: 1 } },
  });
  if (claimed.count === 0) throw new AppError("UNAUTHENTICATED", INVALID_TOKEN);
  const { id, key } = await createWithKey(ownerActor, profile, "onboarded");
  const room = await landAgent(ownerActor, id, token.roomId);
  return { agent: await agentView(id), apiKey: key, workspaceId: ownerActor.workspaceId, room };
}

async function generalRoomId(workspaceId: string): Promise<string | null> {
  const general = await getDb().room.findUnique({ where: { workspaceId_name: { workspaceId, name: DEFAULT_CHANNEL } }, select: { id: true } });
  return general?.id ?? null;
}

/**
 * Puts a newly registered agent in the room its token names, invited by the token's creator, so that its
 * first message has somewhere to go; if that room is gone or its creator may no longer invite into it,
 * in #general instead. Null if the agent could join neither: it is registered all the same.
 */
async function landAgent(owner: Actor, agentId: string, roomId: string | null): Promise<RoomRef | null> {
  for (const target of new Set([roomId, await generalRoomId(owner.workspaceId)])) {
    if (!target) continue;
    try {
      const room = await inviteToRoom(owner, target, [agentId]);
      return { id: room.id, name: room.name ?? room.title };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  return null;
}

export async function agentView(agentId: string): Promise<AgentView> {
  return presentAgent(await getDb().participant.findUniqueOrThrow({ where: { id: agentId }, include: agentInclude }));
}
