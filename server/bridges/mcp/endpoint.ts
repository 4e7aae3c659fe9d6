// `/api/mcp`: the MCP server over Streamable HTTP (the official SDK's transport), on the app's port.
// Every request is authenticated by its bearer credential and checked for where it comes from; a
// session belongs to the credential that opened it. Sessions live in this process's memory: behind
// a load balancer, route by the `Mcp-Session-Id` header (docs/operations.md).
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { authenticateAuthorization } from "../../auth/bearer";
import { AppError, ERROR_CODES, toErrorShape } from "../../errors";
import { stampedAddress } from "../../http/client-address";
import type { Actor } from "../../policies";
import { idleSessions, sessionsToCloseForNew } from "../../services/governance/mcp-sessions";
import { createSession, type McpSession } from "./session";

export const MCP_PATH = "/api/mcp";
const MAX_BODY_BYTES = 1024 * 1024;

interface Entry {
  id: string;
  transport: StreamableHTTPServerTransport;
  session: McpSession;
  credentialId: string;
  participantId: string;
  actor: Actor;
  lastUsed: number;
}

export interface McpEndpointOptions {
  /** AUTH_URL, when set: the only Host and Origin accepted. */
  publicUrl?: string;
}

export function mcpEndpoint(opts: McpEndpointOptions) {
  const sessions = new Map<string, Entry>();
  const reaper = setInterval(() => {
    for (const entry of idleSessions(sessions.values())) void entry.transport.close();
  }, 60_000);
  reaper.unref();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      checkOrigin(req, opts.publicUrl);
      const address = stampedAddress(req) ?? null;
      const { actor, credentialId } = await authenticate(req.headers.authorization, address);
      const body = req.method === "POST" ? await readJson(req) : undefined;
      const sessionId = header(req, "mcp-session-id");
      let entry: Entry | undefined;
      if (sessionId) {
        entry = sessions.get(sessionId);
        // Another credential's session is, to this caller, no session at all.
        if (!entry || entry.credentialId !== credentialId) return void refuse(res, 404, new AppError("NOT_FOUND", "No such MCP session; initialize a new one"));
      } else if (req.method === "POST" && isInitializeRequest(body)) {
        entry = await open(actor, credentialId, wantsChannel(req));
      } else {
        return void refuse(res, 400, new AppError("INVALID_PAYLOAD", "Send Mcp-Session-Id, or initialize first"));
      }
      entry.actor = actor;
      entry.lastUsed = Date.now();
      if (req.method === "GET") whenStreaming(res, () => entry.session.streamOpened());
      await entry.transport.handleRequest(req, res, body);
    } catch (error) {
      if (res.headersSent) return void res.end();
      const shape = toErrorShape(error);
      refuse(res, ERROR_CODES[shape.code].status, error);
    }
  }

  async function open(actor: Actor, credentialId: string, channel: boolean): Promise<Entry> {
    for (const old of sessionsToCloseForNew(sessions.values(), actor.participantId)) await old.transport.close();
    const entry = { credentialId, participantId: actor.participantId, actor, lastUsed: Date.now() } as Entry;
    entry.session = createSession({ channel, actor: () => entry.actor });
    entry.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        entry.id = id;
        sessions.set(id, entry);
      },
    });
    entry.transport.onclose = () => {
      entry.session.close();
      if (entry.id) sessions.delete(entry.id);
    };
    await entry.session.server.connect(entry.transport);
    return entry;
  }

  return {
    handle: (req: IncomingMessage, res: ServerResponse) => void handle(req, res),
    /** Closes every session (their open streams end), for a clean shutdown. */
    async close(): Promise<void> {
      clearInterval(reaper);
      await Promise.all([...sessions.values()].map((e) => e.transport.close()));
    },
    /** Sessions open in this process (for tests and operations). */
    size: () => sessions.size,
  };
}

/** Who is calling: the bearer credential, checked on every request (auth/bearer.ts). */
async function authenticate(authorization: string | undefined, address: string | null): Promise<{ actor: Actor; credentialId: string }> {
  const { actor, credential } = await authenticateAuthorization(authorization, address);
  return { actor, credentialId: credential.id };
}

/**
 * Where a request comes from. A browser page on another site cannot read the key, but it can send
 * requests: those carry its Origin and are refused. With AUTH_URL set, so is any Host but its own
 * (a DNS name rebound to this server).
 */
function checkOrigin(req: IncomingMessage, publicUrl: string | undefined): void {
  const origin = header(req, "origin");
  const own = publicUrl ? new URL(publicUrl) : null;
  if (own && header(req, "host") !== own.host) throw new AppError("FORBIDDEN", "This server answers MCP requests only at its own address");
  if (origin === undefined) return;
  const allowed = own ? origin === own.origin : hostOf(origin) === header(req, "host");
  if (!allowed) throw new AppError("FORBIDDEN", "MCP requests from other sites' pages are refused");
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * Calls `opened` once the SDK answered a GET with its event stream: the transport has registered the
 * stream by the time it writes the response's head.
 */
function whenStreaming(res: ServerResponse, opened: () => void): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const written = writeHead(...args);
    if (res.statusCode === 200) setImmediate(opened);
    return written;
  }) as typeof res.writeHead;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function wantsChannel(req: IncomingMessage): boolean {
  return header(req, "x-switchboard-channel") === "1" || new URL(req.url ?? "/", "http://x").searchParams.get("channel") === "1";
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new AppError("INVALID_PAYLOAD", "Request too large");
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new AppError("INVALID_PAYLOAD", "The body is not JSON");
  }
}

/** A refusal as JSON-RPC says an HTTP-level error looks, with our error shape in `data`. */
function refuse(res: ServerResponse, status: number, error: unknown): void {
  const shape = toErrorShape(error);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (status === 401)
    headers["WWW-Authenticate"] = `Bearer realm="switchboard", error="invalid_token", error_description="${shape.message.replaceAll('"', "'")}"`;
  if (shape.retryAfterMs !== undefined) headers["Retry-After"] = String(Math.ceil(shape.retryAfterMs / 1000));
  res.writeHead(status, headers);
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: `${shape.code}: ${shape.message}`, data: shape }, id: null }));
}
