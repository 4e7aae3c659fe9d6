// Limits: per-agent message rates (a sustained rate per minute plus a burst), sign-in attempts, and
// the loop guard that pauses agents talking only to each other. Counters live in memory for one
// process, and in Redis (shared by every process) when REDIS_URL is set: rate-limiter-flexible does
// the counting.
import type { SetAgentLimitsInput } from "@switchboard/sdk/admin";
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { createClient } from "redis";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { authorize, can, type Actor } from "../../policies";
import { presentWorkspaceLimits, workspaceLimitsSelect } from "../../presenters/limits";
import { recordAudit } from "./audit";
import type { WorkspaceLimits } from "../../presenters/limits";

export type { WorkspaceLimits } from "../../presenters/limits";

type RedisClient = ReturnType<typeof createClient>;

// On globalThis: Next.js bundles its own copy of this module (Auth.js checks sign-in limits there),
// and both copies must count with the same store.
const state = ((globalThis as unknown as { __switchboardLimits?: LimitsState }).__switchboardLimits ??= {
  redis: null,
  keyPrefix: "switchboard",
  limiters: new Map(),
});
interface LimitsState {
  redis: RedisClient | null;
  keyPrefix: string;
  limiters: Map<string, RateLimiterAbstract | BurstyRateLimiter>;
}
const limiters = state.limiters;

/** At boot: share counters through Redis when there are several processes. */
export async function configureLimits(opts: { redisUrl?: string; keyPrefix: string }): Promise<() => Promise<void>> {
  state.keyPrefix = opts.keyPrefix;
  limiters.clear();
  if (!opts.redisUrl) return async () => {};
  const client = createClient({ url: opts.redisUrl });
  client.on("error", (error: unknown) => console.error("redis (limits):", error));
  await client.connect();
  state.redis = client;
  return async () => {
    state.redis = null;
    limiters.clear();
    await client.quit().catch(() => {});
  };
}

function limiter(name: string, points: number, duration: number): RateLimiterAbstract {
  const opts = { keyPrefix: `${state.keyPrefix}:rl:${name}:${points}:${duration}`, points, duration };
  return state.redis ? new RateLimiterRedis({ ...opts, storeClient: state.redis, useRedisPackage: true }) : new RateLimiterMemory(opts);
}

function cached<T extends RateLimiterAbstract | BurstyRateLimiter>(key: string, make: () => T): T {
  let found = limiters.get(key) as T | undefined;
  if (!found) limiters.set(key, (found = make()));
  return found;
}

function rateLimited(res: unknown, what: string): never {
  const ms = res instanceof RateLimiterRes ? Math.max(1, Math.ceil(res.msBeforeNext)) : 1000;
  if (!(res instanceof RateLimiterRes)) throw res; // the store failed: not a verdict
  throw new AppError("RATE_LIMITED", `${what}; retry in ${Math.ceil(ms / 1000)} s`, { retryAfterMs: ms });
}

export interface AgentLimits {
  messagesPerMinute: number;
  burst: number;
  loopGuardMessages: number;
  loopGuardWindowSec: number;
}

/** The columns `effectiveLimits` reads, for Prisma `select`. */
const agentLimitFields = { messagesPerMinute: true, burst: true } as const;

/** An agent's limits: its own overrides, else its workspace's defaults. */
export function effectiveLimits(agent: { messagesPerMinute: number | null; burst: number | null }, workspace: WorkspaceLimits): AgentLimits {
  return {
    messagesPerMinute: agent.messagesPerMinute ?? workspace.agentMessagesPerMinute,
    burst: agent.burst ?? workspace.agentBurst,
    loopGuardMessages: workspace.loopGuardMessages,
    loopGuardWindowSec: workspace.loopGuardWindowSec,
  };
}

export async function limitsFor(participantId: string): Promise<AgentLimits> {
  const p = await getDb().participant.findUniqueOrThrow({
    where: { id: participantId },
    select: { ...agentLimitFields, workspace: { select: workspaceLimitsSelect } },
  });
  return effectiveLimits(p, p.workspace);
}

/** How many messages a participant may send: a sustained rate per minute, plus a burst. */
export interface MessageRate {
  messagesPerMinute: number;
  burst: number;
}

/**
 * A participant's message rate: its own overrides, else its workspace's default for people or for
 * agents. Null when it is exempt (an owner who said so for themselves).
 */
export function messageRate(
  participant: { kind: string; messagesPerMinute: number | null; burst: number | null; rateLimitExempt: boolean },
  workspace: WorkspaceLimits,
): MessageRate | null {
  if (participant.rateLimitExempt) return null;
  const agent = participant.kind === "agent";
  return {
    messagesPerMinute: participant.messagesPerMinute ?? (agent ? workspace.agentMessagesPerMinute : workspace.peopleMessagesPerMinute),
    burst: participant.burst ?? (agent ? workspace.agentBurst : workspace.peopleBurst),
  };
}

/**
 * One message: RATE_LIMITED (with retryAfterMs) past the participant's rate and burst. Counts the
 * messages of the last minute: `messagesPerMinute` of them, plus `burst` more within it.
 */
