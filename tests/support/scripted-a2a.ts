// A real A2A server, made with the official SDK (@a2a-js/sdk/server) on node:http: one agent card per
// path (`/<name>/.well-known/agent-card.json`, JSON-RPC at `/<name>`), one scripted executor behind
// them all. It records every message it is sent, with the Authorization header it came with, and can
// stop and start again on the same port (a remote that goes down and comes back).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { formatSSEEvent, SSE_HEADERS, TaskState, type AgentCard, type Message, type Part } from "@a2a-js/sdk";
import {
  AgentEvent,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  STATE_HEADERS_KEY,
  UnauthenticatedUser,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";

export interface Received {
  agent: string;
  text: string;
  contextId: string;
  taskId: string;
  /** The message answered a task the remote already had (INPUT_REQUIRED). */
  continuesTask: boolean;
  authorization: string | null;
  apiKey: string | null;
}

export interface ScriptedA2a {
  port: number;
  /** The card URL of one of its agents. */
  cardUrl(agent: string): string;
  received: Received[];
  stop(): Promise<void>;
  start(): Promise<void>;
  /** The tasks it was asked to cancel (A2A CancelTask), in order. */
  canceled: string[];
  /** Forgets every task (a remote restarted without a task store that persists). */
  forgetTasks(): void;
  close(): Promise<void>;
}

const text = (value: string): Part => ({ content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "text/plain" });
const agentMessage = (ctx: RequestContext, value: string, id = crypto.randomUUID()): Message => ({
  messageId: id,
  contextId: ctx.contextId,
  taskId: ctx.taskId,
  role: 2,
  parts: [text(value)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const textIn = (m: Message) => m.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("\n");

/**
 * The script, by what the last line of the message says (after "@handle: "):
 * - "ask …": a task that asks "Which colour?" (INPUT_REQUIRED); the answer completes it: "noted: <answer>".
 * - "report …": a task with an artifact `report.md` sent in two chunks, then completed with "done".
 * - "story …": a task whose answer streams in three status updates, then completes.
 * - "long …": a plain message of 80 000 bytes, more than a Switchboard message holds.
 * - "slow …": a task that works until it is canceled (CancelTask), then ends canceled.
 * - anything else: a plain message, "echo: <text>".
 */
class Script implements AgentExecutor {
  private readonly working = new Map<string, () => void>();

  constructor(
    private readonly onMessage: (ctx: RequestContext, text: string) => void,
    /** The tasks CancelTask was called for, in order. */
    private readonly canceled: string[],
  ) {}

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const said = textIn(ctx.userMessage);
    this.onMessage(ctx, said);
    const last = (said.trim().split("\n").at(-1) ?? "").replace(/^@[\w-]+: /, "");
    const status = (state: TaskState, message?: Message) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          status: { state, message, timestamp: new Date().toISOString() },
          metadata: undefined,
        }),
      );
    const task = () => {
      if (!ctx.task)
        bus.publish(
          AgentEvent.task({
            id: ctx.taskId,
            contextId: ctx.contextId,
            status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
            artifacts: [],
            history: [ctx.userMessage],
            metadata: undefined,
          }),
        );
      else bus.publish(AgentEvent.task(ctx.task));
    };
    if (ctx.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      task();
      status(TaskState.TASK_STATE_COMPLETED, agentMessage(ctx, `noted: ${last}`));
    } else if (last.startsWith("ask")) {
      task();
      status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage(ctx, "Which colour?"));
    } else if (last.startsWith("report")) {
      task();
      status(TaskState.TASK_STATE_WORKING);
      const artifact = (value: string, append: boolean, lastChunk: boolean) =>
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId: ctx.taskId,
            contextId: ctx.contextId,
            artifact: { artifactId: "a1", name: "report.md", description: "", parts: [text(value)], metadata: undefined, extensions: [] },
            append,
            lastChunk,
            metadata: undefined,
          }),
        );
      artifact("# Report\n", false, false);
      artifact("All green.", true, true);
      status(TaskState.TASK_STATE_COMPLETED, agentMessage(ctx, "done"));
    } else if (last.startsWith("story")) {
      task();
      const id = crypto.randomUUID();
      let told = "";
      for (const word of ["Once", "upon", "a time."]) {
        told = told ? `${told} ${word}` : word;
        status(TaskState.TASK_STATE_WORKING, agentMessage(ctx, told, id));
        await new Promise((r) => setTimeout(r, 150));
      }
      status(TaskState.TASK_STATE_COMPLETED, agentMessage(ctx, told, id));
    } else if (last.startsWith("slow")) {
      task();
      status(TaskState.TASK_STATE_WORKING, agentMessage(ctx, "Working on it"));
      await new Promise<void>((resolve) => {
        this.working.set(ctx.taskId, resolve);
        setTimeout(resolve, 30_000).unref();
      });
      status(this.canceled.includes(ctx.taskId) ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_COMPLETED);
    } else if (last.startsWith("long")) {
      bus.publish(AgentEvent.message(agentMessage(ctx, "é".repeat(40_000))));
    } else {
      bus.publish(AgentEvent.message(agentMessage(ctx, `echo: ${last}`)));
    }
    bus.finished();
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    this.canceled.push(taskId);
    this.working.get(taskId)?.();
    bus.finished();
  };
}

