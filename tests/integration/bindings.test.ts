// Runtime bindings end to end on the real server: a LangGraph agent (the real framework, a durable
// SQLite checkpointer, a scripted model) bound to a room keeps its thread across SIGKILLs between
// turns and mid-turn, and is handed only what it had not seen; a lost checkpoint is recorded on the
// binding and the agent starts a new thread with the room's history; an owner's close makes the next
// message start fresh. And the binding rules at the socket: one binding per key however many claim at
// once, one turn holds it at a time, only the agent writes it, who may see or close it, and audit.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ack, MessageView } from "@switchboard/sdk";
import type { BindingView } from "@switchboard/sdk/bindings";
import {
  closeSockets,
  createAgent,
  dialects,
  emitAck,
  errorCode,
  openAgentSocket,
  startAgentProcess,
  unwrap,
  waitFor,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

const work = mkdtempSync(path.join(tmpdir(), "switchboard-bindings-"));
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

interface ModelCall {
  event: "model";
  humans: string[];
  heard: string;
}
const modelCalls = (file: string): ModelCall[] =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as ModelCall)
    : [];

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

describe.each(dialects)("runtime bindings (%s)", (dialect) => {
  let server: TestServer;
  let dana: Person; // the workspace's owner and the agents' owner
  let erin: Person; // a member who is not in the agents' rooms

  beforeAll(async () => {
    ({
      server,
      people: { dana, erin },
    } = await startWorkspace(dialect, { people: { dana: "owner", erin: "member" }, invite: { maxUses: 10 } }));
  });

  afterAll(async () => {
    closeSockets();
    await server?.dispose();
  });

  /** Messages of the room, oldest first, as dana reads them. */
  const history = async (roomId: string): Promise<MessageView[]> => (await dana.api.messages.history.query({ roomId, limit: 100 })).messages;

  async function replyTo(roomId: string, text: string, by: string): Promise<MessageView> {
    let found: MessageView | undefined;
    await waitFor(
      () => found !== undefined,
      20_000,
      `the agent's reply to "${text}"`,
      async () => {
        found = (await history(roomId)).find((m) => m.author.handle === by && m.body.includes(`heard "${text}"`));
      },
    );
    return found!;
  }

  const roomBinding = async (roomId: string): Promise<BindingView> => {
    const list = await dana.api.bindings.ofRoom.query({ roomId, includeClosed: true });
    expect(list).toHaveLength(1);
    return list[0];
  };

  /** The room's binding once its `turns`-th turn has finished (the reply is posted just before). */
  async function afterTurn(roomId: string, turns: number): Promise<BindingView> {
    let binding: BindingView | undefined;
    await waitFor(
      () => binding?.turns === turns && binding.status === "idle",
      10_000,
      `turn ${turns} saved on the binding`,
      async () => {
        binding = await roomBinding(roomId);
      },
    );
    return binding!;
  }

  // The LangGraph agent's own story (its checkpointer across kills, a lost thread, a tool call) runs on
  // one database: the framework is what it tests, and each agent process takes seconds to start. The
  // binding's rules (claim, lease, conflicts, who sees and closes it, audit) run on both.
  const langGraphStory = it.runIf(dialect === dialects[0]);

  langGraphStory(
    "a LangGraph agent keeps its thread across a SIGKILL between turns and one mid-turn, handed only what it had not seen, each message once",
    async () => {
      const { id: agentId, apiKey } = await createAgent(dana, "graph", { framework: "langgraph" });
      const room = await dana.api.rooms.createChannel.mutate({ name: `graph-${dialect}`, memberIds: [agentId] });
      const files = {
        LOG_FILE: path.join(work, `${dialect}-graph.log`),
        CURSOR_FILE: path.join(work, `${dialect}-graph-cursors.json`),
        CHECKPOINT_FILE: path.join(work, `${dialect}-graph.sqlite`),
      };
      const env = { SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: apiKey, LEASE_MS: "2000", MODEL_DELAY_MS: "4000", ...files };
      const send = (body: string) => dana.api.messages.send.mutate({ roomId: room.id, body, clientMsgId: `${dialect}-${body}` });

      let agent = await startAgentProcess("langgraph-agent", env, children);
      await send("@graph hello one");
      expect((await replyTo(room.id, "hello one", "graph")).body).toBe('turn 1: heard "hello one"');
      const first = await afterTurn(room.id, 1);
      expect(first).toMatchObject({ runtime: "langgraph", status: "idle", turns: 1, resumes: 0, agent: { handle: "graph" } });
      expect(first.externalId).toMatch(/^switchboard-/);
      expect(first.workdir).toBeTruthy();

      // Killed between turns; meanwhile the room goes on (one message not addressed to it, one that is).
      await killed(agent);
      await send("by the way, the build is green");
      const two = await send("@graph two");
      agent = await startAgentProcess("langgraph-agent", env, children);
      // The same thread: the checkpoint held "hello one", the turn added only what followed.
      expect((await replyTo(room.id, "two", "graph")).body).toBe('turn 3: heard "two"');
      expect(modelCalls(files.LOG_FILE).at(-1)!.humans).toEqual(["@dana: @graph hello one", "@dana: by the way, the build is green", "@dana: @graph two"]);
      const second = await afterTurn(room.id, 2);
      expect(second).toMatchObject({ externalId: first.externalId, turns: 2, resumes: 1, lastSeq: two.seq, status: "idle" });

      // Killed mid-turn (while the model "thinks"): the restart runs the turn again on the same thread,
      // which holds the message once (its LangChain id is the message's), and posts one reply.
      await send("@graph slow three");
      await waitFor(() => modelCalls(files.LOG_FILE).some((c) => c.heard.includes("slow three")), 20_000, "the model called for the third message");
      expect((await roomBinding(room.id)).status).toBe("active");
      await killed(agent);
      agent = await startAgentProcess("langgraph-agent", env, children);
      expect((await replyTo(room.id, "slow three", "graph")).body).toBe('turn 4: heard "slow three"');
      const calls = modelCalls(files.LOG_FILE).filter((c) => c.heard.includes("slow three"));
      expect(calls.length).toBe(2); // the killed turn and its rerun, on the same state
      expect(calls[1].humans).toEqual(calls[0].humans);
      const replies = (await history(room.id)).filter((m) => m.author.handle === "graph");
      expect(replies.map((m) => m.body)).toEqual(['turn 1: heard "hello one"', 'turn 3: heard "two"', 'turn 4: heard "slow three"']);
      const third = await afterTurn(room.id, 3);
      expect(third).toMatchObject({ externalId: first.externalId, turns: 3, resumes: 2, status: "idle", generation: 1 });

      // Usage came from the model's own messages, reported once per answered message (the killed
      // turn's call made no report; its rerun's did).
      const day = new Date().toISOString().slice(0, 10);
      const usage = await dana.api.usage.room.query({ roomId: room.id, from: day, to: day });
      expect(usage.totals.calls).toBe(3);
      expect(usage.shares).toMatchObject([{ id: agentId }]);
      await killed(agent);
    },
  );

  langGraphStory("a thread the checkpointer lost is recorded on the binding, and the agent starts a new one with the room's history", async () => {
    const { id: agentId, apiKey } = await createAgent(dana, "amnesiac", { framework: "langgraph" });
    const room = await dana.api.rooms.createChannel.mutate({ name: `amnesia-${dialect}`, memberIds: [agentId] });
    const files = {
      LOG_FILE: path.join(work, `${dialect}-amnesiac.log`),
      CURSOR_FILE: path.join(work, `${dialect}-amnesiac-cursors.json`),
      CHECKPOINT_FILE: path.join(work, `${dialect}-amnesiac.sqlite`),
    };
    const env = { SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: apiKey, LEASE_MS: "2000", ...files };
    const send = (body: string) => dana.api.messages.send.mutate({ roomId: room.id, body, clientMsgId: `${dialect}-${body}` });

    let agent = await startAgentProcess("langgraph-agent", env, children);
    await send("@amnesiac remember the blue door");
    await replyTo(room.id, "remember the blue door", "amnesiac");
    const before = await afterTurn(room.id, 1);
    await killed(agent);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(files.CHECKPOINT_FILE + suffix, { force: true });

    agent = await startAgentProcess("langgraph-agent", env, children);
    await send("@amnesiac which door?");
    // A new thread, given the conversation so far as context: its own earlier answer included.
    expect((await replyTo(room.id, "which door?", "amnesiac")).body).toBe('turn 2: heard "which door?"');
    expect(modelCalls(files.LOG_FILE).at(-1)!.humans).toEqual(["@dana: @amnesiac remember the blue door", "@dana: @amnesiac which door?"]);
    const after = await afterTurn(room.id, 2);
    expect(after.externalId).not.toBe(before.externalId);
    expect(after).toMatchObject({ resumeFailures: 1, resumes: 0, turns: 2, status: "idle" });
    expect(after.lastError).toMatch(/no checkpoint/);
    await killed(agent);
  });

  it("an owner's close makes the next message start a new session (audited); people outside the room do not see the binding", async () => {
    const { id: agentId, apiKey } = await createAgent(dana, "closer", { framework: "langgraph" });
    const room = await dana.api.rooms.createChannel.mutate({ name: `closer-${dialect}`, memberIds: [agentId], visibility: "private" });
    const files = {
      LOG_FILE: path.join(work, `${dialect}-closer.log`),
      CURSOR_FILE: path.join(work, `${dialect}-closer-cursors.json`),
      CHECKPOINT_FILE: path.join(work, `${dialect}-closer.sqlite`),
    };
    const agent = await startAgentProcess(
      "langgraph-agent",
      { SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: apiKey, LEASE_MS: "2000", ...files },
      children,
    );
    const send = (body: string) => dana.api.messages.send.mutate({ roomId: room.id, body, clientMsgId: `${dialect}-${body}` });

    await send("@closer first");
    await replyTo(room.id, "first", "closer");
    const bound = await afterTurn(room.id, 1);
    expect(await errorCode(erin.api.bindings.ofRoom.query({ roomId: room.id, includeClosed: true }))).toBe("ROOM_NOT_FOUND");
    expect(await erin.api.bindings.ofAgent.query({ agentId, includeClosed: true })).toEqual([]);
    expect(await errorCode(erin.api.bindings.close.mutate({ bindingId: bound.id }))).toBe("NOT_FOUND");
    expect((await dana.api.bindings.ofAgent.query({ agentId, includeClosed: true })).map((b) => b.id)).toEqual([bound.id]);
    // For people: the room as they see it, and what they may do (the owner closes).
    expect(await dana.api.bindings.ofAgent.query({ agentId, includeClosed: true })).toMatchObject([
      { room: { id: room.id, title: `closer-${dialect}`, kind: "channel", readable: true }, can: { close: true } },
    ]);
    expect(await dana.api.bindings.ofRoom.query({ roomId: room.id, includeClosed: false })).toMatchObject([
      { room: { id: room.id, readable: true }, can: { close: true } },
    ]);

    const closed = await dana.api.bindings.close.mutate({ bindingId: bound.id });
    expect(closed).toMatchObject({ status: "closed", closedBy: { handle: "dana" }, externalId: bound.externalId });
    await send("@closer second");
    // A new thread: the state holds only the history it was given and the new message.
    expect((await replyTo(room.id, "second", "closer")).body).toBe('turn 2: heard "second"');
    const fresh = await afterTurn(room.id, 2);
    expect(fresh).toMatchObject({ status: "idle", generation: 2, resumes: 0, closedAt: null });
    expect(fresh.externalId).not.toBe(bound.externalId);

    const audit = await dana.api.admin.audit.query({ subjectId: bound.id });
    expect(audit.map((e) => [e.action, e.data])).toEqual([
      ["binding.created", expect.objectContaining({ generation: 2, runtime: "langgraph" })],
      ["binding.closed", expect.objectContaining({ externalId: bound.externalId, generation: 1 })],
      ["binding.created", expect.objectContaining({ generation: 1, roomId: room.id })],
    ]);
    await killed(agent);
  });

  langGraphStory("the graph's model calls a platform tool (send_message, over the agent's socket) and answers with its result", async () => {
    const { id: agentId, apiKey } = await createAgent(dana, "poster", { framework: "langgraph" });
    const room = await dana.api.rooms.createChannel.mutate({ name: `poster-${dialect}`, memberIds: [agentId] });
    const other = await dana.api.rooms.createChannel.mutate({ name: `news-${dialect}`, memberIds: [agentId] });
    const files = {
      LOG_FILE: path.join(work, `${dialect}-poster.log`),
      CURSOR_FILE: path.join(work, `${dialect}-poster-cursors.json`),
      CHECKPOINT_FILE: path.join(work, `${dialect}-poster.sqlite`),
    };
    const agent = await startAgentProcess("langgraph-agent", { SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: apiKey, ...files }, children);
    await dana.api.messages.send.mutate({ roomId: room.id, body: `@poster post "deploy done" to #news-${dialect}`, clientMsgId: `${dialect}-post` });
    let posted: MessageView | undefined;
    await waitFor(
      () => posted !== undefined,
      20_000,
      "the tool's message in the other room",
      async () => {
        posted = (await history(other.id)).find((m) => m.author.handle === "poster");
      },
    );
    expect(posted!.body).toBe("deploy done");
    let answer: MessageView | undefined;
    await waitFor(
      () => answer !== undefined,
      20_000,
      "the answer after the tool call",
      async () => {
        answer = (await history(room.id)).find((m) => m.author.handle === "poster");
      },
    );
    expect(answer!.body).toMatch(/^turn 1: the tool said .*"seq"/);
    await killed(agent);
  });

  it("at the socket: one binding per key however many claim at once, one turn holds it, only its holder writes it, only the agent claims", async () => {
    const { id: agentId, apiKey } = await createAgent(dana, "raw", { framework: "script" });
    const room = await dana.api.rooms.createChannel.mutate({ name: `raw-${dialect}`, memberIds: [agentId] });
    const [a, b] = await Promise.all([openAgentSocket(server.url, apiKey), openAgentSocket(server.url, apiKey)]);
    const key = { roomId: room.id, runtime: "generic" };
    const claims = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) =>
        emitAck<Ack<BindingView>>(a, "binding:claim", { ...key, holder: "holder-a-process" }).then((r) => ({ who: `a${i}`, r })),
      ),
      ...Array.from({ length: 4 }, (_, i) =>
        emitAck<Ack<BindingView>>(b, "binding:claim", { ...key, holder: "holder-b-process" }).then((r) => ({ who: `b${i}`, r })),
      ),
    ]);
    const won = claims.filter((c) => c.r.ok).map((c) => c.who[0]);
    expect(new Set(won).size).toBe(1); // only one holder's claims succeed
    for (const c of claims.filter((c) => !c.r.ok))
      expect(c.r).toMatchObject({ ok: false, error: { code: "BINDING_BUSY", retryable: true, retryAfterMs: expect.any(Number) } });
    const list = unwrap(await emitAck<Ack<BindingView[]>>(a, "binding:list", {}));
    expect(list).toHaveLength(1);
    const binding = list[0];
    const [holder, other] = won[0] === "a" ? ["holder-a-process", "holder-b-process"] : ["holder-b-process", "holder-a-process"];

    // Only the holder writes; a write for an old generation or after release is refused.
    expect(await emitAck<Ack<BindingView>>(a, "binding:update", { bindingId: binding.id, holder: other, generation: 1, externalId: "x" })).toMatchObject({
      ok: false,
      error: { code: "CONFLICT" },
    });
    const saved = unwrap(
      await emitAck<Ack<BindingView>>(a, "binding:update", {
        bindingId: binding.id,
        holder,
        generation: 1,
        externalId: "session-1",
        lastSeq: 5,
        release: true,
      }),
    );
    expect(saved).toMatchObject({ externalId: "session-1", lastSeq: 5, turns: 1, status: "idle", leaseUntil: null });
    expect(await emitAck<Ack<BindingView>>(a, "binding:update", { bindingId: binding.id, holder, generation: 1, lastSeq: 2 })).toMatchObject({
      ok: false,
      error: { code: "CONFLICT" },
    });
    expect(await emitAck<Ack<BindingView>>(b, "binding:update", { bindingId: binding.id, holder, generation: 2, externalId: "y" })).toMatchObject({
      ok: false,
      error: { code: "CONFLICT" },
    });
    // A member who reads the public room sees the binding but may not close it.
    expect(await erin.api.bindings.ofRoom.query({ roomId: room.id, includeClosed: false })).toMatchObject([
      { id: binding.id, room: { title: `raw-${dialect}`, readable: true }, can: { close: false } },
    ]);
    expect(await erin.api.bindings.ofAgent.query({ agentId, includeClosed: true })).toMatchObject([{ id: binding.id, can: { close: false } }]);
    // Free now: the other process takes it.
    expect(unwrap(await emitAck<Ack<BindingView>>(b, "binding:claim", { ...key, holder: other })).status).toBe("active");

    // Bad input, and people: clear codes.
    expect(await emitAck<Ack<BindingView>>(a, "binding:claim", { ...key, runtime: "Not A Kind", holder })).toMatchObject({
      ok: false,
      error: { code: "INVALID_PAYLOAD" },
    });
    expect(await emitAck<Ack<BindingView>>(a, "binding:claim", { roomId: "nope", runtime: "generic", holder })).toMatchObject({
      ok: false,
      error: { code: "ROOM_NOT_FOUND" },
    });
    const danaSocket = await dana.socket();
    expect(await emitAck<Ack<BindingView>>(danaSocket, "binding:claim", { ...key, holder: "dana-holder-1" })).toMatchObject({
      ok: false,
      error: { code: "FORBIDDEN" },
    });
  });
});
