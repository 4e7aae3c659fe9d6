// A Switchboard agent served over A2A, driven by the official A2A SDK's own client
// (`ClientFactory().createFromUrl`): its card, a send answered in the room, a conversation continued by
// contextId, streaming, GetTask, cancel, input required answered by taskId, a v0.3 client, a caller
// without consent refused, retries of a send (after a timeout, at once, streamed, with other content,
// after a crash) and a task that survives a server restart. The served agent is an SDK
// client of ours, connected over the socket like any agent; the room holds the whole exchange.
import { randomUUID } from "node:crypto";
import { Task, TaskState, type Message } from "@a2a-js/sdk";
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SwitchboardClient, type MessageView } from "@switchboard/sdk";
import { closeAgentClients, createAgent, dialects, insertRows, queryDb, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

const text = (value: string) => ({ content: { $case: "text" as const, value }, metadata: undefined, filename: "", mediaType: "text/plain" });
const userMessage = (value: string, ids: { contextId?: string; taskId?: string } = {}): Message => ({
  messageId: randomUUID(),
  contextId: ids.contextId ?? "",
  taskId: ids.taskId ?? "",
  role: 1,
  parts: [text(value)],
  metadata: {},
  extensions: [],
  referenceTaskIds: [],
});
const send = (message: Message, returnImmediately = false) => ({
  tenant: "",
  message,
  configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately },
  metadata: {},
});
const artifactTexts = (task: Task) => task.artifacts.map((a) => a.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join(""));

