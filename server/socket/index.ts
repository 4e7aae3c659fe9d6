// The Socket.IO server: one protocol for browsers and agents. A browser authenticates with its
// session cookie; agents (API keys) join through the same middleware in a later protocol step.
import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import { PROTOCOL_VERSION, SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from "../../sdk/contract";
import { accountIdFromCookies } from "../auth/session";
import { getDb } from "../db";
import { AppError } from "../errors";
import type { Actor } from "../policies";
import { participantSelect, presentParticipant } from "../presenters/participant";
import { audience, bindRealtime } from "../realtime";
import { connected, disconnected } from "../realtime/presence";
import { actorForAccount } from "../services/accounts";
import { registerHandlers } from "./handlers";

export const MAX_PACKET_BYTES = 256 * 1024;

export function attachSocketServer(httpServer: HttpServer, opts: { authSecret: string }) {
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
    path: SOCKET_PATH,
    maxHttpBufferSize: MAX_PACKET_BYTES,
    // Other upgrade requests (Next.js's dev reload) belong to someone else: leave them alone.
    destroyUpgrade: false,
    serveClient: false,
    connectionStateRecovery: undefined,
  });

  io.use(async (socket, next) => {
    const requested = (socket.handshake.auth as { protocol?: unknown } | undefined)?.protocol;
    if (requested !== undefined && requested !== PROTOCOL_VERSION) {
      return next(authError("PROTOCOL_UNSUPPORTED", `This server speaks protocol ${PROTOCOL_VERSION}`));
    }
    try {
      const accountId = await accountIdFromCookies(socket.handshake.headers.cookie, opts.authSecret);
      const actor = accountId ? await actorForAccount(accountId) : null;
      if (!actor) return next(authError("UNAUTHENTICATED", "Sign in first"));
      socket.data.actor = actor;
      socket.data.participantId = actor.participantId;
      next();
    } catch {
      next(authError("UNAVAILABLE", "Could not check credentials; retry"));
    }
  });

  io.on("connection", async (socket) => {
    const actor = socket.data.actor as Actor;
    registerHandlers(socket);
    const rooms = await getDb().roomMember.findMany({ where: { participantId: actor.participantId }, select: { roomId: true } });
    socket.join([
      audience.participant(actor.participantId),
      audience.workspace(actor.workspaceId),
      ...rooms.map((r) => audience.room(r.roomId)),
    ]);
    connected(actor.participantId, actor.workspaceId);
    socket.on("disconnect", () => disconnected(actor.participantId, actor.workspaceId));
    const me = await getDb().participant.findUniqueOrThrow({ where: { id: actor.participantId }, select: participantSelect });
    socket.emit("session:ready", { protocol: PROTOCOL_VERSION, participant: presentParticipant(me), workspaceId: actor.workspaceId });
  });

  bindRealtime(io);
  return io;
}

/** Handshake refusals carry the same { code, message, retryable } as acks, in `err.data`. */
function authError(code: "UNAUTHENTICATED" | "UNAVAILABLE" | "PROTOCOL_UNSUPPORTED", message: string): Error {
  const error = new Error(message) as Error & { data: unknown };
  error.data = new AppError(code, message).toShape();
  return error;
}
