// `switchboard mcp`: the server's own MCP endpoint (/api/mcp), over stdio, for hosts that only launch
// commands. Not a second server: each JSON-RPC message from the host goes to the endpoint as it is,
// and each message from the endpoint (answers, notifications, channel pushes) comes back as it is,
// with the credential from the CLI's config added on the way. If the endpoint forgot the session (a
// server restart, an idle hour), the bridge opens a new one with the host's own initialize and goes on.
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { isInitializeRequest, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { causeOf, unreachable } from "./exit-codes";

export interface BridgeOptions {
  /** The server's base URL. */
  url: string;
  /** An agent's API key or a person's access token. */
  credential: string;
  /** Ask for Claude Code's channel pushes. */
  channel: boolean;
  /** Where diagnostics go (never stdout: that is the protocol's). */
  log?: (line: string) => void;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** Runs until the host closes stdin or the server refuses the credential; resolves with an exit code. */
export function bridgeStdioToHttp(opts: BridgeOptions): Promise<number> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`switchboard mcp: ${line}\n`));
  const local = new StdioServerTransport(opts.stdin as never, opts.stdout as never);
  let upstream: StreamableHTTPClientTransport;
  /** The host's initialize and its answer's protocol version, to open a new session the same way. */
  let initialize: JSONRPCMessage | null = null;
  let initializeId: RequestId | null = null;
  let protocolVersion: string | null = null;
  let finish!: (code: number) => void;
  const done = new Promise<number>((resolve) => (finish = resolve));

  function connect(): StreamableHTTPClientTransport {
    const headers: Record<string, string> = { Authorization: `Bearer ${opts.credential}` };
    if (opts.channel) headers["X-Switchboard-Channel"] = "1";
    const transport = new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers } });
    transport.onmessage = (message) => {
      if (initializeId !== null && "id" in message && message.id === initializeId && "result" in message) {
        protocolVersion = (message.result as { protocolVersion?: string }).protocolVersion ?? null;
        if (protocolVersion) transport.setProtocolVersion(protocolVersion);
      }
      void local.send(message).catch((error: unknown) => log(`writing to the host failed: ${String(error)}`));
    };
    transport.onerror = (error) => log(describe(error));
    return transport;
  }

  /** A new session on the endpoint, opened with the host's initialize (its answer is not passed on). */
  async function reopen(): Promise<void> {
    if (!initialize) throw new Error("no session to reopen");
    await upstream.close().catch(() => {});
    upstream = connect();
    const answered = new Promise<void>((resolve) => {
      const forward = upstream.onmessage!;
      upstream.onmessage = (message) => {
        if ("id" in message && message.id === initializeId) {
          upstream.onmessage = forward;
          if (protocolVersion) upstream.setProtocolVersion(protocolVersion);
          return resolve();
        }
        forward(message);
      };
    });
    await upstream.start();
    await upstream.send(initialize);
    await answered;
    await upstream.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    log("the server had forgotten this session: opened a new one");
  }

  async function forward(message: JSONRPCMessage): Promise<void> {
    if (isJSONRPCRequest(message) && isInitializeRequest(message)) {
      initialize = message;
      initializeId = message.id;
    }
    try {
      await upstream.send(message);
    } catch (error) {
      if (error instanceof StreamableHTTPError && error.code === 404 && initialize && !isInitializeRequest(message)) {
        await reopen();
        return upstream.send(message);
      }
      throw error;
    }
  }

  const endpoint = new URL("/api/mcp", opts.url).href;
  /** What went wrong, for the host and its log: a server it cannot reach is named with its URL. */
  const describe = (error: unknown): string => {
    if (error instanceof StreamableHTTPError) return error.message;
    const cause = causeOf(error);
    if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|fetch failed/i.test(cause)) {
      const failure = unreachable(`Switchboard at ${endpoint}`, cause); // as every other command says it
      return `${failure.message} ${failure.hint}`;
    }
    return error instanceof Error ? error.message : String(error);
  };

  local.onmessage = (message) => {
    forward(message).catch((error: unknown) => {
      const text = describe(error);
      log(text);
      // A request the host waits on gets an answer; a refused credential ends the bridge.
      if (isJSONRPCRequest(message)) void local.send({ jsonrpc: "2.0", id: message.id, error: { code: -32000, message: text } });
      if (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403)) finish(3);
    });
  };
  local.onclose = () => finish(0);

  upstream = connect();
  void (async () => {
    await upstream.start();
    await local.start();
  })().catch((error: unknown) => {
    log(String(error));
    finish(1);
  });

  return done.then(async (code) => {
    await upstream.close().catch(() => {});
    await local.close().catch(() => {});
    return code;
  });
}