function card(name: string, url: string, streaming: boolean): AgentCard {
  return {
    name,
    description: `The scripted ${name} agent`,
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "echo", name: "Echo", description: "Says it back", tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  } as AgentCard;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** `agents`: name → streaming; `requireAuth`: name → the Authorization header it insists on. */
export async function startScriptedA2a(agents: Record<string, boolean>, requireAuth: Record<string, string> = {}): Promise<ScriptedA2a> {
  const received: Received[] = [];
  const canceled: string[] = [];
  let port = 0;
  const handlers = new Map<string, { card: AgentCard; rpc: JsonRpcTransportHandler }>();

  let server: Server | null = null;
  const listen = async () => {
    server = createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://x");
        const name = url.pathname.split("/")[1] ?? "";
        const agent = handlers.get(name);
        if (!agent) return void res.writeHead(404).end("no such agent");
        if (req.method === "GET" && url.pathname === `/${name}/.well-known/agent-card.json`) {
          return void res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(agent.card));
        }
        if (req.method !== "POST" || url.pathname !== `/${name}`) return void res.writeHead(404).end();
        const authorization = req.headers.authorization ?? null;
        if (requireAuth[name] && authorization !== requireAuth[name]) return void res.writeHead(401).end("unauthorized");
        const context = defaultServerCallContextBuilder({
          extensions: undefined,
          user: new UnauthenticatedUser(),
          headers: req.headers,
          requestedVersion: (req.headers["a2a-version"] as string | undefined) ?? "1.0",
        });
        const result = await agent.rpc.handle(await body(req), context);
        if (result && typeof (result as AsyncGenerator)[Symbol.asyncIterator] === "function") {
          res.writeHead(200, SSE_HEADERS);
          for await (const event of result as AsyncGenerator) res.write(formatSSEEvent(event));
          return void res.end();
        }
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(result));
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
        else res.end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    port = (server!.address() as AddressInfo).port;
  };
  await listen();

  const serve = () => {
    const tasks = new InMemoryTaskStore();
    for (const [name, streaming] of Object.entries(agents)) {
      const c = card(name, `http://127.0.0.1:${port}/${name}`, streaming);
      const script = new Script((ctx, said) => {
        const headers = ctx.context.state.get(STATE_HEADERS_KEY) as Record<string, string | undefined> | undefined;
        received.push({
          agent: name,
          text: said,
          contextId: ctx.contextId,
          taskId: ctx.taskId,
          continuesTask: !!ctx.task,
          authorization: headers?.authorization ?? null,
          apiKey: headers?.["x-api-key"] ?? null,
        });
      }, canceled);
      handlers.set(name, { card: c, rpc: new JsonRpcTransportHandler(new DefaultRequestHandler(c, tasks, script)) });
    }
  };
  serve();

  const stop = async () => {
    const s = server;
    server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  return {
    get port() {
      return port;
    },
    cardUrl: (agent) => `http://127.0.0.1:${port}/${agent}/.well-known/agent-card.json`,
    received,
    canceled,
    stop,
    start: listen,
    forgetTasks: serve,
    close: stop,
  };
}
