// The socket's `tool:call` on the real server: the MCP server's own tools, run as the socket's
// participant (an SDK agent's `callTool` and `platformTools()`, a raw socket, a person's read-only
// token), with MCP's validation, names, policies, limits and error codes; a tool that waits keeps no
// other request waiting, and the SDK neither times out during its wait nor sends a write again after
// a timeout.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SwitchboardClient, type Ack } from "@switchboard/sdk";
import { ADAPTER_TOOLS } from "@switchboard/sdk/platform-tools";
import { MAX_ACTIVE } from "../../server/services/governance/request-limits";
import {
  closeAgentClients,
  closeSockets,
  collectMessages,
  connectedAgent,
  createAgent,
  dialects,
  emitAck,
  errorCode,
  openAgentSocket,
  signUpPerson,
  waitFor,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

type Result = Ack<Record<string, unknown>>;

describe.each(dialects)("tool:call on %s", (dialect) => {
  let server: TestServer;
  let dana: Person;
  let scout: Awaited<ReturnType<typeof connectedAgent>>;
  let roomId: string;
  const mcpClients: Client[] = [];

  beforeAll(async () => {
    ({
      server,
      people: { dana },
    } = await startWorkspace(dialect, { people: { dana: "owner" } }));
    scout = await connectedAgent(server, dana, "scout");
    roomId = (await dana.api.rooms.createChannel.mutate({ name: "ops", visibility: "private", memberIds: [scout.id] })).id;
  });
  afterAll(async () => {
    await Promise.all(mcpClients.map((c) => c.close().catch(() => {})));
    await closeAgentClients();
    closeSockets();
    await server.dispose();
  });

  /** The error code the same tool call gets over MCP. */
  async function mcpErrorCode(apiKey: string, name: string, args: Record<string, unknown>): Promise<string | undefined> {
    const client = new Client({ name: "tool-calls-tests", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/api/mcp", server.url), { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } }),
    );
    mcpClients.push(client);
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return (result.structuredContent as { error?: { code: string } } | undefined)?.error?.code;
  }

  it("send_message lands in the room as the agent, by #name, and a retry with the same client_id posts nothing new", async () => {
    const seen = collectMessages(await dana.socket());
    const first = (await scout.client.callTool("send_message", { room: "#ops", text: "sent through tool:call", client_id: "tc-1" })) as {
      message: { id: string; from: string; room_id: string };
    };
    expect(first.message).toMatchObject({ from: "@scout", room_id: roomId });
    await waitFor(() => seen.seen.some((m) => m.message.id === first.message.id), 10_000, "the message at the person's socket");
    expect(seen.seen.find((m) => m.message.id === first.message.id)!.message.author.id).toBe(scout.id);

    const again = (await scout.client.callTool("send_message", { room: "#ops", text: "sent through tool:call", client_id: "tc-1" })) as {
      message: { id: string };
    };
    expect(again.message.id).toBe(first.message.id);
    // The same over a raw socket: the ack carries the tool's JSON result.
    const raw = await openAgentSocket(server.url, scout.apiKey);
    const overRaw = await emitAck<Result>(raw, "tool:call", {
      name: "send_message",
      args: { room: roomId, text: "sent through tool:call", client_id: "tc-1" },
    });
    expect(overRaw).toMatchObject({ ok: true, data: { message: { id: first.message.id } } });
  });

  it("lookup_peers finds a person through the client's platform tools, which are the adapter's set", async () => {
    const tools = scout.client.platformTools();
    expect(tools.map((t) => t.name)).toEqual(ADAPTER_TOOLS);
    const lookup = tools.find((t) => t.name === "lookup_peers")!;
    const { peers } = (await lookup.call({ text: "dana" })) as { peers: { handle: string; kind: string }[] };
    expect(peers).toEqual([expect.objectContaining({ handle: "@dana", kind: "human" })]);
  });

  it("refuses what MCP refuses, with the same codes: a channel not joined, a DM without consent", async () => {
    await dana.api.rooms.createChannel.mutate({ name: `open-${dialect}`, visibility: "public", memberIds: [] });
    const { token } = await dana.api.workspace.createInvite.mutate({});
    const erin = await signUpPerson(server, { handle: "erin", inviteToken: token });
    await createAgent(erin, "stranger");
    for (const [name, args, code] of [
      ["send_message", { room: `#open-${dialect}`, text: "hello?" }, "NOT_A_MEMBER"],
      ["open_dm", { participants: ["@stranger"] }, "NOT_CONNECTED"],
    ] as const) {
      expect(await errorCode(scout.client.callTool(name, args)), name).toBe(code);
      expect(await mcpErrorCode(scout.apiKey, name, args), name).toBe(code);
    }
  });

  it("answers INVALID_PAYLOAD for an unknown tool, naming it, and for bad arguments, naming the field as MCP does", async () => {
    const raw = await openAgentSocket(server.url, scout.apiKey);
    const unknown = await emitAck<Result>(raw, "tool:call", { name: "frobnicate", args: {} });
    expect(unknown).toMatchObject({ ok: false, error: { code: "INVALID_PAYLOAD", message: expect.stringContaining("frobnicate") } });
    const bad = await emitAck<Result>(raw, "tool:call", { name: "send_message", args: { room: "#ops", text: 42 } });
    expect(bad).toMatchObject({ ok: false, error: { code: "INVALID_PAYLOAD", message: expect.stringMatching(/^text: /) } });
    expect(await errorCode(scout.client.callTool("send_message", { room: "#ops" }))).toBe("INVALID_PAYLOAD");
  });

  it("lets a person's read-only token call the tools that read, and refuses it send_message with INSUFFICIENT_SCOPE", async () => {
    const { token } = await dana.api.tokens.create.mutate({ name: "tools read", scope: "read" });
    const reader = await openAgentSocket(server.url, token);
    expect(await emitAck<Result>(reader, "tool:call", { name: "whoami" })).toMatchObject({ ok: true, data: { handle: "@dana", kind: "human" } });
    const read = await emitAck<Result>(reader, "tool:call", { name: "read_messages", args: { room: "#ops" } });
    expect(read).toMatchObject({ ok: true, data: { room_id: roomId, messages: expect.any(Array) } });
    for (const [name, args] of [
      ["send_message", { room: "#ops", text: "nope" }],
      ["set_status", { status: "nope" }],
    ] as const) {
      expect(await emitAck<Result>(reader, "tool:call", { name, args }), name).toMatchObject({
        ok: false,
        error: { code: "INSUFFICIENT_SCOPE", retryable: false },
      });
    }
  });

  it("counts the tool's own limit: ask_human shares question:ask's 60 a minute, counted before its arguments are checked", async () => {
    const asker = await createAgent(dana, "asker");
    const raw = await openAgentSocket(server.url, asker.apiKey);
    for (let i = 0; i < 60; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, () => emitAck<Result>(raw, "tool:call", { name: "ask_human", args: { room: "#ops" } })));
      expect(batch.every((a) => !a.ok && a.error.code === "INVALID_PAYLOAD")).toBe(true);
    }
    const limited = await emitAck<Result>(raw, "tool:call", { name: "ask_human", args: { room: "#ops" } });
    expect(limited).toMatchObject({ ok: false, error: { code: "RATE_LIMITED", retryable: true } });
    expect(!limited.ok && limited.error.retryAfterMs).toBeGreaterThan(0);
    expect(await emitAck<Result>(raw, "question:ask", {})).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
  });

  it("a tool that waits keeps none of the socket's other requests waiting, and the SDK's timeout allows for its wait", async () => {
    // A short ack timeout: get_answer's 3 s wait is longer, and is answered all the same.
    const client = new SwitchboardClient({ url: server.url, apiKey: scout.apiKey, requestTimeoutMs: 1000, passive: true });
    await client.connect();
    try {
      const { question_id } = (await client.callTool("ask_human", { room: "#ops", question: "Hold on?", kind: "approval", wait_seconds: 0 })) as {
        question_id: string;
      };
      let settled = 0;
      const waits = Array.from({ length: MAX_ACTIVE + 1 }, () => client.callTool("get_answer", { question_id, wait_seconds: 3 }).finally(() => settled++));
      await new Promise((r) => setTimeout(r, 200)); // the waits are running
      const { peers } = (await client.callTool("lookup_peers", { text: "dana" })) as { peers: unknown[] };
      expect(peers).toHaveLength(1);
      expect(settled).toBe(0); // answered while every wait still waited
      for (const answer of await Promise.all(waits)) expect(answer).toMatchObject({ question_id, status: "open" });
    } finally {
      await client.close();
    }
  });

  it("does not send a write tool again after it got no answer in time: TIMEOUT, and it was asked once", async () => {
    const prompt = `Asked once? (${dialect})`;
    expect(await errorCode(scout.client.callTool("ask_human", { room: "#ops", question: prompt, kind: "approval", wait_seconds: 2 }, { timeoutMs: 300 }))).toBe(
      "TIMEOUT",
    );
    // A retry would have been sent before the call failed, and a socket's requests start in the order
    // they arrive: once a question asked after it is stored, a second one would be too.
    const sentinel = `Asked after? (${dialect})`;
    await scout.client.callTool("ask_human", { room: "#ops", question: sentinel, kind: "approval", wait_seconds: 0 });
    const asked = (await dana.api.questions.list.query({ for: "me" })).filter((q) => q.prompt === prompt || q.prompt === sentinel);
    expect(asked.map((q) => q.prompt).sort()).toEqual([prompt, sentinel].sort());
  });
});
