// The Socket.IO server: one protocol for browsers and agents. A browser authenticates with its
// session cookie, an agent with its API key, a person's script with an access token; all then use
// the same events and services.
import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import {
  FEATURES,
  handshakeFeatures,
  PROTOCOL_VERSION,
  type Feature,
  SOCKET_PATH,
  type ClientToServerEvents,
  type ReplayPage,
  type ServerToClientEvents,
} from "@switchboard/sdk/contract";
import { authenticateHandshake, reauthenticate } from "../auth/handshake";
import { AppError, toErrorShape } from "../errors";
import { sha256 } from "../ids";
import { clientAddress } from "../http/client-address";
import { isHumanAdmin, type Actor } from "../policies";
import { audience, bindRealtime } from "../realtime";
import { connected, disconnected } from "../realtime/presence";
import { attachRedisAdapter } from "../realtime/redis";
import { onRightsChanged } from "../realtime/sessions";
import { receiveWakeups } from "../realtime/wakeups";
import { onAgentResumed } from "../realtime/resumes";
import { followsWholeRoom, memberships, replayMissed } from "../services/messaging/delivery";
import { FLOOD_COOLDOWN_MS, floodCoolingDown } from "../services/governance/request-limits";
import { touchSession } from "../services/identity/sessions";
import { BatchedWebSocketServer } from "./batched-writes";
import { registerHandlers } from "./handlers";
import type { AppSocket } from "./requests";

export const MAX_PACKET_BYTES = 256 * 1024;
const REPLAY_ACK_TIMEOUT_MS = 30_000;

export interface SocketServerOptions {
  authSecret: string;
  /** AUTH_URL, when set: the only origin whose pages may open a socket signed in by cookie. */
  publicUrl?: string;
  /** TRUST_PROXY: how many proxies' X-Forwarded-For entries say who the client is. */
  trustedProxies: number;
  redis?: { url: string; keyPrefix: string };
}

export async function attachSocketServer(httpServer: HttpServer, opts: SocketServerOptions) {
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
    path: SOCKET_PATH,
    maxHttpBufferSize: MAX_PACKET_BYTES,
    // Other upgrade requests (Next.js's dev reload) belong to someone else: leave them alone.
    destroyUpgrade: false,
    serveClient: false,
    // A client's packets of one turn leave in one write (batched-writes.ts).
    wsEngine: BatchedWebSocketServer,
  });

  io.use((socket, next) => void admit(socket, next));

  /** The handshake: the protocol version, the features asked for, and who this is. */
  async function admit(socket: AppSocket, next: (error?: Error) => void): Promise<void> {
    const auth = (socket.handshake.auth ?? {}) as Record<string, unknown>;
    if (auth.protocol !== undefined && auth.protocol !== PROTOCOL_VERSION) {
      return next(refusal(new AppError("PROTOCOL_UNSUPPORTED", `This server speaks protocol ${PROTOCOL_VERSION}`)));
    }
    const features = handshakeFeatures.safeParse(auth.features);
    if (!features.success) return next(refusal(new AppError("INVALID_PAYLOAD", "auth.features: a list of feature names")));
    // Names this server does not know are ignored: a newer client may ask for more.
    socket.data.features = FEATURES.filter((f) => features.data?.includes(f));
    try {
      const fingerprint = credentialFingerprint(auth, socket.handshake.headers.cookie);
      if (fingerprint && (await floodCoolingDown(fingerprint))) return next(refusal(flooded()));
      socket.data.fingerprint = fingerprint;
      const address = clientAddress(socket.handshake.address, socket.handshake.headers, opts.trustedProxies);
      const { actor, credential, accountId } = await authenticateHandshake(
        { auth, headers: socket.handshake.headers, address },
        { secret: opts.authSecret, publicUrl: opts.publicUrl },
      );
      if (await floodCoolingDown(actor.participantId)) return next(refusal(flooded()));
      socket.data.actor = actor;
      socket.data.participantId = actor.participantId;
      socket.data.accountId = accountId;
      // Revoking a key or a token finds the sockets it opened by these (realtime/sessions.ts).
      socket.data.keyId = credential?.kind === "agent_key" ? credential.id : null;
      socket.data.tokenId = credential?.kind === "access_token" ? credential.id : null;
      next();
    } catch (error) {
      next(refusal(error instanceof AppError ? error : new AppError("UNAVAILABLE", "Could not check credentials; retry")));
    }
  }

  onRightsChanged(io, reauthenticate, { acrossProcesses: Boolean(opts.redis) });
  receiveWakeups(io, { acrossProcesses: Boolean(opts.redis) });
  onAgentResumed(io, resumeRoom, { acrossProcesses: Boolean(opts.redis) });

  io.on("connection", (socket) => {
    const expiresAt = (socket.data.actor as Actor).accessToken?.expiresAt;
    if (expiresAt) closeWhenExpired(socket, expiresAt);
    registerHandlers(socket);
    void welcome(socket).catch((error) => {
      socket.emit("error", { ...toErrorShape(error), event: "session:ready" });
      socket.disconnect(true);
    });
  });

  const closeRedis = opts.redis ? await attachRedisAdapter(io, opts.redis.url, opts.redis.keyPrefix) : async () => {};
  bindRealtime(io);
  return {
    io,
    async close() {
      await new Promise<void>((resolve) => void io.close(() => resolve()));
      await closeRedis();
    },
  };
}

