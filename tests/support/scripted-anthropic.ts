// A scripted stand-in for the Anthropic Messages API on 127.0.0.1, so that the real Claude Code CLI
// (bundled with @anthropic-ai/claude-agent-sdk) can run offline and deterministically in tests.
//
// What the CLI really sends (found by running the SDK's `query()` against a logging stub; SDK 0.3.333,
// bundled Claude Code 2.1.333, ANTHROPIC_BASE_URL=http://127.0.0.1:<port>, ANTHROPIC_API_KEY set):
// - One request per model call, and nothing else: `POST /v1/messages?beta=true`, always streaming
//   (`"stream": true`, answered as SSE). No count_tokens, no /v1/models, no non-streaming side call
//   (title, summary) was seen in a plain turn, a resumed turn or a tool round trip. They are answered
//   here anyway (non-streaming JSON, a token estimate, a 404 for anything else) and recorded.
// - Headers: `x-api-key` (the key as given), `anthropic-version: 2023-06-01`, `anthropic-beta` with a
//   list of betas (claude-code-20250219, interleaved-thinking, context-management, ...),
//   `x-claude-code-session-id: <session id>`, `x-app: cli`, `user-agent: claude-cli/2.1.333
//   (external, sdk-ts, agent-sdk/0.3.333)`, the Stainless SDK headers, `accept-encoding: gzip, br, zstd`
//   (an uncompressed answer is fine).
// - Body keys: model (the CLI's default model when none is given), messages, system, tools, metadata
//   ({ user_id: JSON with device_id and session_id }), max_tokens, thinking ({ type: "adaptive" }),
//   context_management, output_config ({ effort }), stream. About 42 kB for a one-line prompt, most of
//   it the built-in tools' schemas.
// - `system`: a billing-header text block, then the system prompt. `messages[0]` is the user turn: a
//   <system-reminder> text block, then the prompt as its own text block; `messages[1]` has role "system"
//   (the environment: working directory, platform, model, deferred tools, agent types, the date). The
//   CLI adds more role-"system" reminders later (e.g. "<total_tokens>... tokens left"), also after a
//   tool_result, so the newest message is not always the user's.
// - A resumed session's next call repeats the earlier messages as the model read them (a one-text-block
//   message may now be a plain string; the prompt-cache breakpoint moves to the newest message), then
//   the assistant's answer, then a user message with only the new prompt.
// - MCP tools from an in-process server are "deferred" (listed by name in the environment message and
//   loadable through ToolSearch, not in `tools`) unless the server is created with `alwaysLoad: true`.
// - A tool's result comes back in the next call as a `tool_result` block with the `tool_use_id`; an
//   error result has `is_error: true`.
// - Errors: a 400 is retried several times with the request changed (6 calls for one turn here, e.g.
//   without `thinking.display`), and a 400 saying "prompt is too long" starts a compaction; a 403 gives
//   up at once ("Failed to authenticate. API Error: 403 ..."); 429 and 500 are retried with back-off
//   (about 0.6 s, then 1.1 s) and the turn goes on when an answer comes.
//   A turn that ends on an API error yields a `result` of subtype "success" with is_error true and
//   the error text as `result`.
// - Without CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 (or DISABLE_TELEMETRY=1) the CLI also opens
//   HTTPS connections to api.anthropic.com:443 (two to five CONNECTs through HTTPS_PROXY per turn:
//   telemetry and feature flags; it keeps undelivered events under <config dir>/telemetry/). With
//   either: none. This server is also an HTTP proxy that refuses every CONNECT and records the host,
//   so a test can prove the CLI reached nothing else (HTTPS_PROXY=<url>, NO_PROXY=127.0.0.1).
// - Files: sessions in $CLAUDE_CONFIG_DIR/projects/<cwd with every "/" turned into "-">/<id>.jsonl
//   (default config dir ~/.claude), its state in $CLAUDE_CONFIG_DIR/.claude.json, logs in
//   $HOME/.cache/claude-cli-nodejs/, scratch files and sockets in $TMPDIR/claude-<uid>/ and
//   $TMPDIR/cc-socks/. Setting HOME, CLAUDE_CONFIG_DIR and TMPDIR keeps a test's CLI out of the real ones.
// - Resuming a session whose file is gone makes no request at all: no `system/init` message, a
//   `result` with subtype "error_during_execution", is_error true, num_turns 0, the asked-for
//   session_id and errors ["No conversation found with session ID: <id>"]; the same line on stderr;
//   then the SDK's iterator throws "Claude Code returned an error result: No conversation found ...".
//   An id that is not a UUID fails the same way with "--resume requires a valid session ID ...".
// - As root, permission mode "bypassPermissions" makes the CLI exit at once ("--dangerously-skip-
//   permissions cannot be used with root/sudo privileges") unless IS_SANDBOX=1.
import http, { type IncomingHttpHeaders } from "node:http";
import type { Duplex } from "node:stream";

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. "/v1/messages?beta=true". */
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface ContentBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | ContentBlock[];
  is_error?: boolean;
  [key: string]: unknown;
}

export interface ApiMessage {
  role: string;
  content: string | ContentBlock[];
}

