// The MCP server at /api/mcp, driven by the official MCP TypeScript client over Streamable HTTP: the
// tools, continuity for an agent that waits and acknowledges, credentials, policies and limits
// exactly as over the socket, resources and their subscriptions, and Claude Code's channel pushes.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  LATEST_PROTOCOL_VERSION,
  ResourceUpdatedNotificationSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { MAX_WAIT_SECONDS } from "../../server/bridges/mcp/tools";
import {
  CLI,
  closeSockets,
  collectMessages,
  createAgent,
  dialects,
  emitAck,
  openAgentSocket,
  signUpPerson,
  waitFor,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

const TOOL_NAMES = [
  "whoami",
  "ask_human",
  "get_answer",
  "list_rooms",
  "read_messages",
  "search_messages",
  "wait_for_messages",
  "acknowledge",
  "send_message",
  "react",
  "upload_file",
  "read_file",
  "open_dm",
  "create_room",
  "invite",
  "list_channels",
  "join_room",
  "leave_room",
  "lookup_peers",
  "request_connection",
  "list_connection_requests",
  "respond_connection",
  "set_status",
  "set_profile_status",
  "report_tasks",
  "report_files",
  "link_work",
  "report_usage",
  "report_activity",
  "mark_processing",
  "mark_processed",
  "mark_failed",
];

const clients = new Set<Client>();

async function mcpClient(server: TestServer, apiKey: string, opts: { channel?: boolean } = {}): Promise<Client> {
  const client = new Client({ name: "switchboard-tests", version: "1.0.0" });
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
  if (opts.channel) headers["X-Switchboard-Channel"] = "1";
  await client.connect(new StreamableHTTPClientTransport(new URL("/api/mcp", server.url), { requestInit: { headers } }));
  clients.add(client);
  return client;
}

/** The official client over stdio, launching `switchboard mcp` as a host would (the key from the environment). */
async function stdioClient(server: TestServer, apiKey: string, args: string[] = []): Promise<Client> {
  const home = mkdtempSync(path.join(tmpdir(), "switchboard-mcp-"));
  const client = new Client({ name: "switchboard-stdio-tests", version: "1.0.0" });
  const env = { PATH: process.env.PATH ?? "", HOME: home, SWITCHBOARD_CONFIG_DIR: home, SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: apiKey };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [...CLI, "mcp", ...args], env, stderr: "pipe" }));
  clients.add(client);
  return client;
}

type Data = Record<string, unknown> & { error?: { code: string; retryAfterMs?: number } };

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; data: Data }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: result.isError === true, data: (result.structuredContent ?? {}) as Data };
}

async function tool<T = Data>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const { isError, data } = await call(client, name, args);
  if (isError) throw new Error(`${name}: ${JSON.stringify(data.error)}`);
  return data as T;
}

interface Waited {
  messages: { id: string; room_id: string; seq: number; from: string; text: string }[];
  acknowledge: { room_id: string; through_seq: number }[];
  timed_out: boolean;
}

