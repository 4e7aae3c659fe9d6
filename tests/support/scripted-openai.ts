// A scripted model on loopback: enough of OpenAI's Responses API for the real Codex CLI (0.163, run
// through @openai/codex-sdk) to hold a conversation with it. Each POST /v1/responses takes the next
// step of a script (a function of the request body returning text, a tool call or a tool search);
// every request is recorded. What the CLI does, as observed with a logging stub and strace (Dec 2026):
//
// Transport
// - With `baseUrl` (the SDK passes `--config openai_base_url=...`) everything goes to that base URL.
//   API-key auth: `Authorization: Bearer <CODEX_API_KEY>`. No /models request is made.
// - It tries a WebSocket first: GET /v1/responses with `Upgrade: websocket` and
//   `OpenAI-Beta: responses_websockets=2026-02-06`, once at start-up ("prewarm") and once per turn.
//   A dropped handshake or a 404 is retried 5 times with backoff (~7 s) before "Falling back from
//   WebSockets to HTTPS transport"; an HTTP 426 reply makes it fall back at once. This server answers 426.
// - Then POST /v1/responses, `Accept: text/event-stream`, headers `originator: codex_sdk_ts`,
//   `session-id`/`thread-id` (the thread id), `x-codex-turn-metadata` (JSON: installation id, turn id,
//   sandbox, `history_initialization`: "new" or "cold_resume"), `version: 0.163.0`.
//   A 4xx/5xx is retried 5 times ("Reconnecting... n/5"), then the turn fails with the status text.
// - Body: { model, stream: true, store: false, input, tools, tool_choice: "auto",
//   parallel_tool_calls: true, reasoning: { summary: "auto" }, include: ["reasoning.encrypted_content"],
//   prompt_cache_key: <thread id>, client_metadata }; no `instructions`, no `previous_response_id`:
//   the whole conversation is sent every time. `input` starts with two developer messages (the Codex
//   prompt, the skills list) and a user message holding <environment_context> (cwd, shell, date,
//   sandbox), then the prompt as a user message, then what the turn produced.
// - Resumed from its rollout file, a thread's next request repeats the earlier items exactly and adds
//   only the new prompt (x-codex-turn-metadata says "cold_resume").
// - Outside the model endpoint it looks up (DNS) github.com, api.github.com and chatgpt.com (the
//   plugins feature: `features.plugins = false` stops it) and ab.chatgpt.com (analytics:
//   `analytics.enabled = false`). Here they fail at once; tests turn both off in their CODEX_HOME.
//
// Tools as the CLI offers them
// - Built-in: exec_command { cmd, workdir, sandbox_permissions, justification, ... }, write_stdin,
//   view_image, request_user_input, get/create/update_goal, apply_patch (a `custom` tool), web_search;
//   with MCP servers also list_mcp_resources, list_mcp_resource_templates, read_mcp_resource.
// - For a model Codex knows (e.g. "gpt-5.5") MCP tools are deferred: the request lists no MCP tool,
//   only `{ type: "tool_search", execution: "client" }` whose description names each MCP server with
//   its instructions. The model searches with a `tool_search_call` item ({ call_id, execution:
//   "client", arguments: { query, limit } }); the next request carries a `tool_search_output` with
//   the best matches (BM25, 8 by default) as `{ type: "namespace", name: "mcp__switchboard", tools:
//   [functions with defer_loading: true] }`. For a model it does not know (fallback metadata, and an
//   `error` item "Model metadata for `x` not found") it lists every MCP server's tools up front as such
//   a namespace, and adds a `multi_agent_v1` namespace.
// - Either way the model calls an MCP tool with a function_call item carrying
//   `namespace: "mcp__switchboard", name: "send_message"` (a call made without searching first works
//   too); the flat name "mcp__switchboard__send_message" is answered "unsupported call".
// - The tool's result comes back in the next request as a `function_call_output` with that call_id:
//   "Wall time: ...\nOutput:\n<the MCP result text>" (or the command's exit code and output).
//
// Events the CLI needs from the stream: response.created, response.output_item.added / .done (a
// `message` with output_text content, or a `function_call`), response.output_text.delta, and
// response.completed with `usage` (input_tokens, input_tokens_details.cached_tokens, output_tokens).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** An item of a request's `input`, as far as the tests look at it. */
export interface InputItem {
  type: string;
  role?: string;
  content?: { type: string; text?: string }[];
  name?: string;
  namespace?: string;
  call_id?: string;
  arguments?: string | Record<string, unknown>;
  output?: string | { type: string; text?: string }[];
  tools?: unknown[];
}

