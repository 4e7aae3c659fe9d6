// The LangGraph adapter watched and stopped from its room, with the real framework: the SDK's Agent in
// this process runs a graph (model node, ToolNode, MemorySaver) whose model is scripted
// (fixtures/tool-calling-chat-model.ts, which refuses a tool call left without its result, as a
// provider's API does), against the real server. Each tool call shows live under the message (running
// while the tool blocks, then done or failed with its result), with the model's words between calls
// and its tokens so far; a Stop ends the graph's run where it is (in a tool, or while the model thinks),
// the turn stopped and the receipt failed, and the next message resumes the same thread and answers;
// an interrupt() still asks in the room and is resumed by the next message.
// One dialect: the adapter does not touch the database (turns.test.ts covers turns on both).
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { HumanMessage, ToolMessage, type AIMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { interrupt } from "@langchain/langgraph";
import { Agent } from "@switchboard/sdk";
import { langGraph, type MessagesGraph } from "@switchboard/sdk/adapters/langgraph";
import type { TurnStepView, TurnView } from "@switchboard/sdk/turns";
import { closeSockets, collect, createAgent, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";
import { callTools, say, ToolCallingChatModel, type Answer } from "./fixtures/tool-calling-chat-model";
import { toolLoopGraph } from "./fixtures/tool-loop-graph";

/** A promise each test opens when it is ready: a tool call, or a model's answer, waits on its gate. */
class Gates {
  private readonly gates = new Map<string, { opened: Promise<void>; open: () => void }>();
  private gate(name: string) {
    let gate = this.gates.get(name);
    if (!gate) {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      gate = { opened, open };
      this.gates.set(name, gate);
    }
    return gate;
  }
  wait = (name: string): Promise<void> => this.gate(name).opened;
  open = (name: string): void => this.gate(name).open();
  openAll = (): void => this.gates.forEach((g) => g.open());
}

describe("the LangGraph adapter, watched and stopped from its room", () => {
  let server: TestServer;
  let dana: Person;
  let lee: Person;
  let agent: Agent;
  let bot: { id: string; handle: string };
  let graph: MessagesGraph;
  const model = new ToolCallingChatModel();
  const gates = new Gates();
  /** The commands run_checks was called with, as each call began. */
  const checksRun: string[] = [];

  beforeAll(async () => {
    ({
      server,
      people: { dana, lee },
    } = await startWorkspace("sqlite", { people: { dana: "owner", lee: "member" } }));
    const made = await createAgent(dana, "grapher", { framework: "langgraph" });
    bot = { id: made.id, handle: "grapher" };
    // A tool of the agent author's own, beside the platform tools: it takes as long as its gate stays shut.
    const runChecks = tool(
      async ({ command }: { command: string }) => {
        checksRun.push(command);
        await gates.wait(command);
        return `${command}: 42 passed`;
      },
      { name: "run_checks", description: "Runs a test command", schema: z.object({ command: z.string() }) },
    );
    // Human in the loop: the graph stops at an interrupt() with the question, and takes the answer on resume.
    const askPerson = tool(async ({ prompt }: { prompt: string }) => String(interrupt(prompt)), {
      name: "ask_person",
      description: "Asks the person a question",
      schema: z.object({ prompt: z.string() }),
    });
    agent = Agent.create({
      url: server.url,
      apiKey: made.apiKey,
      handleSignals: false,
      log: () => undefined,
      adapter: langGraph({
        model: "scripted-tools-1",
        graph: (tools) => (graph = toolLoopGraph(model, [...tools, runChecks, askPerson])),
      }),
    });
    await agent.start();
  });
  afterEach(() => {
    closeSockets();
    // Every scripted answer was asked for (emptied as checked: one test's failure does not fail the next).
    expect(model.unscript()).toBe(0);
  });
  afterAll(async () => {
    gates.openAll();
    await agent?.stop({ abandonTurns: true });
    await server?.dispose();
  });

  /** A room of dana's with the agent and lee (each test its own: its own binding, its own thread). */
  async function room(name: string): Promise<string> {
    const created = await dana.api.rooms.createChannel.mutate({ name, visibility: "private", memberIds: [bot.id, lee.participantId] });
    return created.id;
  }
  const mention = (roomId: string, text: string) => dana.api.messages.send.mutate({ roomId, body: `@${bot.handle} ${text}`, clientMsgId: randomUUID() });
  /** The turns as lee's socket sees them: the latest view of each, and every step by key. */
  async function watch() {
    const events = collect(await lee.socket(), "turn:activity");
    return {
      turn: (messageId: string): TurnView | undefined => events.filter((e) => e.turn.messageId === messageId).at(-1)?.turn,
      steps: (messageId: string): TurnStepView[] => {
        const byKey = new Map<string, TurnStepView>();
        for (const e of events.filter((x) => x.turn.messageId === messageId)) for (const s of e.steps) byKey.set(s.key, s);
        return [...byKey.values()].sort((a, b) => a.position - b.position);
      },
    };
  }
  async function reply(roomId: string, text: string): Promise<void> {
    let bodies: string[] = [];
    await waitFor(
      () => bodies.includes(text),
      10_000,
      `the reply "${text}"`,
      async () => void (bodies = (await lee.api.messages.history.query({ roomId })).messages.filter((m) => m.author.id === bot.id).map((m) => m.body)),
    );
  }
  async function receiptOf(messageId: string) {
    let receipt: { state: string; reason: string | null } | undefined;
    await waitFor(
      () => receipt?.state === "failed",
      10_000,
      "the failed receipt",
      async () => void (receipt = (await lee.api.messages.thread.query({ messageId })).root.receipts.find((r) => r.participantId === bot.id)),
    );
    return receipt!;
  }
  const bindingOf = async (roomId: string) => (await dana.api.bindings.ofRoom.query({ roomId, includeClosed: true }))[0];

  it("shows each tool call live from LangGraph's stream (running while it runs, then done or failed), the model's words and its tokens so far; the turn ends done with its usage", async () => {
    const roomId = await room("graph-watched");
    const seen = await watch();
    model.script(
      callTools("Running the lint first.", [
        { name: "run_checks", args: { command: "npm run lint" } },
        // A platform tool, run over the agent's socket, that the server refuses.
        { name: "send_message", args: { room: "#nowhere", text: "lint started" } },
      ]),
      say("Lint passed: 42 checks."),
    );
    const asked = await mention(roomId, "check the lint");

    // While run_checks blocks: its step running, the refused call already failed, the model's words, one call's tokens.
    const step = (title: string) => seen.steps(asked.id).find((s) => s.title === title);
    await waitFor(
      () =>
        step("run_checks npm run lint")?.status === "running" &&
        step("send_message lint started")?.status === "failed" &&
        seen.turn(asked.id)?.tokens.input === 100,
      10_000,
      "the steps, live",
    );
    expect(seen.turn(asked.id)).toMatchObject({ state: "running", runtime: "langgraph", tokens: { input: 100, output: 10 } });
    expect(seen.steps(asked.id).map((s) => [s.kind, s.title, s.status])).toEqual([
      ["note", "Running the lint first.", "done"],
      ["tool", "run_checks npm run lint", "running"],
      ["tool", "send_message lint started", "failed"],
    ]);
    expect(step("send_message lint started")?.detail).toBe('{"error":{"code":"ROOM_NOT_FOUND","message":"No room #nowhere"}}');

    gates.open("npm run lint");
    await waitFor(() => seen.turn(asked.id)?.state === "done", 10_000, "the turn's end");
    expect(step("run_checks npm run lint")).toMatchObject({ status: "done", detail: "npm run lint: 42 passed" });
    expect(seen.turn(asked.id)).toMatchObject({ tokens: { input: 200, output: 20 }, stoppedBy: null });
    await reply(roomId, "Lint passed: 42 checks.");
    // The model's second call had both results, after its calls.
    expect(
      model.calls
        .at(-1)!
        .filter((m) => ToolMessage.isInstance(m))
        .map((m) => [(m as ToolMessage).name, (m as ToolMessage).status]),
    ).toEqual([
      ["run_checks", "success"],
      ["send_message", "error"],
    ]);
    const { turns } = await dana.api.turns.forRoom.query({ roomId });
    expect(turns.map((t) => [t.state, t.steps.map((s) => s.status)])).toEqual([["done", ["done", "done", "failed"]]]);
  });

  it("a Stop while a tool runs ends the graph's run at once: the turn stopped, the receipt failed; the next message resumes the thread, the stopped call answered as stopped", async () => {
    const roomId = await room("graph-stopped");
    const seen = await watch();
    model.script(callTools("", [{ name: "run_checks", args: { command: "npm run e2e" } }]));
    const asked = await mention(roomId, "run the end-to-end suite");
    await waitFor(() => seen.steps(asked.id)[0]?.status === "running" && checksRun.includes("npm run e2e"), 10_000, "the tool running");
    const before = await bindingOf(roomId);
    expect(before.externalId).toEqual(expect.any(String));

    const t0 = performance.now();
    await dana.api.turns.stop.mutate({ turnId: seen.turn(asked.id)!.id });
    await waitFor(() => seen.turn(asked.id)?.state === "stopped", 10_000, "the turn stopped");
    const stoppedInMs = Math.round(performance.now() - t0);
    console.log(`LangGraph turn stopped ${stoppedInMs} ms after Stop (the tool still blocked)`);
    expect(stoppedInMs).toBeLessThan(3000);
    expect(seen.turn(asked.id)?.stoppedBy?.handle).toBe("dana");
    expect(seen.steps(asked.id).map((s) => [s.title, s.status])).toEqual([["run_checks npm run e2e", "failed"]]);
    expect((await receiptOf(asked.id)).reason).toBe("stopped by @dana");

    // What LangGraph kept: the model's call, its result never written (the tool node never finished).
    const thread = { configurable: { thread_id: before.externalId! } };
    const kept = (await graph.getState(thread)).values as { messages: AIMessage[] };
    const call = kept.messages.at(-1)!.tool_calls![0];
    expect(call.name).toBe("run_checks");

    model.script(say("Picked up where I was."));
    const next = await mention(roomId, "what happened?");
    await waitFor(() => seen.turn(next.id)?.state === "done", 10_000, "the next turn");
    await reply(roomId, "Picked up where I was.");
    const after = await bindingOf(roomId);
    expect(after).toMatchObject({ id: before.id, externalId: before.externalId, status: "idle" });
    // The model's call (which a provider would refuse with the call unanswered): the thread, the stopped call answered as such.
    const given = model.calls.at(-1)!;
    expect(given.map((m) => m.getType())).toEqual(["human", "ai", "tool", "human"]);
    expect(given[2]).toMatchObject({ tool_call_id: call.id, status: "error" });
    expect(String(given[2].content)).toContain("stopped");
    expect(given.filter((m) => HumanMessage.isInstance(m)).map((m) => m.content)).toEqual([
      `@dana: @${bot.handle} run the end-to-end suite`,
      `@dana: @${bot.handle} what happened?`,
    ]);
    gates.open("npm run e2e"); // the abandoned call ends; its result goes nowhere
  });

  it("a Stop while the model thinks ends the run there; the next message answers on the same thread", async () => {
    const roomId = await room("graph-thinking");
    const seen = await watch();
    let thinking = false;
    const slow: Answer = async (messages) => {
      thinking = true;
      await gates.wait("model");
      return say("too late")(messages);
    };
    model.script(slow);
    const asked = await mention(roomId, "think it over");
    await waitFor(() => thinking && seen.turn(asked.id)?.state === "running", 10_000, "the model thinking");
    const before = await bindingOf(roomId);
    await dana.api.turns.stop.mutate({ turnId: seen.turn(asked.id)!.id });
    await waitFor(() => seen.turn(asked.id)?.state === "stopped", 10_000, "the turn stopped");
    expect((await receiptOf(asked.id)).reason).toBe("stopped by @dana");

    model.script(say("Here now."));
    const next = await mention(roomId, "still there?");
    await reply(roomId, "Here now.");
    expect(await bindingOf(roomId)).toMatchObject({ externalId: before.externalId });
    expect(model.calls.at(-1)!.map((m) => String(m.content))).toEqual([`@dana: @${bot.handle} think it over`, `@dana: @${bot.handle} still there?`]);
    await waitFor(() => seen.turn(next.id)?.state === "done", 10_000, "the next turn done");
    gates.open("model");
  });

  it("an interrupt() in the run asks in the room and leaves the binding awaiting input; the next message resumes it, watched as before", async () => {
    const roomId = await room("graph-asking");
    const seen = await watch();
    const echo: Answer = (messages) => say(`Deploying: ${String(messages.at(-1)!.content)}`)(messages);
    model.script(callTools("", [{ name: "ask_person", args: { prompt: "Which environment?" } }]), echo);
    const asked = await mention(roomId, "deploy it");
    await reply(roomId, "Which environment?");
    await waitFor(() => seen.turn(asked.id)?.state === "done", 10_000, "the asking turn's end");
    let binding = await bindingOf(roomId);
    await waitFor(
      () => binding.status === "awaiting_input",
      10_000,
      "the binding awaiting input",
      async () => void (binding = await bindingOf(roomId)),
    );
    expect(binding.openTaskId).toEqual(expect.any(String));

    const answer = await mention(roomId, "staging");
    await reply(roomId, `Deploying: @${bot.handle} staging`);
    await waitFor(() => seen.turn(answer.id)?.state === "done", 10_000, "the resumed turn's end");
    // The tool ran on from its interrupt, in the resumed turn.
    expect(seen.steps(answer.id).map((s) => [s.title, s.status, s.detail])).toEqual([["ask_person Which environment?", "done", `@${bot.handle} staging`]]);
    expect(await bindingOf(roomId)).toMatchObject({ externalId: binding.externalId, status: "idle", openTaskId: null });
  });
});
