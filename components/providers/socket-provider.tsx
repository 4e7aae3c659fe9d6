"use client";
// One Socket.IO connection per tab, authenticated by the session cookie (same origin). Components
// subscribe to events through `useSocketEvent`. The server emits session:ready once it has subscribed
// the socket to its rooms: only then is the tab "connected" (live events flow), and `readyEpoch`
// changes, which is when open rooms resync what they may have missed while disconnected. A sync
// started at mere transport connect could finish before the subscription and miss what came between.
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { io, type Socket } from "socket.io-client";
import { useWorkspaceId } from "./viewer-provider";
import { SOCKET_PATH, type ClientToServerEvents, type Feature, type ServerToClientEvents } from "@switchboard/sdk/contract";

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
/** "connected": subscribed to its rooms (session:ready), not merely a transport that is up. */
export type ConnectionStatus = "connecting" | "connected" | "reconnecting";

interface SocketContextValue {
  socket: AppSocket | null;
  status: ConnectionStatus;
  readyEpoch: number;
  /** Live presence from presence:update; absent ids fall back to what a query returned. */
  presence: ReadonlyMap<string, boolean>;
}

const SocketContext = createContext<SocketContextValue>({ socket: null, status: "connecting", readyEpoch: 0, presence: new Map() });

export function SocketProvider({ children }: { children: ReactNode }) {
  const workspaceId = useWorkspaceId();
  const [socket, setSocket] = useState<AppSocket | null>(null);
  const [status, setStatus] = useState<ConnectionStatus>("connecting");
  const [readyEpoch, setReadyEpoch] = useState(0);
  const [presence, setPresence] = useState<ReadonlyMap<string, boolean>>(new Map());

  useEffect(() => {
    // WebSocket first (no sticky sessions needed behind several processes); long-polling if it is blocked.
    const features: Feature[] = ["message:batch"];
    const s: AppSocket = io({
      path: SOCKET_PATH,
      withCredentials: true,
      transports: ["websocket", "polling"],
      tryAllTransports: true,
      auth: { features, workspaceId },
    });
    let everConnected = false;
    s.on("disconnect", () => setStatus(everConnected ? "reconnecting" : "connecting"));
    s.on("session:ready", (p) => {
      everConnected = true;
      setStatus("connected");
      setPresence((prev) => new Map(prev).set(p.participant.id, true));
      setReadyEpoch((n) => n + 1);
    });
    s.on("presence:update", (p) => setPresence((prev) => new Map(prev).set(p.participantId, p.online)));
    s.on("connect_error", (err) => {
      const code = (err as Error & { data?: { code?: string } }).data?.code;
      // The session is gone (expired, signed out in another tab): back to sign-in.
      if (code === "UNAUTHENTICATED") window.location.assign("/signin");
    });
    setSocket(s);
    return () => {
      s.removeAllListeners();
      s.disconnect();
      setSocket(null);
    };
  }, [workspaceId]);

  const value = useMemo(() => ({ socket, status, readyEpoch, presence }), [socket, status, readyEpoch, presence]);
  return <SocketContext.Provider value={value}>{children}</SocketContext.Provider>;
}

export function useSocket(): SocketContextValue {
  return useContext(SocketContext);
}

/** Subscribes to a server event for the component's lifetime; the latest handler is always called. */
export function useSocketEvent<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]): void {
  const { socket } = useSocket();
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!socket) return;
    const listener = ((...args: Parameters<ServerToClientEvents[E]>) => (ref.current as (...a: unknown[]) => void)(...args)) as never;
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, event]);
}