export async function consumeMessage(actor: Actor, rate: MessageRate): Promise<void> {
  const { messagesPerMinute, burst } = rate;
  const bucket = cached(
    `msg:${messagesPerMinute}:${burst}`,
    () => new BurstyRateLimiter(limiter("msg", messagesPerMinute, 60), limiter("msg-burst", Math.max(1, burst), 60)),
  );
  try {
    await bucket.consume(actor.participantId);
  } catch (res) {
    rateLimited(res, `@${actor.handle} may send ${messagesPerMinute} messages a minute (burst ${burst})`);
  }
}

/** A named limit: at most `points` uses per `perSeconds` for each key (a participant, an address, an email). */
export interface Rule {
  name: string;
  points: number;
  perSeconds: number;
}

const ruleLimiter = (rule: Rule) => cached(`rule:${rule.name}:${rule.points}:${rule.perSeconds}`, () => limiter(rule.name, rule.points, rule.perSeconds));

/** Counts `points` uses of `rule` by `key`: RATE_LIMITED (with retryAfterMs, saying `what`) past the limit. */
export async function consume(rule: Rule, key: string, what: string, points = 1): Promise<void> {
  try {
    await ruleLimiter(rule).consume(key, points);
  } catch (res) {
    rateLimited(res, what);
  }
}

/** Counts one use without refusing it: for limits that are checked apart from being counted (failures). */
export async function count(rule: Rule, key: string): Promise<void> {
  try {
    await ruleLimiter(rule).consume(key);
  } catch (res) {
    if (!(res instanceof RateLimiterRes)) throw res; // already used up: nothing more to count
  }
}

/** RATE_LIMITED, as `consume` says it past the limit, when `key` has used up `rule`; counts no use. */
export async function refuseIfExhausted(rule: Rule, key: string, what: string): Promise<void> {
  const res = await ruleLimiter(rule).get(key);
  if (res !== null && res.consumedPoints >= rule.points) rateLimited(res, what);
}

/** Whether `key` has used up `rule`, without counting a use. */
export async function exhausted(rule: Rule, key: string): Promise<boolean> {
  const res = await ruleLimiter(rule).get(key);
  return res !== null && res.consumedPoints >= rule.points;
}

/** Failed sign-ins per email: after 10 in 15 minutes, sign-in is refused until the window passes. */
const FAILED_SIGN_INS: Rule = { name: "signin", points: 10, perSeconds: 15 * 60 };

export const signInBlocked = (email: string): Promise<boolean> => exhausted(FAILED_SIGN_INS, email.toLowerCase());

export const recordFailedSignIn = (email: string): Promise<void> => count(FAILED_SIGN_INS, email.toLowerCase());

export function roomPaused(): AppError {
  return new AppError("ROOM_PAUSED", "Agents are paused in this room until a person continues the conversation", { retryAfterMs: 60_000 });
}

export async function workspaceLimits(actor: Actor): Promise<WorkspaceLimits> {
  return presentWorkspaceLimits(await getDb().workspace.findUniqueOrThrow({ where: { id: actor.workspaceId }, select: workspaceLimitsSelect }));
}

export async function setWorkspaceLimits(actor: Actor, input: Partial<WorkspaceLimits>): Promise<WorkspaceLimits> {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  await getDb().$transaction(async (tx) => {
    await tx.workspace.update({ where: { id: actor.workspaceId }, data: input });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "limits.workspace_changed",
      subjectType: "workspace",
      subjectId: actor.workspaceId,
      data: input,
    });
  });
  return workspaceLimits(actor);
}

export async function setAgentLimits(actor: Actor, input: SetAgentLimitsInput) {
  const agent = await getDb().participant.findUnique({ where: { id: input.agentId } });
  if (!agent || agent.kind !== "agent" || agent.workspaceId !== actor.workspaceId) throw new AppError("PARTICIPANT_NOT_FOUND", "No such agent");
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  await getDb().$transaction(async (tx) => {
    await tx.participant.update({ where: { id: input.agentId }, data: { messagesPerMinute: input.messagesPerMinute, burst: input.burst } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "limits.agent_changed",
      subjectType: "participant",
      subjectId: input.agentId,
      data: { messagesPerMinute: input.messagesPerMinute, burst: input.burst },
    });
  });
  return limitsFor(input.agentId);
}

/** Whether the actor sends without a message rate, and whether they may change that. */
export async function rateExemption(actor: Actor): Promise<{ exempt: boolean; can: { change: boolean } }> {
  const me = await getDb().participant.findUniqueOrThrow({ where: { id: actor.participantId }, select: { rateLimitExempt: true } });
  return { exempt: me.rateLimitExempt, can: { change: can(actor, "member.exempt_self", undefined) } };
}

/**
 * An owner exempts themselves from (or submits again to) the people's message rate. Only explicitly,
 * and only for themselves: nobody else is ever exempt.
 */
export async function setRateExemption(actor: Actor, exempt: boolean): Promise<{ exempt: boolean; can: { change: boolean } }> {
  authorize(actor, "member.exempt_self", undefined);
  await getDb().$transaction(async (tx) => {
    await tx.participant.update({ where: { id: actor.participantId }, data: { rateLimitExempt: exempt } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "limits.owner_exempt",
      subjectType: "participant",
      subjectId: actor.participantId,
      data: { exempt },
    });
  });
  return rateExemption(actor);
}

export const systemClientMsgId = () => `system:${newId()}`;