export interface ResponsesRequest {
  model: string;
  stream: boolean;
  input: InputItem[];
  tools: { type: string; name?: string; tools?: { name: string }[] }[];
  [key: string]: unknown;
}

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, when the body is JSON. */
  body: unknown;
  /** A WebSocket upgrade attempt (answered 426). */
  websocket: boolean;
}

export interface Tokens {
  input: number;
  cached?: number;
  output: number;
}

export type Reply =
  | { text: string; usage?: Tokens }
  | { call: { name: string; namespace?: string; args: Record<string, unknown> }; usage?: Tokens }
  | { search: { query: string; limit?: number }; usage?: Tokens }
  | { custom: { name: string; input: string }; usage?: Tokens };

/** One model response: decided from the request it answers. A promise holds it back until it settles (a slow model). */
export type Step = (request: ResponsesRequest) => Reply | Promise<Reply>;

export const say =
  (text: string, usage?: Tokens): Step =>
  () => ({ text, usage });

export const searchTools =
  (query: string, usage?: Tokens): Step =>
  () => ({ search: { query }, usage });

export const callTool =
  (name: string, args: Record<string, unknown>, opts: { namespace?: string; usage?: Tokens } = {}): Step =>
  () => ({ call: { name, namespace: opts.namespace, args }, usage: opts.usage });

/** A call of a freeform (`custom`) tool, e.g. apply_patch with the patch as its input. */
export const callCustomTool =
  (name: string, input: string, usage?: Tokens): Step =>
  () => ({ custom: { name, input }, usage });

export interface ScriptedOpenAI {
  /** The base URL to give Codex: http://127.0.0.1:<port>/v1. */
  baseUrl: string;
  /** Every request, in arrival order. */
  requests: Recorded[];
  /** The bodies of the POST /v1/responses requests so far. */
  responses(): ResponsesRequest[];
  /** Queues steps; each model request takes the next one. */
  script(...steps: Step[]): void;
  /**
   * Answers every request the script has no step for (null: none does, and such a request fails).
   * A function of the request gives a CLI restarted mid-thread the same answers.
   */
  respond(step: Step | null): void;
  /** Steps not taken yet. */
  pending(): number;
  close(): Promise<void>;
}

const DEFAULT_USAGE: Tokens = { input: 100, cached: 0, output: 10 };

