// `/a2a/<handle>`: a Switchboard agent served over A2A, with the official SDK's own handlers (JSON-RPC,
// the agent card, v0.3 clients through its compatibility layer). Each request is authenticated by a
// bearer credential of this workspace (an agent's key or a person's token) and checked against the
// same consent rules as a DM, before the SDK sees it. What Switchboard does before the SDK within a
// call is request-handler.ts; tasks are stored in the database (task-store.ts) and followed in their
// rooms (follower.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { A2A_PROTOCOL_VERSION, type AgentCard } from "@a2a-js/sdk";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import { DefaultRequestHandler } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler } from "@a2a-js/sdk/server/express";
import express, { type NextFunction, type Request, type Response } from "express";
import { authenticateAuthorization } from "../../../auth/bearer";
import { AppError, toErrorShape } from "../../../errors";
import { stampedAddress } from "../../../http/client-address";
import type { Actor } from "../../../policies";
import { assertMayCall, servedAgent, type ServedAgent } from "../../../services/a2a/tasks";
import { A2A_REQUESTS, countRequest } from "../../../services/governance/request-limits";
import { ServedAgentExecutor } from "./executor";
import { TaskFollower } from "./follower";
import { ServedRequestHandler } from "./request-handler";
import { Caller, DatabaseTaskStore } from "./task-store";

export const A2A_PREFIX = "/a2a/";
const CARD_PATH = "/.well-known/agent-card.json";
const MAX_BODY = "1mb";

/** JSON-RPC error codes of ours (the server-defined range), each with the AppError code in `data`. */
const RPC_CODE = { UNAUTHENTICATED: -32040, FORBIDDEN: -32041, NOT_FOUND: -32042, RATE_LIMITED: -32043 } as const;

interface Served {
  agent: ServedAgent;
  caller?: Actor;
}

type ServedRequest = Request & { served?: Served };

export interface A2aEndpointOptions {
  /** AUTH_URL, when set: the base of the URLs the cards give. Else the request's own host. */
  publicUrl?: string;
}

