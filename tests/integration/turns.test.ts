// A turn watched live in its room, and stopped from there (services/work/turns.ts, sdk/turn-activity.ts):
// an Agent (the SDK's, in this process) answers a mention with an adapter that reports its steps and
// waits; a person's socket sees the turn start, its steps arrive and the turn end; tRPC gives the room's
// turns back in order after the fact. Stop from the room aborts the turn's signal: the turn ends
// stopped, the message's receipt fails "stopped by @…", and the next message resumes the same session.
// Who may stop, the bounds on what is kept, secrets blanked, and that activity never moves the room.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Agent, type Ack } from "@switchboard/sdk";
import { generic } from "@switchboard/sdk/adapters/generic";
import { TURN_STEPS_MAX, type TurnStepView, type TurnView } from "@switchboard/sdk/turns";
import { closeSockets, collect, createAgent, dialects, emitAck, errorCode, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

describe.each(dialects)("turns, live in their room (%s)", (dialect) => {
  let server: TestServer;
  let olga: Person;
  let sam: Person;
  let lee: Person;
  const agents: Agent[] = [];

  beforeAll(async () => {
    ({
      server,
      people: { olga, sam, lee },
    } = await startWorkspace(dialect, { people: { olga: "owner", sam: "member", lee: "member" } }));
  });
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.stop()));
    closeSockets();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  /** An agent of sam's (a member, not an admin) in sam's room with lee and olga (the workspace's owner), running `turn` for each mention of it. */
  async function agentIn(name: string, turn: Parameters<typeof generic>[0]) {
    const handle = `${name}-${dialect}`.slice(0, 38);
    const made = await createAgent(sam, handle);
    const room = await sam.api.rooms.createChannel.mutate({ name: handle, visibility: "private", memberIds: [made.id, lee.participantId, olga.participantId] });
    const agent = Agent.create({ url: server.url, apiKey: made.apiKey, handleSignals: false, log: () => undefined, adapter: generic(turn) });
    agents.push(agent);
    await agent.start();
    return { ...made, handle, roomId: room.id };
  }
  const mention = (person: Person, roomId: string, handle: string, text: string) =>
    person.api.messages.send.mutate({ roomId, body: `@${handle} ${text}`, clientMsgId: randomUUID() });
  /** The turns as a person's socket saw them: the latest view of each, and every step by key. */
  function watch(events: { turn: TurnView; steps: TurnStepView[] }[]) {
    return {
      turn: (messageId: string) => events.filter((e) => e.turn.messageId === messageId).at(-1)?.turn,
      steps: (messageId: string) => {
        const byKey = new Map<string, TurnStepView>();
        for (const e of events.filter((x) => x.turn.messageId === messageId)) for (const s of e.steps) byKey.set(s.key, s);
        return [...byKey.values()].sort((a, b) => a.position - b.position);
      },
    };
  }

  it("shows a turn's steps live under the message it answers, in order, with its tokens; tRPC gives them back; the room's seq does not move", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const bot = await agentIn("watched", async (input) => {
      await input.work.tasks([
        { title: "Read the question", status: "completed" },
        { title: "Answer it", status: "in_progress" },
      ]);
      input.activity.toolStarted("call-1", "search_docs", { query: "refund policy", apiKey: "sk-live-0123456789abcdefghij" });
      input.activity.toolEnded("call-1", { hits: 3, top: "Refunds within 30 days" });
      input.activity.note("Drafting the answer");
      input.activity.usage({ inputTokens: 1200, outputTokens: 80, costUsd: 0.0042 });
      await held;
      return "Refunds are accepted within 30 days.";
    });
    const events = collect(await lee.socket(), "turn:activity");
    const seen = watch(events);
    const lastSeqBefore = (await lee.api.rooms.mine.query()).find((r) => r.id === bot.roomId)!.lastSeq;
    const asked = await mention(sam, bot.roomId, bot.handle, "what is the refund policy?");

    await waitFor(() => seen.steps(asked.id).length === 3, 10_000, "the steps, live");
    expect(seen.turn(asked.id)).toMatchObject({ state: "running", agent: { id: bot.id, handle: bot.handle }, runtime: "generic", roomId: bot.roomId });
    expect(seen.steps(asked.id).map((s) => [s.kind, s.title, s.status])).toEqual([
      ["plan", "Plan: 1 of 2 done", "done"],
      // The key in the input is blanked by the server, whatever the agent sent.
      ["tool", "search_docs refund policy", "done"],
      ["note", "Drafting the answer", "done"],
    ]);
    expect(seen.steps(asked.id)[0].items).toEqual([
      { title: "Read the question", status: "completed" },
      { title: "Answer it", status: "in_progress" },
    ]);
    expect(seen.steps(asked.id)[1].detail).toContain("Refunds within 30 days");
    expect(JSON.stringify(events)).not.toContain("sk-live-0123456789abcdefghij");
    // Activity is not a message: the room's seq is where the question left it.
    expect((await lee.api.rooms.mine.query()).find((r) => r.id === bot.roomId)!.lastSeq).toBe(lastSeqBefore + 1);

    release();
    await waitFor(() => seen.turn(asked.id)?.state === "done", 10_000, "the turn's end");
    expect(seen.turn(asked.id)).toMatchObject({ tokens: { input: 1200, output: 80 }, costUsd: 0.0042, endedAt: expect.any(String), stoppedBy: null });
    const { turns, canStopAll } = await olga.api.turns.forRoom.query({ roomId: bot.roomId });
    expect(canStopAll).toBe(true); // the workspace's owner
    expect(turns.map((t) => [t.messageId, t.state, t.steps.map((s) => s.kind)])).toEqual([[asked.id, "done", ["plan", "tool", "note"]]]);
  });

  it("Stop from the room ends a running turn: stopped by the person, the receipt failed, the session kept for the next message", async () => {
    const sessions: (string | null)[] = [];
    let turnsRun = 0;
    const bot = await agentIn("stoppable", async (input) => {
      sessions.push(input.binding.externalId);
      turnsRun += 1;
      if (turnsRun > 1) return "Picked up where I was.";
      input.activity.toolStarted("long-1", "run_tests", { command: "npm test" });
      // A framework that stops when told: it ends the turn on the signal.
      await new Promise<void>((_, reject) => input.signal.addEventListener("abort", () => reject(input.signal.reason as Error), { once: true }));
      return "never";
    });
    const events = collect(await lee.socket(), "turn:activity");
    const seen = watch(events);
    const asked = await mention(sam, bot.roomId, bot.handle, "run the tests");
    await waitFor(() => seen.steps(asked.id).length === 1, 10_000, "the turn running");
    const turnId = seen.turn(asked.id)!.id;

    // lee is neither the agent's owner nor an admin, and the room does not let members stop turns.
    expect(await errorCode(lee.api.turns.stop.mutate({ turnId }))).toBe("FORBIDDEN");
    const stopped = await sam.api.turns.stop.mutate({ turnId });
    expect(stopped).toMatchObject({ state: "running", stoppedBy: { handle: "sam" }, stopRequestedAt: expect.any(String) });
    await waitFor(() => seen.turn(asked.id)?.state === "stopped", 10_000, "the turn stopped");
    // The tool call that was running did not finish.
    expect(seen.steps(asked.id).map((s) => s.status)).toEqual(["failed"]);
    let receipt: { state: string; reason: string | null } | undefined;
    await waitFor(
      () => receipt?.state === "failed",
      10_000,
      "the failed receipt",
      async () => {
        const { root } = await lee.api.messages.thread.query({ messageId: asked.id });
        receipt = root.receipts.find((r) => r.participantId === bot.id);
      },
    );
    expect(receipt?.reason).toBe("stopped by @sam");
    expect(await errorCode(sam.api.turns.stop.mutate({ turnId }))).toBe("CONFLICT");
    // Who pressed Stop is in the audit log.
    const audit = await olga.api.admin.audit.query({ action: "turn.stopped" });
    expect(audit.map((e) => [e.actor?.handle, e.data])).toContainEqual(["sam", expect.objectContaining({ turnId })]);

    // The next message resumes the session the stopped turn had.
    const next = await mention(sam, bot.roomId, bot.handle, "go on");
    await waitFor(() => seen.turn(next.id)?.state === "done", 10_000, "the next turn");
    expect(sessions).toHaveLength(2);
    expect(sessions[1]).not.toBeNull();
  });

  it("lets any member stop turns where the room says so; the room's owner or an admin decides; agents never", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const bot = await agentIn("shared-stop", async (input) => {
      await Promise.race([held, new Promise((_, reject) => input.signal.addEventListener("abort", () => reject(input.signal.reason as Error)))]);
      return "ok";
    });
    expect(await errorCode(lee.api.turns.setMembersMayStop.mutate({ roomId: bot.roomId, membersMayStopTurns: true }))).toBe("FORBIDDEN");
    expect(await sam.api.turns.setMembersMayStop.mutate({ roomId: bot.roomId, membersMayStopTurns: true })).toEqual({ membersMayStopTurns: true });
    expect(await lee.api.turns.forRoom.query({ roomId: bot.roomId })).toMatchObject({ canStopAll: true, membersMayStopTurns: true, canChangeStopping: false });
    const events = collect(await lee.socket(), "turn:activity");
    const seen = watch(events);
    const asked = await mention(sam, bot.roomId, bot.handle, "take your time");
    await waitFor(() => seen.turn(asked.id) !== undefined, 10_000, "the turn");
    const turnId = seen.turn(asked.id)!.id;

    // Only agents open, report and end turns (and only their own): a person's socket may not.
    const socket = await lee.socket();
    const refused = await emitAck<Ack<unknown>>(socket, "turn:start", { messageId: asked.id });
    expect(refused.ok ? "ok" : refused.error.code).toBe("FORBIDDEN");
    const notTheirs = await emitAck<Ack<unknown>>(socket, "turn:end", { turnId, state: "done" });
    expect(notTheirs.ok ? "ok" : notTheirs.error.code).toBe("FORBIDDEN");

    await lee.api.turns.stop.mutate({ turnId });
    await waitFor(() => seen.turn(asked.id)?.state === "stopped", 10_000, "stopped by a member");
    expect(seen.turn(asked.id)?.stoppedBy?.handle).toBe("lee");
    release();
  });

  it("a person's reply in the thread while the turn runs steers it where the framework takes input mid-turn, else is the next turn; the block says which", async () => {
    const answered: string[] = [];
    // A framework that takes input mid-turn: it waits for the steer, and answers with it.
    const bot = await agentIn("steered", async (input) => {
      answered.push(input.messages.at(-1)!.body);
      if (input.messages.at(-1)!.body.includes("no steering")) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return "done";
      }
      const steer = await new Promise<string>((resolve) => input.steering.listen((m) => (resolve(m.body), true)));
      return `Changed course: ${steer}`;
    });
    const events = collect(await lee.socket(), "turn:activity");
    const seen = watch(events);
    const asked = await mention(sam, bot.roomId, bot.handle, "summarise the incident");
    await waitFor(() => seen.turn(asked.id)?.state === "running", 10_000, "the turn running");
    const steer = await sam.api.messages.send.mutate({
      roomId: bot.roomId,
      body: "focus on the database part",
      threadRootId: asked.id,
      clientMsgId: randomUUID(),
    });
    await waitFor(() => seen.turn(asked.id)?.state === "done", 10_000, "the steered turn's end");
    expect(seen.steps(asked.id).map((s) => s.title)).toContain("Redirected by @sam: focus on the database part");
    let history: string[] = [];
    // The answer, where the question was asked (the room's top level), took the steer in.
    await waitFor(
      () => history.includes("Changed course: focus on the database part"),
      10_000,
      "the steered answer",
      async () => void (history = (await lee.api.messages.history.query({ roomId: bot.roomId })).messages.map((m) => m.body)),
    );
    // The steering message was no turn of its own.
    await mention(sam, bot.roomId, bot.handle, "no steering here");
    await waitFor(() => answered.length === 2, 10_000, "the next message");
    expect(answered).toEqual([`@${bot.handle} summarise the incident`, `@${bot.handle} no steering here`]);
    expect(events.some((e) => e.turn.messageId === steer.id)).toBe(false);
  });

  it("keeps a turn's steps within its bounds, counting the rest", async () => {
    const bot = await agentIn("chatty", async (input) => {
      for (let i = 0; i < TURN_STEPS_MAX + 25; i++) input.activity.note(`step ${i}`);
      return "done";
    });
    const asked = await mention(sam, bot.roomId, bot.handle, "be verbose");
    let turn: Awaited<ReturnType<typeof lee.api.turns.forRoom.query>>["turns"][number] | undefined;
    await waitFor(
      () => turn?.state === "done",
      15_000,
      "the chatty turn",
      async () => void (turn = (await lee.api.turns.forRoom.query({ roomId: bot.roomId })).turns.find((t) => t.messageId === asked.id)),
    );
    expect(turn!.steps).toHaveLength(TURN_STEPS_MAX);
    expect(turn!.stepCount).toBe(TURN_STEPS_MAX);
    expect(turn!.droppedSteps).toBe(25);
    expect(turn!.steps.at(-1)?.title).toBe(`step ${TURN_STEPS_MAX - 1}`);
  });
});