export async function startScriptedOpenAI(): Promise<ScriptedOpenAI> {
  const requests: Recorded[] = [];
  const steps: Step[] = [];
  let responder: Step | null = null;
  let counter = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
      const text = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "/").split("?")[0];
      const body = parseJson(text);
      requests.push({ method: req.method ?? "GET", path, headers: req.headers, body, websocket: false });

      if (req.method !== "POST" || path !== "/v1/responses") {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `scripted-openai: no ${req.method} ${path}` } }));
        return;
      }
      const step = steps.shift() ?? responder;
      let reply: Reply;
      try {
        if (!step) throw new Error("no step left in the script for this request");
        reply = await step(body as ResponsesRequest);
      } catch (error) {
        // A 400 is not retried: the turn fails at once with this text.
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `scripted-openai: ${(error as Error).message}` } }));
        return;
      }
      writeStream(res, ++counter, reply);
    })().catch(() => res.destroy()); // the CLI hung up mid-request (it retries): nothing to answer
  });
  // The CLI tries a WebSocket first; 426 sends it to HTTP at once instead of after five retries.
  server.on("upgrade", (req, socket) => {
    requests.push({ method: req.method ?? "GET", path: (req.url ?? "/").split("?")[0], headers: req.headers, body: null, websocket: true });
    // The CLI may reset the connection as soon as it reads the refusal: not an error of the test's.
    socket.on("error", () => {});
    socket.end("HTTP/1.1 426 Upgrade Required\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    responses: () => requests.filter((r) => r.method === "POST" && r.path === "/v1/responses").map((r) => r.body as ResponsesRequest),
    script: (...more) => void steps.push(...more),
    respond: (step) => void (responder = step),
    pending: () => steps.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One streamed response holding one output item, as the Responses API sends it over SSE. */
function writeStream(res: ServerResponse, n: number, reply: Reply): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const id = `resp_${n}`;
  send("response.created", { response: { id, status: "in_progress" } });
  if ("text" in reply) {
    const item = {
      type: "message",
      id: `msg_${n}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: reply.text, annotations: [] }],
    };
    send("response.output_item.added", { output_index: 0, item: { ...item, status: "in_progress", content: [] } });
    send("response.output_text.delta", { output_index: 0, item_id: item.id, content_index: 0, delta: reply.text });
    send("response.output_item.done", { output_index: 0, item });
  } else if ("search" in reply) {
    const item = { type: "tool_search_call", id: `ts_${n}`, call_id: `call_${n}`, execution: "client", arguments: reply.search, status: "completed" };
    send("response.output_item.added", { output_index: 0, item });
    send("response.output_item.done", { output_index: 0, item });
  } else if ("custom" in reply) {
    const item = { type: "custom_tool_call", id: `ctc_${n}`, call_id: `call_${n}`, name: reply.custom.name, input: reply.custom.input, status: "completed" };
    send("response.output_item.added", { output_index: 0, item: { ...item, input: "", status: "in_progress" } });
    send("response.output_item.done", { output_index: 0, item });
  } else {
    const { name, namespace, args } = reply.call;
    const item = {
      type: "function_call",
      id: `fc_${n}`,
      call_id: `call_${n}`,
      name,
      ...(namespace ? { namespace } : {}),
      arguments: JSON.stringify(args),
      status: "completed",
    };
    send("response.output_item.added", { output_index: 0, item: { ...item, arguments: "", status: "in_progress" } });
    send("response.output_item.done", { output_index: 0, item });
  }
  const usage = reply.usage ?? DEFAULT_USAGE;
  send("response.completed", {
    response: {
      id,
      status: "completed",
      usage: {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: usage.cached ?? 0 },
        output_tokens: usage.output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.input + usage.output,
      },
    },
  });
  res.end();
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An input item as one line: "user: hello", "assistant: hi", "call mcp__switchboard.send_message", "output call_2: ...". */
export function describeItem(item: InputItem): string {
  if (item.type === "message") return `${item.role}: ${(item.content ?? []).map((c) => c.text ?? "").join("")}`;
  if (item.type === "function_call") return `call ${item.namespace ? `${item.namespace}.` : ""}${item.name} ${item.arguments}`;
  if (item.type === "function_call_output") return `output ${item.call_id}: ${outputText(item)}`;
  if (item.type === "tool_search_call") return `search ${JSON.stringify(item.arguments)}`;
  return item.type;
}

/** The text of a function_call_output (a string, or input_text parts). */
export function outputText(item: InputItem): string {
  return typeof item.output === "string" ? item.output : (item.output ?? []).map((p) => p.text ?? "").join("\n");
}

/** The tools the CLI's answer to the model's last tool_search offered, as "namespace.name". */
export function searchedTools(request: ResponsesRequest): string[] {
  const output = request.input.findLast((i) => i.type === "tool_search_output");
  if (!output) throw new Error("the request holds no tool_search output");
  const found = (output.tools ?? []) as { name: string; tools?: { name: string }[] }[];
  return found.flatMap((t) => (t.tools ? t.tools.map((f) => `${t.name}.${f.name}`) : [t.name]));
}

/** The output the CLI sent back for the model's last call, in the request being answered. */
export function lastToolOutput(request: ResponsesRequest): string {
  const output = request.input.findLast((i) => i.type === "function_call_output");
  if (!output) throw new Error("the request holds no tool output");
  return outputText(output);
}