export function a2aEndpoint(opts: A2aEndpointOptions) {
  const follower = new TaskFollower();
  const store = new DatabaseTaskStore();
  /** Per agent, the SDK's handlers for its current card (rebuilt when the card changes). */
  const handlers = new Map<string, { card: string; rpc: express.RequestHandler; cardRoute: express.RequestHandler }>();

  function handlersFor(agent: ServedAgent, baseUrl: string) {
    const card = agentCard(agent, baseUrl);
    const json = JSON.stringify(card);
    const cached = handlers.get(agent.id);
    if (cached && cached.card === json) return cached;
    const sdk = new DefaultRequestHandler(card, store, new ServedAgentExecutor(agent, follower), follower);
    const requestHandler = new ServedRequestHandler(agent, sdk, follower);
    const entry = {
      card: json,
      rpc: jsonRpcHandler({ requestHandler, userBuilder: async (req) => new Caller((req as ServedRequest).served!.caller!), legacyCompat: { enabled: true } }),
      cardRoute: agentCardHandler({ agentCardProvider: requestHandler, cache: { maxAge: 60 }, legacyCompat: { enabled: true } }),
    };
    handlers.set(agent.id, entry);
    return entry;
  }

  const app = express();
  app.disable("x-powered-by");
  app.use("/a2a/:handle", async (req: ServedRequest, res: Response, next: NextFunction) => {
    const handle = String(req.params.handle ?? "");
    const baseUrl = opts.publicUrl ?? `http://${req.headers.host ?? "localhost"}`;
    try {
      if (req.method === "GET" && (req.path === CARD_PATH || req.path === "/.well-known/agent.json")) {
        // Cards are for discovery: anonymous callers get the one agent served under the handle.
        const caller = req.headers.authorization ? (await authenticateAuthorization(req.headers.authorization, stampedAddress(req))).actor : undefined;
        const agent = await servedAgent(handle, caller?.workspaceId);
        req.url = "/";
        return void handlersFor(agent, baseUrl).cardRoute(req, res, next);
      }
      if (req.method !== "POST" || (req.path !== "/" && req.path !== ""))
        return void refuse(
          res,
          404,
          null,
          new AppError("NOT_FOUND", "POST JSON-RPC to /a2a/<handle>, or GET its card at /a2a/<handle>/.well-known/agent-card.json"),
        );
      const { actor: caller } = await authenticateAuthorization(req.headers.authorization, stampedAddress(req));
      await countRequest(A2A_REQUESTS, caller, "A2A calls");
      const agent = await servedAgent(handle, caller.workspaceId);
      await assertMayCall(caller, agent);
      req.served = { agent, caller };
      const entry = handlersFor(agent, baseUrl);
      await new Promise<void>((resolve, reject) =>
        express.json({ limit: MAX_BODY, type: () => true })(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
      );
      entry.rpc(req, res, next);
    } catch (error) {
      refuse(res, undefined, null, error);
    }
  });

  return {
    handle(req: IncomingMessage, res: ServerResponse): void {
      app(req as Request, res as Response);
    },
    /** At boot: open tasks are followed again. */
    resume: () => follower.resume(),
    close(): void {
      follower.close();
    },
  };
}

/** An error as a JSON-RPC error body, with the HTTP status of its kind. */
function refuse(res: Response, status: number | undefined, id: string | number | null, error: unknown): void {
  // The body parser's own errors: not JSON (JSON-RPC's parse error), or too large.
  const parser = error as { type?: string; status?: number };
  if (parser?.type === "entity.parse.failed")
    return void res.status(400).json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } });
  if (parser?.type === "entity.too.large")
    return void res.status(413).json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `The request is larger than ${MAX_BODY}` } });
  const shape = toErrorShape(error);
  const code =
    shape.code === "UNAUTHENTICATED"
      ? RPC_CODE.UNAUTHENTICATED
      : shape.code === "RATE_LIMITED"
        ? RPC_CODE.RATE_LIMITED
        : shape.code.endsWith("NOT_FOUND")
          ? RPC_CODE.NOT_FOUND
          : RPC_CODE.FORBIDDEN;
  const httpStatus =
    status ??
    (shape.code === "UNAUTHENTICATED"
      ? 401
      : shape.code === "RATE_LIMITED"
        ? 429
        : shape.code.endsWith("NOT_FOUND")
          ? 404
          : shape.code === "INTERNAL"
            ? 500
            : 403);
  if (shape.code === "UNAUTHENTICATED") res.setHeader("WWW-Authenticate", 'Bearer realm="switchboard"');
  if (shape.retryAfterMs) res.setHeader("Retry-After", String(Math.ceil(shape.retryAfterMs / 1000)));
  res.status(httpStatus).json({
    jsonrpc: "2.0",
    id,
    error: {
      code,
      message: shape.message,
      data: { code: shape.code, retryable: shape.retryable, ...(shape.retryAfterMs ? { retryAfterMs: shape.retryAfterMs } : {}) },
    },
  });
}

/** The agent's card: who it is, what it does (its capabilities as skills), where and how to call it. */
export function agentCard(agent: ServedAgent, baseUrl: string): AgentCard {
  const url = `${baseUrl.replace(/\/$/, "")}/a2a/${agent.handle}`;
  const skills = agent.capabilities.length ? agent.capabilities : ["chat"];
  return {
    name: agent.displayName,
    description:
      agent.description || `@${agent.handle}, an agent in a Switchboard workspace. Each request is a message in its room, where people can follow and join.`,
    supportedInterfaces: duplicateInterfacesForLegacy([{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION }], ["JSONRPC"]),
    provider: { organization: "Switchboard", url: baseUrl },
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      switchboard: {
        scheme: {
          $case: "httpAuthSecurityScheme",
          value: {
            scheme: "Bearer",
            bearerFormat: "Switchboard agent key (sb_…) or access token (sbp_…)",
            description: "A credential of the agent's workspace; the caller needs an accepted connection with the agent.",
          },
        },
      },
    },
    securityRequirements: [{ schemes: { switchboard: { list: [] } } }],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills: skills.map((name) => ({
      id:
        name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "-")
          .replace(/^-|-$/g, "") || "skill",
      name,
      description: `${name} (@${agent.handle})`,
      tags: [name],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    documentationUrl: "",
    signatures: [],
  };
}