async function a2aClient(server: TestServer, handle: string, credential: string): Promise<Client> {
  const authFetch: typeof fetch = (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${credential}` } });
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: authFetch }),
  });
  return factory.createFromUrl(`${server.url}/a2a/${handle}/`);
}

describe.each(dialects)("A2A: a Switchboard agent served over A2A (%s)", (dialect) => {
  let server: TestServer;
  let dana: Person; // owns the agent
  let bob: Person; // calls it, once connected
  let agentId: string;
  let agentKey: string;
  let helper: SwitchboardClient;
  let bobToken: string;
  const release = new Map<string, () => void>();

  async function connectHelper() {
    helper = new SwitchboardClient({ url: server.url, apiKey: agentKey, reconnectDelayMs: { min: 50, max: 500 } });
    helper.onMessage(async (m: MessageView, ctx) => {
      if (m.author.id === agentId || m.kind !== "text") return;
      if (m.body.startsWith("Canceled")) return;
      if (m.body.includes("choose")) {
        const outcome = await ctx.ask(m.roomId, {
          prompt: "Which color?",
          kind: "single",
          options: [
            { value: "red", label: "Red" },
            { value: "blue", label: "Blue" },
          ],
          audience: { type: "room" },
        });
        await helper.reply(m, `You chose ${(outcome.answer as { choice: string }).choice}`);
        return;
      }
      if (m.body.includes("fail")) throw new Error("cannot do that");
      if (m.body.includes("slow")) await new Promise<void>((resolve) => release.set(m.body, resolve));
      await helper.reply(m, `echo: ${m.body}`);
    });
    await helper.connect();
  }

  beforeAll(async () => {
    ({
      server,
      people: { dana, bob },
    } = await startWorkspace(dialect, { people: { dana: "owner", bob: "member" }, invite: { maxUses: 5 }, ownServer: true /* restarted */ }));
    const made = await createAgent(dana, "helper", { capabilities: ["summarize", "translate"] });
    agentId = made.id;
    agentKey = made.apiKey;
    bobToken = (await bob.api.tokens.create.mutate({ name: "a2a", scope: "write" })).token;
    await connectHelper();
  });

  afterAll(async () => {
    for (const done of release.values()) done();
    await closeAgentClients();
    await helper?.close();
    await server?.dispose();
  });

  it("serves nothing until the owner turns A2A on; then its card names it, its skills, its JSON-RPC URL and the bearer scheme", async () => {
    const before = await fetch(`${server.url}/a2a/helper/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } });
    expect(before.status).toBe(404);
    const view = await dana.api.agents.setA2aServed.mutate({ agentId, served: true });
    expect(view.a2aServed).toBe(true);
    // Bob does not own it: he may not turn it off.
    await expect(bob.api.agents.setA2aServed.mutate({ agentId, served: false })).rejects.toThrow();

    const card = await (await fetch(`${server.url}/a2a/helper/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } })).json();
    expect(card.name).toBe("Helper");
    expect(card.description).toBe("helper for tests");
    expect(card.skills.map((s: { name: string }) => s.name)).toEqual(["summarize", "translate"]);
    expect(card.capabilities.streaming).toBe(true);
    expect(card.supportedInterfaces).toContainEqual(
      expect.objectContaining({ url: `${server.url}/a2a/helper`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }),
    );
    expect(JSON.stringify(card.securitySchemes)).toContain("Bearer");
    // A v0.3 client (no A2A-Version header) gets the v0.3 card shape.
    const legacy = await (await fetch(`${server.url}/a2a/helper/.well-known/agent-card.json`)).json();
    expect(legacy.url).toBe(`${server.url}/a2a/helper`);
    expect(legacy.protocolVersion).toBe("0.3");
  });

  it("refuses a caller without credentials, and one with no accepted connection, with a clear error", async () => {
    const anonymous = await fetch(`${server.url}/a2a/helper`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} }),
    });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.data.code).toBe("UNAUTHENTICATED");

    const client = await a2aClient(server, "helper", bobToken);
    const refused = await client.sendMessage(send(userMessage("hello?"))).then(
      () => null,
      (e: Error) => e,
    );
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused?.message)).toMatch(/connect/i);
    const garbage = await fetch(`${server.url}/a2a/helper`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${bobToken}` },
      body: "{not json",
    });
    expect([400, 403]).toContain(garbage.status);
    const raw = await fetch(`${server.url}/a2a/helper`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${bobToken}`, "A2A-Version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "GetTask", params: { id: "x" } }),
    });
    expect(raw.status).toBe(403);
    expect((await raw.json()).error.data.code).toBe("NOT_CONNECTED");
  });

  it("answers a send once connected: the request and the reply are in the DM's thread, the task completes with the reply as artifact", async () => {
    const asked = await bob.api.connections.request.mutate({ participantId: agentId, message: "A2A calls" });
    await dana.api.connections.respond.mutate({ connectionId: asked.id, decision: "accept" });
    const client = await a2aClient(server, "helper", bobToken);
    const result = (await client.sendMessage(send(userMessage("hello helper")))) as Task;
    expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactTexts(result)).toEqual(["echo: hello helper"]);
    expect(result.history.map((m) => m.role)).toEqual([1, 2]);

    // Continue by contextId: the same thread.
    const second = (await client.sendMessage(send(userMessage("and again", { contextId: result.contextId })))) as Task;
    expect(second.contextId).toBe(result.contextId);
    expect(second.id).not.toBe(result.id);
    expect(artifactTexts(second)).toEqual(["echo: and again"]);

    const rooms = await bob.api.rooms.mine.query();
    const dm = rooms.find((r) => r.kind === "dm");
    expect(dm).toBeTruthy();
    const history = await bob.api.messages.history.query({ roomId: dm!.id, limit: 50 });
    const root = history.messages.find((m) => m.body === "hello helper")!;
    expect(root).toBeTruthy();
    const thread = await bob.api.messages.thread.query({ messageId: root.id, limit: 50 });
    expect(thread.replies.map((m) => m.body)).toEqual(["echo: hello helper", "and again", "echo: and again"]);

    // GetTask answers from the store.
    const got = await client.getTask({ tenant: "", id: result.id, historyLength: undefined });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactTexts(got)).toEqual(["echo: hello helper"]);
  });

  it("streams a task: submitted, working, the reply as an artifact update, completed", async () => {
    const client = await a2aClient(server, "helper", bobToken);
    const seen: string[] = [];
    let replyText = "";
    for await (const event of client.sendMessageStream(send(userMessage("stream this")))) {
      const payload = (event as { payload?: { $case: string; value: unknown } }).payload ?? { $case: "unknown", value: event };
      if (payload.$case === "statusUpdate") seen.push(TaskState[(payload.value as { status: { state: TaskState } }).status.state]);
      else if (payload.$case === "artifactUpdate") {
        seen.push("artifact");
        replyText = (payload.value as { artifact: Task["artifacts"][number] }).artifact.parts
          .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
          .join("");
      } else seen.push(payload.$case);
    }
    expect(seen[0]).toBe("task");
    expect(seen).toContain("artifact");
    expect(seen.at(-1)).toBe("TASK_STATE_COMPLETED");
    expect(replyText).toBe("echo: stream this");
  });

  it("lets a caller subscribe to a running task (SubscribeToTask) and hear it end, and lists its tasks", async () => {
    const client = await a2aClient(server, "helper", bobToken);
    const started = (await client.sendMessage(send(userMessage("slow subscribed"), true))) as Task;
    await waitFor(() => release.has("slow subscribed"), 10_000, "the agent to start");
    const seen: string[] = [];
    const listening = (async () => {
      for await (const event of client.resubscribeTask({ tenant: "", id: started.id })) {
        const payload = (event as { payload?: { $case: string; value: { status?: { state: TaskState } } } }).payload;
        seen.push(payload?.$case === "statusUpdate" ? TaskState[payload.value.status!.state] : String(payload?.$case));
      }
    })();
    await waitFor(() => seen.length > 0, 10_000, "the snapshot");
    release.get("slow subscribed")!();
    await listening;
    expect(seen[0]).toBe("task");
    expect(seen.at(-1)).toBe("TASK_STATE_COMPLETED");

    const listed = await client.listTasks({
      tenant: "",
      contextId: started.contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 10,
      pageToken: "",
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: true,
    });
    expect(listed.tasks.map((t) => t.id)).toEqual([started.id]);
    // Dana, the agent's owner, sees none of Bob's tasks.
    const danaToken = (await dana.api.tokens.create.mutate({ name: "a2a", scope: "write" })).token;
    const asDana = await a2aClient(server, "helper", danaToken);
    await expect(asDana.getTask({ tenant: "", id: started.id, historyLength: undefined })).rejects.toThrow();
  });

  it("speaks v0.3 to a v0.3 client (message/send, tasks/get), through the SDK's compatibility layer", async () => {
    const rpc = async (method: string, params: unknown) =>
      (
        await fetch(`${server.url}/a2a/helper`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${bobToken}` },
          body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
        })
      ).json();
    const sent = await rpc("message/send", {
      message: { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text: "from v0.3" }] },
    });
    expect(sent.result.kind).toBe("task");
    expect(sent.result.status.state).toBe("completed");
    expect(sent.result.artifacts[0].parts[0]).toEqual({ kind: "text", text: "echo: from v0.3" });
    const got = await rpc("tasks/get", { id: sent.result.id });
    expect(got.result.status.state).toBe("completed");
  });

  it("holds a conversation in a room the caller names, as a thread that mentions the agent", async () => {
    const room = await bob.api.rooms.createChannel.mutate({ name: `a2a-${dialect}`, memberIds: [] });
    await bob.api.rooms.invite.mutate({ roomId: room.id, participantIds: [agentId] });
    const client = await a2aClient(server, "helper", bobToken);
    const message = { ...userMessage("in the channel"), metadata: { roomId: room.id } };
    const task = (await client.sendMessage(send(message))) as Task;
    expect(artifactTexts(task)).toEqual(["echo: @helper in the channel"]);
    const history = await bob.api.messages.history.query({ roomId: room.id, limit: 20 });
    expect(history.messages.some((m) => m.body === "@helper in the channel")).toBe(true);
  });

  it("goes INPUT_REQUIRED when the agent asks the caller, and a message with that taskId answers it", async () => {
    const client = await a2aClient(server, "helper", bobToken);
    const asked = (await client.sendMessage(send(userMessage("please choose a color")))) as Task;
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const prompt = asked.status?.message?.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
    expect(prompt).toContain("Which color?");
    expect(prompt).toContain("Blue");
    const answered = (await client.sendMessage(send(userMessage("Blue", { taskId: asked.id, contextId: asked.contextId })))) as Task;
    expect(answered.id).toBe(asked.id);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactTexts(answered)).toEqual(["You chose blue"]);
  });

  it("fails a task the agent fails, with its reason", async () => {
    const client = await a2aClient(server, "helper", bobToken);
    const failed = (await client.sendMessage(send(userMessage("please fail")))) as Task;
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(JSON.stringify(failed.status?.message)).toContain("cannot do that");
  });

  it("cancels a running task: the room is told, and the task stays canceled", async () => {
    const client = await a2aClient(server, "helper", bobToken);
    const started = (await client.sendMessage(send(userMessage("slow one"), true))) as Task;
    await waitFor(() => release.has("slow one"), 10_000, "the agent to start");
    const canceled = await client.cancelTask({ tenant: "", id: started.id, metadata: {} });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    release.get("slow one")!();
    // The agent answers a room's messages in order: once the next one is answered, so was the slow one.
    const next = (await client.sendMessage(send(userMessage("after the cancel")))) as Task;
    expect(artifactTexts(next)).toEqual(["echo: after the cancel"]);
    const got = await client.getTask({ tenant: "", id: started.id, historyLength: undefined });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  /** How many times a request's text is stored in the workspace's rooms. */
  const stored = async (body: string) =>
    Number((await queryDb<{ n: number | string }>(server, `SELECT COUNT(*) AS n FROM "Message" WHERE body = $1`, [body]))[0].n);
  const stateOf = async (client: Client, id: string) => (await client.getTask({ tenant: "", id, historyLength: undefined })).status?.state;
  const tasksIn = async (client: Client, contextId: string) =>
    (
      await client.listTasks({
        tenant: "",
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 10,
        pageToken: "",
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
      })
    ).tasks.map((t) => t.id);

  it("gives a send retried after a timeout (the same messageId, no taskId) the same task as it is now, and stores the request once", async () => {
    const client = await a2aClient(server, "helper", bobToken);
    const message = userMessage("slow retried");
    const timeout = new AbortController();
    const first = client.sendMessage(send(message), { signal: timeout.signal }).then(
      () => null,
      (e: Error) => e,
    );
    await waitFor(() => release.has("slow retried"), 10_000, "the agent to start");
    timeout.abort(); // the client gives up waiting; the request is in the room
    expect(await first).toBeInstanceOf(Error);

    const retried = (await client.sendMessage(send(message))) as Task;
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(retried.status?.state); // at once, not waiting again
    expect(retried.history.map((m) => m.messageId)).toEqual([message.messageId]);
    expect(await tasksIn(client, retried.contextId)).toEqual([retried.id]);
    release.get("slow retried")!();
    let state: TaskState | undefined;
    await waitFor(
      () => state === TaskState.TASK_STATE_COMPLETED,
      10_000,
      "the task to complete",
      async () => void (state = await stateOf(client, retried.id)),
    );

    const later = (await client.sendMessage(send(message))) as Task;
    expect(later.id).toBe(retried.id);
    expect(later.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactTexts(later)).toEqual(["echo: slow retried"]);
    expect(await stored("slow retried")).toBe(1);
    expect(await tasksIn(client, retried.contextId)).toEqual([retried.id]);
  });

  it("gives concurrent retries of one message one task, and stores the request once", async () => {
    const client = await a2aClient(server, "helper", bobToken);
    const message = userMessage("retried at once");
    const tasks = (await Promise.all(Array.from({ length: 4 }, () => client.sendMessage(send(message))))) as Task[];
    const [task] = tasks;
    expect(tasks.map((t) => t.id)).toEqual(tasks.map(() => task.id));
    expect(tasks.map((t) => t.contextId)).toEqual(tasks.map(() => task.contextId));
    let state: TaskState | undefined;
    await waitFor(
      () => state === TaskState.TASK_STATE_COMPLETED,
      10_000,
      "the task to complete",
      async () => void (state = await stateOf(client, task.id)),
    );
    expect(await stored("retried at once")).toBe(1);
    expect(await stored("echo: retried at once")).toBe(1);
    expect(await tasksIn(client, task.contextId)).toEqual([task.id]);
  });

  it("streams a retried SendStreamingMessage as the same task: live while it runs, and just the task once it ended", async () => {
    const client = await a2aClient(server, "helper", bobToken);
    const message = userMessage("slow streamed retry");
    const payloadOf = (event: unknown) => (event as { payload: { $case: string; value: { id?: string; status?: { state: TaskState } } } }).payload;
    const lost = client.sendMessageStream(send(message));
    const opened = payloadOf((await lost.next()).value);
    expect(opened.$case).toBe("task");
    await lost.return(undefined); // the connection drops after the first event
    await waitFor(() => release.has("slow streamed retry"), 10_000, "the agent to start");

    const seen: { kind: string; id?: string; state?: string }[] = [];
    const retry = (async () => {
      for await (const event of client.sendMessageStream(send(message))) {
        const payload = payloadOf(event);
        seen.push({ kind: payload.$case, id: payload.value.id, state: payload.value.status ? TaskState[payload.value.status.state] : undefined });
      }
    })();
    await waitFor(() => seen.length > 0, 10_000, "the retry's first event");
    release.get("slow streamed retry")!();
    await retry;
    expect(seen[0]).toMatchObject({ kind: "task", id: opened.value.id });
    expect(seen.at(-1)?.state).toBe("TASK_STATE_COMPLETED");

    const after: { kind: string; id?: string; state?: TaskState }[] = [];
    for await (const event of client.sendMessageStream(send(message))) {
      const payload = payloadOf(event);
      after.push({ kind: payload.$case, id: payload.value.id, state: payload.value.status?.state });
    }
    expect(after).toEqual([{ kind: "task", id: opened.value.id, state: TaskState.TASK_STATE_COMPLETED }]);
    expect(await stored("slow streamed retry")).toBe(1);
  });

  it("refuses the same messageId with other content: JSON-RPC -32602, A2A_MESSAGE_ID_REUSED, nothing stored", async () => {
    const client = await a2aClient(server, "helper", bobToken);
    const message = userMessage("the original");
    const task = (await client.sendMessage(send(message))) as Task;
    const reused = { ...message, parts: [text("something else")] };
    const refused = (await client.sendMessage(send(reused)).then(
      () => null,
      (e: unknown) => e,
    )) as { envelopeCode?: number; message?: string; data?: { reason: string; metadata: Record<string, string> }[] } | null;
    expect(refused).toMatchObject({ envelopeCode: -32602 });
    expect(refused?.data?.[0]).toMatchObject({ reason: "INVALID_PARAMS", metadata: { code: "A2A_MESSAGE_ID_REUSED", retryable: "false" } });
    expect(refused?.message).toContain(task.id);
    const streamed = (async () => {
      for await (const event of client.sendMessageStream(send(reused))) void event;
    })();
    await expect(streamed).rejects.toMatchObject({ envelopeCode: -32602 });
    // Other content is also the same text sent to another context.
    const elsewhere = { ...message, contextId: randomUUID() };
    await expect(client.sendMessage(send(elsewhere))).rejects.toMatchObject({ envelopeCode: -32602 });
    expect(await stored("something else")).toBe(0);
    expect(await stored("the original")).toBe(1);

    // A v0.3 client: the same, in its own shape.
    const rpc = async (params: unknown) =>
      (
        await fetch(`${server.url}/a2a/helper`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${bobToken}` },
          body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "message/send", params }),
        })
      ).json();
    const legacy = { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text: "from v0.3, twice" }] };
    const once = await rpc({ message: legacy });
    const twice = await rpc({ message: legacy });
    expect(twice.result.id).toBe(once.result.id);
    const other = await rpc({ message: { ...legacy, parts: [{ kind: "text", text: "from v0.3, changed" }] } });
    expect(other.error.code).toBe(-32602);
    expect(await stored("from v0.3, twice")).toBe(1);
  });

  it("stores the request of a task whose first attempt stopped right after opening it (a crash), when the message is retried", async () => {
    const client = await a2aClient(server, "helper", bobToken);
    const body = "opened, then the process died";
    const done = (await client.sendMessage(send(userMessage(body)))) as Task;
    // A second task for the same request, as a process that died between opening it and storing its
    // request leaves it: its row (the first one's, in the same context), and no message in the room.
    const [row] = await queryDb<Record<string, unknown>>(server, `SELECT * FROM "A2aTask" WHERE id = $1`, [done.id]);
    const message = userMessage(body);
    const id = randomUUID();
    const opened: Task = {
      id,
      contextId: done.contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [],
      history: [],
      metadata: {},
    };
    await insertRows(server, "A2aTask", [
      { ...row, id, messageKey: message.messageId, state: "TASK_STATE_SUBMITTED", task: JSON.stringify(Task.toJSON(opened)) },
    ]);
    expect(await stored(body)).toBe(1);

    const retried = (await client.sendMessage(send(message))) as Task;
    expect(retried.id).toBe(id);
    let state: TaskState | undefined;
    await waitFor(
      () => state === TaskState.TASK_STATE_COMPLETED,
      10_000,
      "the recovered task to complete",
      async () => void (state = await stateOf(client, id)),
    );
    expect(await stored(body)).toBe(2); // the first task's, and now this one's
    expect(artifactTexts(await client.getTask({ tenant: "", id, historyLength: undefined }))).toEqual([`echo: ${body}`]);
    await client.sendMessage(send(message));
    expect(await stored(body)).toBe(2);
  });

  it.runIf(dialect === "sqlite")("limits a caller to 600 calls a minute: the next is HTTP 429 RATE_LIMITED with Retry-After", async () => {
    const { apiKey } = await createAgent(dana, "chatty");
    const call = () =>
      fetch(`${server.url}/a2a/helper`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${apiKey}`, "A2A-Version": "1.0" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "t" } }),
      });
    const statuses: number[] = [];
    for (let batch = 0; batch < 12; batch++) statuses.push(...(await Promise.all(Array.from({ length: 50 }, () => call().then((r) => r.status)))));
    expect(new Set(statuses)).toEqual(new Set([403])); // not connected, but counted
    const over = await call();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await over.json()).error.data).toMatchObject({ code: "RATE_LIMITED", retryable: true });
  });

  it("keeps tasks across a server restart: GetTask answers, and an open task completes after it", async () => {
    const client = await a2aClient(server, "helper", bobToken);
    const started = (await client.sendMessage(send(userMessage("slow after restart"), true))) as Task;
    await waitFor(() => release.has("slow after restart"), 10_000, "the agent to start");
    await server.restart();
    const after = await a2aClient(server, "helper", bobToken);
    const open = await after.getTask({ tenant: "", id: started.id, historyLength: undefined });
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(open.status?.state);
    release.get("slow after restart")!();
    let state: TaskState | undefined;
    await waitFor(
      () => state === TaskState.TASK_STATE_COMPLETED,
      20_000,
      "the task to complete after the restart",
      async () => {
        state = (await after.getTask({ tenant: "", id: started.id, historyLength: undefined })).status?.state;
      },
    );
  });
});

