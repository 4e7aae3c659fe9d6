// Boots the one process: migrations, the demo seed, then Next.js pages, tRPC and Socket.IO on one port.
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { NextServer } from "next/dist/server/next";
import { passwordTokenInput, registerAgentInput, SOCKET_PATH } from "@switchboard/sdk/contract";
import { closeDb, isPostgres, openDb } from "./db";
import { startExpirySweeper } from "./services/questions/questions";
import { startStatusSweeper } from "./services/work/status";
import { startFileSweeper } from "./services/files/files";
import { env } from "./env";
import { stampAddress } from "./http/client-address";
import { authenticatedJsonEndpoint, jsonEndpoint } from "./http/json-endpoint";
import { INSTALL_PREFIX, serveInstall } from "./http/install";
import { FILES_PATH, serveFiles } from "./http/files";
import { setSecurityHeaders } from "./http/security-headers";
import { migrate } from "./migrate";
import {
  CLAUDE_CODE_HOOKS_PATH,
  claudeCodeHookInput,
  claudeCodeHookOutput,
  handleClaudeCodeHook,
  HOOK_KEPT_STRING,
  MAX_HOOK_BODY,
} from "./bridges/claude-code/hooks";
import { A2A_PREFIX, a2aEndpoint } from "./bridges/a2a/inbound/endpoint";
import { MCP_PATH, mcpEndpoint } from "./bridges/mcp/endpoint";
import { startA2aHost } from "./bridges/a2a/outbound/host";
import { bindRealtime } from "./realtime";
import { seedDemo } from "./seed";
import { checkpointInBackground } from "./sqlite-checkpoints";
import { createAccessTokenWithPassword } from "./services/identity/access-tokens";
import { registerAgent } from "./services/identity/agents";
import { configureLimits } from "./services/governance/limits";
import { smtpMailer } from "./services/notifications/mailer";
import { startNotificationSweeper } from "./services/notifications/sweeper";
import { attachSocketServer } from "./socket";
import { createContext } from "./trpc/context";
import { appRouter } from "./trpc/router";

export interface StartOptions {
  port?: number;
  host?: string;
  /** Serve the Next.js pages. Off for API-only processes (integration tests, agent gateways). */
  withPages?: boolean;
  dev?: boolean;
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  httpServer: HttpServer;
  close(): Promise<void>;
}

const TRPC_PREFIX = "/api/trpc/";