/** The body of a model call, as far as tests look into it. */
export interface MessagesRequest {
  model: string;
  stream?: boolean;
  messages: ApiMessage[];
  tools?: { name: string; description?: string; input_schema?: unknown }[];
  [key: string]: unknown;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export type ReplyBlock = { type: "text"; text: string } | { type: "tool_use"; name: string; input: Record<string, unknown> };

export interface Reply {
  content: ReplyBlock[];
  usage?: Usage;
}

/** An HTTP error answer instead of a message (use a 4xx: the CLI retries 5xx and 429 with back-off). */
export interface ErrorReply {
  error: { status: number; type: string; message: string };
}

/**
 * One model call's answer, chosen from its request. A string is one text block. A promise holds the
 * answer back until it settles (a slow model).
 */
export type Step = (request: MessagesRequest) => string | Reply | ErrorReply | Promise<string | Reply | ErrorReply>;

export const DEFAULT_USAGE: Usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

export interface ScriptedAnthropic {
  /** The base URL to give the CLI as ANTHROPIC_BASE_URL, and as HTTPS_PROXY to catch other traffic. */
  url: string;
  /** Every HTTP request, side calls included, in arrival order. */
  requests: RecordedRequest[];
  /** The bodies of the model calls (`POST /v1/messages`), in order. */
  calls: MessagesRequest[];
  /** Hosts something tried to reach through this server as a proxy (all refused). */
  tunnels: string[];
  /** What went wrong on this side: a call with no step left, a step that threw. */
  problems: string[];
  /** Replaces the script: one step per model call, in order. */
  script(steps: Step[]): void;
  /**
   * Answers every call the script has no step for (null: none does, and such a call is a problem).
   * A function of the request gives a CLI restarted mid-conversation the same answers.
   */
  respond(step: Step | null): void;
  /** Steps not used yet. */
  pending(): number;
  close(): Promise<void>;
}

export async function startScriptedAnthropic(): Promise<ScriptedAnthropic> {
  const requests: RecordedRequest[] = [];
  const calls: MessagesRequest[] = [];
  const tunnels: string[] = [];
  const problems: string[] = [];
  let steps: Step[] = [];
  let responder: Step | null = null;

  async function answer(request: MessagesRequest): Promise<Reply | ErrorReply> {
    const step = steps.shift() ?? responder;
    if (!step) return fail(`call ${calls.length}: the script has no step left`);
    try {
      const out = await step(request);
      return typeof out === "string" ? { content: [{ type: "text", text: out }] } : out;
    } catch (error) {
      return fail(`call ${calls.length}: the step threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  function fail(problem: string): ErrorReply {
    problems.push(problem);
    return { error: { status: 400, type: "invalid_request_error", message: `scripted server: ${problem}` } };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const body = parseJson(raw);
      const path = req.url ?? "/";
      requests.push({ method: req.method ?? "GET", path, headers: req.headers, body });
      const route = path.split("?")[0];

      if (req.method === "POST" && route === "/v1/messages/count_tokens") {
        // A rough estimate is all the CLI uses it for (context-window bookkeeping).
        return sendJson(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
      }
      if (req.method === "POST" && route === "/v1/messages") {
        const request = body as MessagesRequest;
        calls.push(request);
        const id = `msg_scripted_${calls.length}`;
        void answer(request).then((reply) => {
          if ("error" in reply) {
            return sendJson(res, reply.error.status, { type: "error", error: { type: reply.error.type, message: reply.error.message } });
          }
          return request.stream ? sendStream(res, id, request.model, reply) : sendJson(res, 200, message(id, request.model, reply));
        });
        return;
      }
      sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: `scripted server: no route for ${req.method} ${path}` } });
    });
  });

  // As an HTTP proxy: refuse every tunnel, remember where it was going.
  server.on("connect", (req: http.IncomingMessage, socket: Duplex) => {
    tunnels.push(req.url ?? "?");
    socket.on("error", () => {});
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("scripted server: no port");

  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    calls,
    tunnels,
    problems,
    script(next) {
      steps = [...next];
    },
    respond(step) {
      responder = step;
    },
    pending: () => steps.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A reply of text blocks, or one tool call, with the given usage. */
export function text(value: string, usage: Usage = DEFAULT_USAGE): Reply {
  return { content: [{ type: "text", text: value }], usage };
}

export function toolUse(name: string, input: Record<string, unknown>, usage: Usage = DEFAULT_USAGE): Reply {
  return { content: [{ type: "tool_use", name, input }], usage };
}

function message(id: string, model: string, reply: Reply) {
  const content = reply.content.map((block, index) => (block.type === "text" ? block : { ...block, id: toolUseId(id, index) }));
  return {
    id,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: { ...DEFAULT_USAGE, ...reply.usage },
  };
}

/** The Messages API's event stream: message_start, each block's start/delta/stop, message_delta, message_stop. */
function sendStream(res: http.ServerResponse, id: string, model: string, reply: Reply): void {
  const usage = { ...DEFAULT_USAGE, ...reply.usage };
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": `req_${id}` });
  const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);

  // As the real API does: message_start carries the input side of the usage, message_delta the final count.
  event("message_start", {
    message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  reply.content.forEach((block, index) => {
    if (block.type === "text") {
      event("content_block_start", { index, content_block: { type: "text", text: "" } });
      event("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    } else {
      event("content_block_start", { index, content_block: { type: "tool_use", id: toolUseId(id, index), name: block.name, input: {} } });
      event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    }
    event("content_block_stop", { index });
  });
  event("message_delta", { delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage });
  event("message_stop", {});
  res.end();
}

function stopReason(reply: Reply): string {
  return reply.content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
}

function toolUseId(messageId: string, index: number): string {
  return `toolu_${messageId.slice("msg_scripted_".length)}_${index}`;
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function parseJson(raw: string): unknown {
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
