// Limits: per-agent message rates (a sustained rate per minute plus a burst), sign-in attempts, and
// the loop guard that pauses agents talking only to each other. Counters live in memory for one
// process, and in Redis (shared by every process) when REDIS_URL is set: rate-limiter-flexible does
// the counting.
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { createClient } from "redis";
import { getDb } from "../db";
import { AppError } from "../errors";
import { newId } from "../ids";
import { authorize, type Actor } from "../policies";
import { recordAudit } from "./audit";

type RedisClient = ReturnType<typeof createClient>;

let redis: RedisClient | null = null;
let keyPrefix = "switchboard";
const limiters = new Map<string, RateLimiterAbstract | BurstyRateLimiter>();

/** At boot: share counters through Redis when there are several processes. */
export async function configureLimits(opts: { redisUrl?: string; keyPrefix: string }): Promise<() => Promise<void>> {
  keyPrefix = opts.keyPrefix;
  limiters.clear();
  if (!opts.redisUrl) return async () => {};
  const client = createClient({ url: opts.redisUrl });
  client.on("error", (error: unknown) => console.error("redis (limits):", error));
  await client.connect();
  redis = client;
  return async () => {
    redis = null;
    limiters.clear();
    await client.quit().catch(() => {});
  };
}

function limiter(name: string, points: number, duration: number): RateLimiterAbstract {
  const opts = { keyPrefix: `${keyPrefix}:rl:${name}:${points}:${duration}`, points, duration };
  return redis ? new RateLimiterRedis({ ...opts, storeClient: redis, useRedisPackage: true }) : new RateLimiterMemory(opts);
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

/** The agent's effective limits: its overrides, else the workspace's defaults. */
export async function limitsFor(participantId: string) {
  const p = await getDb().participant.findUniqueOrThrow({
    where: { id: participantId },
    select: { messagesPerMinute: true, burst: true, workspace: { select: { agentMessagesPerMinute: true, agentBurst: true, loopGuardMessages: true, loopGuardWindowSec: true } } },
  });
  return {
    messagesPerMinute: p.messagesPerMinute ?? p.workspace.agentMessagesPerMinute,
    burst: p.burst ?? p.workspace.agentBurst,
    loopGuardMessages: p.workspace.loopGuardMessages,
    loopGuardWindowSec: p.workspace.loopGuardWindowSec,
  };
}

/** One message from an agent: RATE_LIMITED (with retryAfterMs) past its rate and burst. */
export async function consumeAgentMessage(actor: Actor): Promise<void> {
  if (actor.kind !== "agent") return;
  const { messagesPerMinute, burst } = await limitsFor(actor.participantId);
  const bucket = cached(`msg:${messagesPerMinute}:${burst}`, () =>
    new BurstyRateLimiter(limiter("msg", messagesPerMinute, 60), limiter("msg-burst", Math.max(1, burst), 60)),
  );
  try {
    await bucket.consume(actor.participantId);
  } catch (res) {
    rateLimited(res, `@${actor.handle} may send ${messagesPerMinute} messages a minute (burst ${burst})`);
  }
}

const SIGN_IN_ATTEMPTS = 10;
const SIGN_IN_WINDOW_S = 15 * 60;

/** Failed sign-ins per email: after SIGN_IN_ATTEMPTS in the window, sign-in is refused until it passes. */
export async function signInBlocked(email: string): Promise<boolean> {
  const failures = cached("signin", () => limiter("signin", SIGN_IN_ATTEMPTS, SIGN_IN_WINDOW_S));
  const res = await failures.get(email.toLowerCase());
  return res !== null && res.consumedPoints >= SIGN_IN_ATTEMPTS;
}

export async function recordFailedSignIn(email: string): Promise<void> {
  const failures = cached("signin", () => limiter("signin", SIGN_IN_ATTEMPTS, SIGN_IN_WINDOW_S));
  try {
    await failures.consume(email.toLowerCase());
  } catch (res) {
    if (!(res instanceof RateLimiterRes)) throw res; // already blocked: nothing more to count
  }
}

/**
 * The loop guard, before an agent's message is stored: in a room where agents alone have posted the
 * workspace's limit within its window (since the last person spoke), agents pause until a person
 * continues. Returns the system notice to post when this call is the one that paused the room.
 */
export async function checkLoopGuard(actor: Actor, roomId: string): Promise<{ paused: boolean; notice: string | null }> {
  if (actor.kind !== "agent") return { paused: false, notice: null };
  const db = getDb();
  const room = await db.room.findUniqueOrThrow({ where: { id: roomId }, select: { agentsPausedAt: true } });
  if (room.agentsPausedAt) return { paused: true, notice: null };
  const { loopGuardMessages, loopGuardWindowSec } = await limitsFor(actor.participantId);
  const lastPerson = await db.message.findFirst({
    where: { roomId, kind: "text", author: { kind: "human" } },
    orderBy: { seq: "desc" },
    select: { seq: true },
  });
  const since = new Date(Date.now() - loopGuardWindowSec * 1000);
  const agentRun = await db.message.count({
    where: { roomId, kind: "text", seq: { gt: lastPerson?.seq ?? 0 }, createdAt: { gte: since }, author: { kind: "agent" } },
  });
  if (agentRun < loopGuardMessages) return { paused: false, notice: null };
  const { count } = await db.room.updateMany({ where: { id: roomId, agentsPausedAt: null }, data: { agentsPausedAt: new Date() } });
  const notice = `Agents are paused here: they exchanged ${agentRun} messages in ${Math.round(loopGuardWindowSec / 60)} min without a person. Post a message to let them continue.`;
  return { paused: true, notice: count === 1 ? notice : null };
}

export function roomPaused(): AppError {
  return new AppError("ROOM_PAUSED", "Agents are paused in this room until a person continues the conversation", { retryAfterMs: 60_000 });
}

export interface WorkspaceLimits {
  agentMessagesPerMinute: number;
  agentBurst: number;
  loopGuardMessages: number;
  loopGuardWindowSec: number;
}

export async function workspaceLimits(actor: Actor): Promise<WorkspaceLimits> {
  authorize(actor, "workspace.read", { workspaceId: actor.workspaceId });
  return getDb().workspace.findUniqueOrThrow({
    where: { id: actor.workspaceId },
    select: { agentMessagesPerMinute: true, agentBurst: true, loopGuardMessages: true, loopGuardWindowSec: true },
  });
}

export async function setWorkspaceLimits(actor: Actor, input: Partial<WorkspaceLimits>): Promise<WorkspaceLimits> {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  await getDb().$transaction(async (tx) => {
    await tx.workspace.update({ where: { id: actor.workspaceId }, data: input });
    await recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.participantId, action: "limits.workspace_changed", subjectType: "workspace", subjectId: actor.workspaceId, data: input });
  });
  return workspaceLimits(actor);
}

export async function setAgentLimits(actor: Actor, input: { agentId: string; messagesPerMinute: number | null; burst: number | null }) {
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

export const systemClientMsgId = () => `system:${newId()}`;