// On one database: what this file tests is the MCP transport (sessions, tools, resources, credentials);
// the services its tools call run on both databases in their own files.
describe.each([dialects[0]])("MCP server on %s", (dialect) => {
  let server: TestServer;
  let owner: Person;
  let agent: { id: string; apiKey: string };
  let roomId: string;

  beforeAll(async () => {
    ({
      server,
      people: { dana: owner },
    } = await startWorkspace(dialect, { people: { dana: "owner" } }));
    agent = await createAgent(owner, "scout");
    roomId = (await owner.api.rooms.createChannel.mutate({ name: "ops", visibility: "private", memberIds: [agent.id] })).id;
  });
  afterAll(async () => {
    await Promise.all([...clients].map((c) => c.close().catch(() => {})));
    closeSockets();
    await server.dispose();
  });

  it("lists exactly the documented tools, each with an object input schema and a description", async () => {
    const client = await mcpClient(server, agent.apiKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe("object");
      expect(t.description?.length, t.name).toBeGreaterThan(20);
    }
    expect(await tool(client, "whoami")).toMatchObject({ id: agent.id, handle: "@scout", kind: "agent" });
  });

  it("ask_human asks the agent's owner in the room and returns the person's answer; get_answer waits for one that comes later", async () => {
    const client = await mcpClient(server, agent.apiKey);
    const answered = tool<{ question_id: string; status: string; answer: unknown; answer_text: string; answered_by: string }>(client, "ask_human", {
      room: "#ops",
      question: "Which region first?",
      kind: "single",
      options: ["eu", { value: "us", label: "United States" }],
      wait_seconds: 30,
    });
    let open: { id: string } | undefined;
    await waitFor(
      () => open !== undefined,
      10_000,
      "the question in the owner's queue",
      async () => {
        open = (await owner.api.questions.list.query({ for: "me" })).find((q) => q.prompt === "Which region first?");
      },
    );
    await owner.api.questions.answer.mutate({ questionId: open!.id, answer: { choice: "us" } });
    expect(await answered).toMatchObject({
      question_id: open!.id,
      status: "answered",
      answer: { choice: "us" },
      answer_text: "United States",
      answered_by: "@dana",
    });

    const later = await tool<{ question_id: string; status: string; next: string }>(client, "ask_human", {
      room: "#ops",
      question: "Ship it?",
      kind: "approval",
      wait_seconds: 0,
      client_id: "ship-1",
    });
    expect(later).toMatchObject({ status: "open", next: expect.stringContaining("get_answer") });
    const again = await tool<{ question_id: string }>(client, "ask_human", {
      room: "#ops",
      question: "Ship it?",
      kind: "approval",
      wait_seconds: 0,
      client_id: "ship-1",
    });
    expect(again.question_id).toBe(later.question_id);
    const waiting = tool(client, "get_answer", { question_id: later.question_id, wait_seconds: 30 });
    await owner.api.questions.answer.mutate({ questionId: later.question_id, answer: { approved: false, comment: "not today" } });
    expect(await waiting).toMatchObject({ status: "answered", answer_text: "Declined: not today" });
    const bad = await call(client, "ask_human", { room: "#ops", question: "Pick", kind: "single", wait_seconds: 0 });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.data)).toContain("INVALID_PAYLOAD");

    // The answers came to the agent as messages addressed to it, too; handled here, so the next tests start clean.
    const waited = await tool<Waited>(client, "wait_for_messages", { timeout_seconds: 0, limit: 100 });
    expect(waited.messages.map((m) => m.text)).toEqual(["@scout United States", "@scout Declined: not today"]);
    for (const a of waited.acknowledge) await tool(client, "acknowledge", { room: a.room_id, seq: a.through_seq });
  });

  it("send_message reaches the room's sockets as the agent, by #name, and a retry with the same client_id posts nothing new", async () => {
    const client = await mcpClient(server, agent.apiKey);
    const socket = await owner.socket();
    const seen = collectMessages(socket);
    const first = await tool<{ message: { id: string; seq: number; from: string } }>(client, "send_message", {
      room: "#ops",
      body: "deploy finished",
      client_id: "deploy-1",
    });
    expect(first.message).toMatchObject({ from: "@scout" });
    await waitFor(() => seen.seen.some((m) => m.message.id === first.message.id), 10_000, "the message at the person's socket");
    expect(seen.seen.find((m) => m.message.id === first.message.id)!.message.author.id).toBe(agent.id);
    // `text`, the name earlier versions used, is the same argument; one of them, once.
    const again = await tool<{ message: { id: string } }>(client, "send_message", { room: "#ops", text: "deploy finished", client_id: "deploy-1" });
    expect(again.message.id).toBe(first.message.id);
    for (const args of [{ room: "#ops" }, { room: "#ops", body: "one", text: "two" }]) {
      const refused = (await client.callTool({ name: "send_message", arguments: args })) as CallToolResult;
      expect(refused.isError, JSON.stringify(args)).toBe(true);
      expect(JSON.stringify(refused.content)).toContain("Pass the message as body (or text), once");
    }
    const read = await tool<{ messages: { id: string }[]; next_after_seq: number }>(client, "read_messages", {
      room: roomId,
      after_seq: first.message.seq - 1,
    });
    expect(read.messages.map((m) => m.id)).toEqual([first.message.id]);
    expect(read.next_after_seq).toBeGreaterThanOrEqual(first.message.seq);
  });

  it("wait_for_messages returns a person's mention, gives it again until acknowledged, and not after; the delivered cursor moves only then", async () => {
    const client = await mcpClient(server, agent.apiKey);
    const waiting = tool<Waited>(client, "wait_for_messages", { timeout_seconds: 20 });
    const socket = await owner.socket();
    const sent = await emitAck<{ ok: true; data: { id: string; seq: number } }>(socket, "message:send", {
      roomId,
      body: "@scout can you check the logs?",
      clientMsgId: randomUUID(),
    });
    const got = await waiting;
    expect(got.timed_out).toBe(false);
    expect(got.messages).toEqual([expect.objectContaining({ id: sent.data.id, from: "@dana", text: "@scout can you check the logs?" })]);
    const [{ through_seq }] = got.acknowledge;

    // A new process (the agent restarted before acknowledging) is given it again.
    await client.close();
    const restarted = await mcpClient(server, agent.apiKey);
    const again = await tool<Waited>(restarted, "wait_for_messages", { timeout_seconds: 0 });
    expect(again.messages.map((m) => m.id)).toEqual([sent.data.id]);
    const before = (await tool<{ rooms: { id: string; delivered_seq: number }[] }>(restarted, "list_rooms")).rooms.find((r) => r.id === roomId)!;
    expect(before.delivered_seq).toBeLessThan(sent.data.seq);

    expect(await tool(restarted, "acknowledge", { room: "#ops", seq: through_seq })).toMatchObject({ delivered_seq: through_seq });
    const after = await tool<Waited>(restarted, "wait_for_messages", { timeout_seconds: 0 });
    expect(after).toMatchObject({ messages: [], timed_out: true });
  });

  it("wait_for_messages waits at most its timeout, and refuses a longer one", async () => {
    const client = await mcpClient(server, agent.apiKey);
    const t0 = Date.now();
    expect(await tool<Waited>(client, "wait_for_messages", { timeout_seconds: 1 })).toMatchObject({ messages: [], timed_out: true });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    const tooLong = await call(client, "wait_for_messages", { timeout_seconds: MAX_WAIT_SECONDS + 1 });
    expect(tooLong).toMatchObject({ isError: true, data: { error: { code: "INVALID_PAYLOAD" } } });
  });

  it("speaks the newest MCP revision the official SDK knows (LATEST_PROTOCOL_VERSION), and the older ones it still supports", async () => {
    expect(LATEST_PROTOCOL_VERSION).toBe("2025-11-25"); // docs/mcp.md names it: update both together
    for (const protocolVersion of SUPPORTED_PROTOCOL_VERSIONS) {
      const res = await fetch(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${agent.apiKey}` },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        }),
      });
      expect(res.status, protocolVersion).toBe(200);
      const text = await res.text();
      const answer = JSON.parse(text.startsWith("{") ? text : text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
        result: { protocolVersion: string };
      };
      expect(answer.result.protocolVersion).toBe(protocolVersion);
    }
  });

  it("answers a missing, wrong or revoked key with 401 and WWW-Authenticate, and a suspended agent with AGENT_SUSPENDED", async () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(initialize),
      });
    // A missing credential and a wrong one are told apart: the first is a host whose variable is unset.
    for (const [headers, message] of [
      [{}, /^UNAUTHENTICATED: No credential: send Authorization: Bearer/],
      [{ Authorization: "Bearer " }, /^UNAUTHENTICATED: No credential: the API key is empty\. Is SWITCHBOARD_API_KEY set/],
      [{ Authorization: "Bearer sb_nonsense" }, /^UNAUTHENTICATED: Invalid or revoked API key/],
      [{ Authorization: "Basic abc" }, /^UNAUTHENTICATED: No credential: send Authorization: Bearer/],
    ] as [Record<string, string>, RegExp][]) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="switchboard"/);
      const { error } = (await res.json()) as { error: { message: string; data: { code: string } } };
      expect(error.data.code).toBe("UNAUTHENTICATED");
      expect(error.message, JSON.stringify(headers)).toMatch(message);
    }
    expect((await post({ Authorization: `Bearer ${agent.apiKey}`, Origin: "https://evil.example" })).status).toBe(403);

    const doomed = await createAgent(owner, "doomed");
    const client = await mcpClient(server, doomed.apiKey);
    const { keys } = await owner.api.agents.get.query({ agentId: doomed.id });
    await owner.api.agents.revokeKey.mutate({ agentId: doomed.id, keyId: keys[0].id });
    await expect(client.callTool({ name: "whoami", arguments: {} })).rejects.toThrow(/401|UNAUTHENTICATED/);

    const paused = await createAgent(owner, "paused");
    await owner.api.agents.suspend.mutate({ agentId: paused.id });
    const res = await post({ Authorization: `Bearer ${paused.apiKey}` });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { data: { code: string } } }).error.data.code).toBe("AGENT_SUSPENDED");
  });

  it("serves the same tools over stdio (switchboard mcp): a send reaches the room, a mention reaches the agent, and a restart repeats only what was not acknowledged", async () => {
    const client = await stdioClient(server, agent.apiKey);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    const socket = await owner.socket();
    const seen = collectMessages(socket);
    const sent = await tool<{ message: { id: string } }>(client, "send_message", { room: "#ops", text: "hello over stdio" });
    await waitFor(() => seen.seen.some((m) => m.message.id === sent.message.id), 10_000, "the stdio agent's message");

    const waiting = tool<Waited>(client, "wait_for_messages", { timeout_seconds: 20 });
    const mention = await emitAck<{ ok: true; data: { id: string; seq: number } }>(socket, "message:send", {
      roomId,
      body: "@scout over stdio?",
      clientMsgId: randomUUID(),
    });
    const got = await waiting;
    expect(got.messages.map((m) => m.id)).toEqual([mention.data.id]);

    await client.close(); // the host kills the process before it acknowledged
    const again = await stdioClient(server, agent.apiKey);
    const replayed = await tool<Waited>(again, "wait_for_messages", { timeout_seconds: 0 });
    expect(replayed.messages.map((m) => m.id)).toEqual([mention.data.id]);
    await tool(again, "acknowledge", { room: roomId, seq: replayed.acknowledge[0].through_seq });
    expect(await tool<Waited>(again, "wait_for_messages", { timeout_seconds: 0 })).toMatchObject({ messages: [], timed_out: true });
  });

  it("switchboard mcp --channel carries Claude Code channel pushes to the host", async () => {
    const client = await stdioClient(server, agent.apiKey, ["--channel"]);
    expect(client.getServerCapabilities()?.experimental).toHaveProperty(["claude/channel"]);
    const pushed: { content: string; meta: Record<string, string> }[] = [];
    const ChannelNotification = z.object({
      method: z.literal("notifications/claude/channel"),
      params: z.object({ content: z.string(), meta: z.record(z.string(), z.string()) }),
    });
    client.setNotificationHandler(ChannelNotification, (n) => void pushed.push(n.params));
    const socket = await owner.socket();
    const sent = await emitAck<{ ok: true; data: { id: string } }>(socket, "message:send", {
      roomId,
      body: "@scout pushed through stdio",
      clientMsgId: randomUUID(),
    });
    await waitFor(() => pushed.some((p) => p.meta.message_id === sent.data.id), 15_000, "a channel notification over stdio");
    expect(pushed.find((p) => p.meta.message_id === sent.data.id)).toMatchObject({
      content: "@scout pushed through stdio",
      meta: { room: "#ops", from: "@dana" },
    });
  });

  it("list_channels shows the public channels, joined or not, named as every result names rooms; join_room joins one by #name", async () => {
    const name = `lobby-${dialect}`;
    await owner.api.rooms.createChannel.mutate({ name, visibility: "public", topic: "Say hi", memberIds: [] });
    const client = await mcpClient(server, agent.apiKey);
    const listed = await tool<{ channels: { id: string; name: string; topic: string; members: number; joined: boolean }[] }>(client, "list_channels");
    expect(listed.channels.find((c) => c.name === `#${name}`)).toMatchObject({ topic: "Say hi", members: 1, joined: false });
    expect(listed.channels.every((c) => c.name.startsWith("#"))).toBe(true);
    const joined = await tool<{ room: { id: string; name: string } }>(client, "join_room", { room: `#${name}` });
    expect(joined.room.name).toBe(`#${name}`);
    const again = await tool<{ channels: { name: string; joined: boolean; members: number }[] }>(client, "list_channels");
    expect(again.channels.find((c) => c.name === `#${name}`)).toMatchObject({ joined: true, members: 2 });
  });

  it("set_profile_status puts an emoji and words beside the agent's name for people, until it clears them", async () => {
    const client = await mcpClient(server, agent.apiKey);
    const set = await tool<{ emoji: string; text: string; until: string | null }>(client, "set_profile_status", {
      emoji: "🛠️",
      text: "Migrating the database",
      clear_after_minutes: 120,
    });
    expect(set).toMatchObject({ emoji: "🛠️", text: "Migrating the database" });
    expect(Date.parse(set.until!) - Date.now()).toBeGreaterThan(119 * 60_000);
    const seen = async () => (await owner.api.workspace.participants.query()).find((p) => p.id === agent.id)!;
    expect(await seen()).toMatchObject({ statusEmoji: "🛠️", statusText: "Migrating the database", statusUntil: set.until });
    expect(await call(client, "set_profile_status", { emoji: "not an emoji" })).toMatchObject({ isError: true, data: { error: { code: "INVALID_PAYLOAD" } } });
    await tool(client, "set_profile_status", { emoji: "", text: "" });
    expect(await seen()).toMatchObject({ statusEmoji: "", statusText: "", statusUntil: null });
  });

  it("switchboard mcp with a refused key answers the host's initialize with an error and exits", async () => {
    await expect(stdioClient(server, "sb_0123456789_nonsensenonsensenonsensenonsense00")).rejects.toThrow(/UNAUTHENTICATED|401/);
  });

  it("switchboard mcp names the URL it cannot reach, to the host and in its log", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const home = mkdtempSync(path.join(tmpdir(), "switchboard-mcp-"));
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      SWITCHBOARD_CONFIG_DIR: home,
      SWITCHBOARD_URL: `http://127.0.0.1:${closed}`,
      SWITCHBOARD_API_KEY: agent.apiKey,
    };
    const transport = new StdioClientTransport({ command: process.execPath, args: [...CLI, "mcp"], env, stderr: "pipe" });
    let log = "";
    transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
    const client = new Client({ name: "switchboard-stdio-tests", version: "1.0.0" });
    const expected = `Cannot reach Switchboard at http://127.0.0.1:${closed}/api/mcp (ECONNREFUSED)`;
    await expect(client.connect(transport)).rejects.toThrow(expected);
    await waitFor(() => log.includes(expected), 5_000, `the bridge's log to name the URL (log: ${log})`);
    await client.close();
  });

  it("acts as a person with their access token: a write token posts as them, a read token only reads, a revoked one is refused", async () => {
    const write = await owner.api.tokens.create.mutate({ name: "mcp write", scope: "write" });
    const asDana = await mcpClient(server, write.token);
    expect(await tool(asDana, "whoami")).toMatchObject({ handle: "@dana", kind: "human", role: "owner" });
    const posted = await tool<{ message: { from: string; from_kind: string } }>(asDana, "send_message", { room: "#ops", text: "from my editor" });
    expect(posted.message).toMatchObject({ from: "@dana", from_kind: "human" });

    const read = await owner.api.tokens.create.mutate({ name: "mcp read", scope: "read" });
    const reader = await mcpClient(server, read.token);
    expect((await tool<{ messages: unknown[] }>(reader, "read_messages", { room: "#ops" })).messages.length).toBeGreaterThan(0);
    for (const [name, args] of [
      ["send_message", { room: "#ops", text: "nope" }],
      ["set_status", { status: "nope" }],
      ["create_room", { name: `nope-${dialect}` }],
    ] as const) {
      expect(await call(reader, name, args), name).toMatchObject({ isError: true, data: { error: { code: "INSUFFICIENT_SCOPE" } } });
    }

    await owner.api.tokens.revoke.mutate({ tokenId: write.accessToken.id });
    await expect(asDana.callTool({ name: "whoami", arguments: {} })).rejects.toThrow(/401|UNAUTHENTICATED/);
  });

  it("refuses what the socket refuses, with the same codes: a room it is not in, consent, limits with retryAfterMs", async () => {
    const client = await mcpClient(server, agent.apiKey);
    // A public channel it has not joined, and a private one it cannot see: the socket's answers, over MCP.
    const open = await owner.api.rooms.createChannel.mutate({ name: `open-${dialect}`, visibility: "public", memberIds: [] });
    const hidden = await owner.api.rooms.createChannel.mutate({ name: `hidden-${dialect}`, visibility: "private", memberIds: [] });
    const raw = await openAgentSocket(server.url, agent.apiKey);
    for (const [target, code] of [
      [open, "NOT_A_MEMBER"],
      [hidden, "ROOM_NOT_FOUND"],
    ] as const) {
      const overSocket = await emitAck<{ ok: false; error: { code: string } }>(raw, "message:send", {
        roomId: target.id,
        body: "hello?",
        clientMsgId: randomUUID(),
      });
      expect(overSocket.error.code).toBe(code);
      expect(await call(client, "send_message", { room: target.id, text: "hello?" })).toMatchObject({ isError: true, data: { error: { code } } });
    }
    expect(await call(client, "send_message", { room: `#open-${dialect}`, text: "hello?" })).toMatchObject({
      isError: true,
      data: { error: { code: "NOT_A_MEMBER" } },
    });
    expect(await call(client, "send_message", { room: `#hidden-${dialect}`, text: "hello?" })).toMatchObject({
      isError: true,
      data: { error: { code: "ROOM_NOT_FOUND" } },
    });

    // Another person's agent asks for consent: a DM needs an accepted connection, over MCP as over the socket.
    const { token } = await owner.api.workspace.createInvite.mutate({});
    const erin = await signUpPerson(server, { handle: "erin", inviteToken: token });
    const stranger = await createAgent(erin, "stranger");
    const overMcp = await call(client, "open_dm", { participants: ["@stranger"] });
    const { SwitchboardClient } = await import("@switchboard/sdk");
    const sdk = new SwitchboardClient({ url: server.url, apiKey: agent.apiKey });
    await sdk.connect();
    const overSocket = await sdk.openDirect([stranger.id]).then(
      () => null,
      (error: { code: string }) => error.code,
    );
    await sdk.close();
    expect(overMcp.isError).toBe(true);
    expect(overMcp.data.error!.code).toBe(overSocket);

    await owner.api.agents.setLimits.mutate({ agentId: agent.id, messagesPerMinute: 1, burst: 0 });
    try {
      // One a minute, and the burst window's one: the third is refused.
      await call(client, "send_message", { room: roomId, text: "one" });
      await call(client, "send_message", { room: roomId, text: "two" });
      const limited = await call(client, "send_message", { room: roomId, text: "three" });
      expect(limited).toMatchObject({ isError: true, data: { error: { code: "RATE_LIMITED" } } });
      expect(limited.data.error!.retryAfterMs).toBeGreaterThan(0);
    } finally {
      await owner.api.agents.setLimits.mutate({ agentId: agent.id, messagesPerMinute: null, burst: null });
    }
  });

  it("lists its rooms as resources, reads one, and says when a subscribed room gets a message", async () => {
    const client = await mcpClient(server, agent.apiKey);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(["switchboard://rooms", `room://${roomId}/messages`]));
    const read = await client.readResource({ uri: `room://${roomId}/messages` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ room_id: roomId, messages: expect.any(Array) });

    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: `room://${roomId}/messages` });
    const socket = await owner.socket();
    await emitAck(socket, "message:send", { roomId, body: "anyone there?", clientMsgId: randomUUID() });
    await waitFor(() => updated.includes(`room://${roomId}/messages`), 10_000, "resources/updated");

    const secret = await owner.api.rooms.createChannel.mutate({ name: `secret-${dialect}`, visibility: "private", memberIds: [] });
    await expect(client.subscribeResource({ uri: `room://${secret.id}/messages` })).rejects.toThrow();
  });

  it("in channel mode declares claude/channel and pushes what is addressed to the agent, with its room and seq", async () => {
    // Waiting before the session starts (not acknowledged): pushed once the client's stream is open.
    const early = await emitAck<{ ok: true; data: { id: string } }>(await owner.socket(), "message:send", {
      roomId,
      body: "@scout before you connected",
      clientMsgId: randomUUID(),
    });
    const client = await mcpClient(server, agent.apiKey, { channel: true });
    expect(client.getServerCapabilities()?.experimental).toHaveProperty(["claude/channel"]);
    expect(client.getInstructions()).toMatch(/<channel source="switchboard"/);
    const pushed: { content: string; meta: Record<string, string> }[] = [];
    const ChannelNotification = z.object({
      method: z.literal("notifications/claude/channel"),
      params: z.object({ content: z.string(), meta: z.record(z.string(), z.string()) }),
    });
    client.setNotificationHandler(ChannelNotification, (n) => void pushed.push(n.params));
    await waitFor(() => pushed.some((p) => p.meta.message_id === early.data.id), 10_000, "the push of what waited");
    const socket = await owner.socket();
    const sent = await emitAck<{ ok: true; data: { id: string; seq: number } }>(socket, "message:send", {
      roomId,
      body: "@scout ship it",
      clientMsgId: randomUUID(),
    });
    await waitFor(() => pushed.some((p) => p.meta.message_id === sent.data.id), 10_000, "a channel notification");
    expect(pushed.find((p) => p.meta.message_id === sent.data.id)).toEqual({
      content: "@scout ship it",
      meta: { room: "#ops", room_id: roomId, seq: String(sent.data.seq), message_id: sent.data.id, from: "@dana" },
    });
    // Not addressed to it (no mention, a channel in mentions mode): not pushed.
    const quiet = await emitAck<{ ok: true; data: { id: string } }>(socket, "message:send", { roomId, body: "just chatting", clientMsgId: randomUUID() });
    const marker = await emitAck<{ ok: true; data: { id: string } }>(socket, "message:send", { roomId, body: "@scout marker", clientMsgId: randomUUID() });
    await waitFor(() => pushed.some((p) => p.meta.message_id === marker.data.id), 10_000, "the marker");
    expect(pushed.some((p) => p.meta.message_id === quiet.data.id)).toBe(false);
  });
});