/**
 * Reads what `session:ready` says, then in one step (no await between) subscribes the socket to its
 * audiences, says hello and counts it online: nothing reaches a socket before its `session:ready`.
 * Then replays what an agent missed. A socket that dropped meanwhile is left alone.
 */
async function welcome(socket: AppSocket): Promise<void> {
  const actor = socket.data.actor as Actor;
  const features = socket.data.features as Feature[];
  let online = false;
  socket.on("disconnect", () => {
    if (online) disconnected(actor.participantId, actor.workspaceId);
  });
  const [rooms, me] = await Promise.all([memberships(actor), touchSession(actor)]);
  if (!socket.connected) return;
  void socket.join([
    audience.participant(actor.participantId),
    audience.workspace(actor.workspaceId),
    ...(isHumanAdmin(actor) ? [audience.admins(actor.workspaceId)] : []),
    // A person's browser hears of their other workspaces (the workspace rail).
    ...(socket.data.accountId ? [audience.account(socket.data.accountId as string)] : []),
    features.includes("message:batch") ? audience.batchReceivers : audience.singleReceivers,
    // An agent paused in a room follows none of it until resumed (services/membership/pauses.ts).
    ...rooms.filter((m) => followsWholeRoom(actor.kind, m.deliveryMode) && !m.pausedAt).map((m) => audience.room(m.room.id)),
  ]);
  socket.emit("session:ready", { protocol: PROTOCOL_VERSION, features, participant: me, workspaceId: actor.workspaceId, rooms });
  connected(actor.participantId, actor.workspaceId);
  online = true;
  if (actor.kind === "agent") await replayMissed(actor, (page) => sendPage(socket, page));
}

/** An agent resumed in a room: this socket follows it again (if its mode says so) and is handed what waited there. */
async function resumeRoom(socket: AppSocket, roomId: string): Promise<void> {
  const actor = socket.data.actor as Actor;
  const [membership] = await memberships(actor, roomId);
  if (!membership || membership.pausedAt || !socket.connected) return;
  if (followsWholeRoom(actor.kind, membership.deliveryMode)) void socket.join(audience.room(roomId));
  await replayMissed(actor, (page) => sendPage(socket, page), { roomId });
}

/** setTimeout's longest wait (about 24.8 days); a token may live a year, so longer waits are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A socket opened with an expiring access token closes when the token expires. */
function closeWhenExpired(socket: AppSocket, expiresAt: Date): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const wait = expiresAt.getTime() - Date.now();
    if (wait <= 0) return void socket.disconnect(true);
    timer = setTimeout(check, Math.min(wait, MAX_TIMER_MS));
  };
  socket.once("disconnect", () => clearTimeout(timer));
  check();
}

/**
 * Whether the client handled the page: its ack moves the delivered cursor past it, unless the ack says
 * `{ ok: false }` (a client closing before it handled the whole page).
 */
async function sendPage(socket: AppSocket, page: ReplayPage): Promise<boolean> {
  if (!socket.connected) return false;
  try {
    const answer: unknown = await socket.timeout(REPLAY_ACK_TIMEOUT_MS).emitWithAck("room:replay", page);
    return !(typeof answer === "object" && answer !== null && (answer as { ok?: unknown }).ok === false);
  } catch {
    return false; // no ack in time, or disconnected: the cursor stays, the next connection resumes
  }
}

const flooded = () =>
  new AppError("RATE_LIMITED", "Connections of yours were cut off twice for flooding; wait before reconnecting", { retryAfterMs: FLOOD_COOLDOWN_MS });

/** What a handshake's credential is known by without looking it up: a hash of the key, or of the cookies. */
function credentialFingerprint(auth: Record<string, unknown>, cookie: string | undefined): string | null {
  if (typeof auth.apiKey === "string") return `credential:${sha256(auth.apiKey)}`;
  return cookie ? `credential:${sha256(cookie)}` : null;
}

/** Handshake refusals carry the same { code, message, retryable } as acks, in `err.data`. */
function refusal(error: AppError): Error {
  const wrapped = new Error(error.message) as Error & { data: unknown };
  wrapped.data = error.toShape();
  return wrapped;
}