describe("A2A: one handle served by two workspaces of a deployment", () => {
  it("finds the caller's own workspace's agent, and asks an anonymous card fetch for a credential", async () => {
    const handle = `twin-${randomUUID().slice(0, 6)}`;
    const workspaces = await Promise.all([0, 1].map((i) => startWorkspace(dialects[0], { people: { [`own${i}`]: "owner" } })));
    const owners = workspaces.map((w, i) => w.people[`own${i}`]);
    const agents = await Promise.all(owners.map((owner) => createAgent(owner, handle)));
    await Promise.all(owners.map((owner, i) => owner.api.agents.setA2aServed.mutate({ agentId: agents[i].id, served: true })));
    const url = `${workspaces[0].server.url}/a2a/${handle}/.well-known/agent-card.json`;
    const anonymous = await fetch(url, { headers: { "A2A-Version": "1.0" } });
    expect(anonymous.status).toBe(404);
    expect(((await anonymous.json()) as { error: { message: string } }).error.message).toContain("with a credential of its workspace");
    for (const owner of owners) {
      const { token } = await owner.api.tokens.create.mutate({ name: "a2a", scope: "read" });
      const card = await fetch(url, { headers: { "A2A-Version": "1.0", Authorization: `Bearer ${token}` } });
      expect(card.status).toBe(200);
    }
  });
});