interface Pages {
  handle: ReturnType<NextServer["getRequestHandler"]>;
  upgrade: ReturnType<NextServer["getUpgradeHandler"]>;
}

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const dev = opts.dev ?? env.NODE_ENV === "development";
  await migrate(env.DATABASE_URL, { log });
  // Auth.js, inside Next.js's own copy of server/db.ts, finds these connections on globalThis.
  const db = openDb(env.DATABASE_URL);
  const stopCheckpoints = isPostgres(env.DATABASE_URL) ? async () => {} : await checkpointInBackground(db, env.DATABASE_URL, log);
  if (env.SEED_DEMO) await seedDemo(log);

  const httpServer = createServer();
  // Longer than the idle timeouts of the clients and proxies in front (undici's 4 s, most load
  // balancers' 60 s), so the server is never the side that closes a connection as a request arrives.
  httpServer.keepAliveTimeout = 65_000;
  httpServer.headersTimeout = 66_000;
  const registerEndpoint = jsonEndpoint(registerAgentInput, registerAgent);
  const mcp = mcpEndpoint({ publicUrl: env.AUTH_URL });
  // Agents served over A2A (bridges/a2a/inbound): their cards and JSON-RPC.
  const a2a = a2aEndpoint({ publicUrl: env.AUTH_URL });
  // The CLI's login: a person's email and password for an access token.
  const tokensEndpoint = jsonEndpoint(passwordTokenInput, createAccessTokenWithPassword);
  // Claude Code's hooks, with the agent's key (bridges/claude-code/hooks.ts).
  const claudeCodeHooks = authenticatedJsonEndpoint(claudeCodeHookInput, handleClaudeCodeHook, {
    maxBody: MAX_HOOK_BODY,
    keepStrings: HOOK_KEPT_STRING,
    beside: claudeCodeHookOutput,
  });
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: TRPC_PREFIX,
    createContext: ({ req }) => createContext(req, env.AUTH_SECRET),
    maxBodySize: 256 * 1024,
  });

  let pages: Pages | null = null;
  if (opts.withPages ?? true) {
    const { default: next } = await import("next");
    const app = next({ dev, hostname: opts.host ?? env.HOST, port: opts.port ?? env.PORT, httpServer });
    await app.prepare();
    pages = { handle: app.getRequestHandler(), upgrade: app.getUpgradeHandler() };
  }

  httpServer.on("request", (req, res) => {
    stampAddress(req, env.TRUST_PROXY);
    setSecurityHeaders(req, res, dev);
    const url = req.url ?? "/";
    if (url.startsWith(TRPC_PREFIX)) return void trpc(req, res);
    if (url === "/healthz") {
      res.setHeader("Content-Type", "application/json");
      return void res.end(JSON.stringify({ ok: true }));
    }
    if (url === "/api/v1/agents/register") return void registerEndpoint(req, res);
    if (url === MCP_PATH || url.startsWith(`${MCP_PATH}?`)) return mcp.handle(req, res);
    if (url === "/api/v1/tokens") return void tokensEndpoint(req, res);
    if (url.startsWith(A2A_PREFIX)) return a2a.handle(req, res);
    if (url === CLAUDE_CODE_HOOKS_PATH) return void claudeCodeHooks(req, res);
    if (url === INSTALL_PREFIX || url.startsWith(`${INSTALL_PREFIX}/`) || url.startsWith(`${INSTALL_PREFIX}?`)) return void serveInstall(req, res);
    if (url === FILES_PATH || url.startsWith(`${FILES_PATH}/`) || url.startsWith(`${FILES_PATH}?`)) return void serveFiles(req, res);
    if (url.startsWith(`${SOCKET_PATH}/`)) return; // engine.io answers its own requests
    if (pages) return void pages.handle(req, res);
    res.statusCode = 404;
    res.end("Not found");
  });

  const closeLimits = await configureLimits({ redisUrl: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX });
  const sockets = await attachSocketServer(httpServer, {
    authSecret: env.AUTH_SECRET,
    publicUrl: env.AUTH_URL,
    trustedProxies: env.TRUST_PROXY,
    redis: env.REDIS_URL ? { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX } : undefined,
  });
  httpServer.on("upgrade", (req, socket, head) => {
    if ((req.url ?? "").startsWith(`${SOCKET_PATH}/`)) return; // Socket.IO's own listener takes it
    if (pages) return void pages.upgrade(req, socket, head);
    socket.destroy();
  });

  // Expired questions take their decision on every process; the first to get there wins.
  const stopExpiry = startExpirySweeper();
  // So do work statuses whose agent stopped sending them (services/work/status.ts).
  const stopStatusExpiry = startStatusSweeper(env.STATUS_SWEEP_MS);
  // Uploads never attached to a message, after a day; deleted files' last traces (services/files).
  const stopFileSweep = startFileSweeper(env.FILE_SWEEP_MS);
  // A2A tasks left open by the last run are followed again in their rooms.
  await a2a.resume();

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(opts.port ?? env.PORT, opts.host ?? env.HOST, resolve);
  });
  const { port } = httpServer.address() as AddressInfo;
  const host = opts.host ?? env.HOST;
  const url = `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`;
  // Email digests only when SMTP is configured; without it nothing is queued either (outbox.ts). Links
  // use AUTH_URL, else the address really bound (PUBLIC_URL would name port 0 under PORT=0).
  const stopNotifications = env.SMTP_URL
    ? startNotificationSweeper({ mailer: smtpMailer(env.SMTP_URL, env.SMTP_FROM), batchSeconds: env.NOTIFY_BATCH_SECONDS, publicUrl: env.AUTH_URL ?? url, log })
    : async () => {};
  // Remote A2A agents' bridges, connected to this server as their agents (bridges/a2a/outbound/host.ts).
  const a2aHost = startA2aHost({ url, log, everyMs: env.A2A_HOST_PASS_MS, backoff: { minMs: 500, maxMs: env.A2A_RETRY_MAX_MS } });

  return {
    url,
    httpServer,
    async close() {
      await a2aHost.close();
      stopExpiry();
      stopStatusExpiry();
      stopFileSweep();
      bindRealtime(null);
      a2a.close();
      await mcp.close();
      // Closing waits for open connections. One whose last response ended after the close began stays
      // idle until its client lets go (undici's keep-alive: 4 s): idle ones are closed as they appear.
      const idle = setInterval(() => httpServer.closeIdleConnections(), 100);
      await sockets.close().finally(() => clearInterval(idle));
      await closeLimits();
      await stopNotifications();
      await stopCheckpoints();
      await closeDb();
    },
  };
}
