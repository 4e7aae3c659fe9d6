// Questions to people, end to end on the real server: an SDK agent asks and waits, people answer
// (once: racing answers get CONFLICT, the wrong person FORBIDDEN, a late one EXPIRED), expiry takes
// its decision, forms are validated, the Needs-you queue lists what each person may answer, and an
// agent killed while it waits gets the answer after it restarts.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageView } from "@switchboard/sdk";
import type { QuestionForViewer, QuestionMessageData, QuestionOutcomeData } from "@switchboard/sdk/questions";
import {
  closeAgentClients,
  closeSockets,
  collect,
  collectMessages,
  connectedAgent,
  createAgent,
  dialects,
  emitAck,
  errorCode,
  openAgentSocket,
  startAgentProcess,
  waitFor,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

const work = mkdtempSync(path.join(tmpdir(), "switchboard-questions-"));
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

const startAskingAgent = (server: TestServer, apiKey: string, files: { log: string; cursors: string }) =>
  startAgentProcess("asking-agent", { SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: apiKey, LOG_FILE: files.log, CURSOR_FILE: files.cursors }, children);

const lines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

describe.each(dialects)("questions to people (%s)", (dialect) => {
  let server: TestServer;
  let dana: Person; // the workspace's owner, and the agents' owner
  let bob: Person;
  let carol: Person;
  let roomId: string;

  beforeAll(async () => {
    ({
      server,
      people: { dana, bob, carol },
    } = await startWorkspace(dialect, { people: { dana: "owner", bob: "member", carol: "member" }, invite: { maxUses: 10 } }));
    const room = await dana.api.rooms.createChannel.mutate({ name: "deploys", memberIds: [bob.participantId] });
    roomId = room.id;
  });

  afterAll(async () => {
    await closeAgentClients();
    closeSockets();
    await server?.dispose();
  });

  /** The open question in the person's queue whose prompt is `prompt`. */
  async function queued(person: Person, prompt: string): Promise<QuestionForViewer> {
    let found: QuestionForViewer | undefined;
    await waitFor(
      () => found !== undefined,
      10_000,
      `"${prompt}" in @${person.handle}'s queue`,
      async () => {
        found = (await person.api.questions.list.query({ for: "me" })).find((q) => q.prompt === prompt);
      },
    );
    return found!;
  }

  it("an SDK agent asks its owner and waits; the owner's answer resolves it, is recorded on the message, and reaches the agent as an event addressed to it", async () => {
    const { id: agentId, client } = await connectedAgent(server, dana, "scout");
    await dana.api.rooms.invite.mutate({ roomId, participantIds: [agentId] });
    const { seen } = collectMessages(client);
    const danaSocket = await dana.socket();
    const updates = collect(danaSocket, "question:updated");

    const waiting = client.ask(roomId, { prompt: "Deploy v2 to production?", kind: "approval", audience: { type: "owner" } });
    const q = await queued(dana, "Deploy v2 to production?");
    expect(q).toMatchObject({
      kind: "approval",
      status: "open",
      asker: { handle: "scout" },
      audience: { type: "owner", participant: { handle: "dana" } },
      can: { answer: true, cancel: true },
    });
    expect(await dana.api.questions.openCount.query()).toBeGreaterThanOrEqual(1);
    await waitFor(() => updates.some((u) => u.question.id === q.id), 10_000, "question:updated to the owner");
    // Its status says whom it waits for, wherever people look it up.
    const scout = async () => (await bob.api.directory.search.query({ text: "scout" })).find((e) => e.handle === "scout");
    expect((await scout())?.waitingFor).toBe("@dana");
    const member = async () => (await bob.api.rooms.members.query({ roomId })).find((m) => m.participant.handle === "scout");
    expect((await member())?.waitingFor).toBe("@dana");

    await dana.api.questions.answer.mutate({ questionId: q.id, answer: { approved: true, comment: "ship it" } });
    const outcome = await waiting;
    expect(outcome).toMatchObject({ status: "answered", answer: { approved: true, comment: "ship it" }, answeredBy: { handle: "dana" } });
    expect((await scout())?.waitingFor).toBeNull();
    expect((await member())?.waitingFor).toBeNull();

    // Recorded on the question's message, for everyone who reads the room.
    const history = await bob.api.messages.history.query({ roomId });
    const card = history.messages.find((m) => m.id === q.messageId)!;
    expect(card.kind).toBe("question");
    expect((card.data as QuestionMessageData).question).toMatchObject({ status: "answered", answer: { approved: true }, answeredBy: { handle: "dana" } });
    // Announced in the room, mentioning the asker: the agent (in `mentions` mode) gets it.
    const answered = (m: MessageView) => (m.data as QuestionOutcomeData | null)?.type === "question.answered";
    await waitFor(() => seen.some((s) => answered(s.message)), 10_000, "the answer event at the agent");
    const event = seen.find((s) => answered(s.message))!.message;
    expect(event).toMatchObject({ kind: "event", author: { handle: "dana" }, mentions: [agentId], data: { questionId: q.id, answer: { approved: true } } });
    // Answered questions leave the queue.
    expect((await dana.api.questions.list.query({ for: "me" })).some((x) => x.id === q.id)).toBe(false);
  });

  it("two people answer at once: exactly one wins, the other gets CONFLICT; someone it is not for gets FORBIDDEN", async () => {
    const { client } = await connectedAgent(server, dana, "poller");
    await dana.api.rooms.invite.mutate({ roomId, participantIds: [client.me!.id] });
    const asked = await client.postQuestion(roomId, {
      prompt: "Which region first?",
      kind: "single",
      options: [
        { value: "eu", label: "Europe" },
        { value: "us", label: "United States", description: "the bigger one" },
      ],
      audience: { type: "room" },
    });
    // carol is not in the room: the room's question is not hers.
    expect(await errorCode(carol.api.questions.answer.mutate({ questionId: asked.id, answer: { choice: "eu" } }))).toBe("NOT_FOUND");
    // An agent never answers.
    expect(await errorCode(client.answerQuestion(asked.id, { choice: "eu" }))).toBe("FORBIDDEN");
    // A choice that is not an option.
    expect(await errorCode(bob.api.questions.answer.mutate({ questionId: asked.id, answer: { choice: "mars" } }))).toBe("INVALID_PAYLOAD");

    const results = await Promise.allSettled([
      dana.api.questions.answer.mutate({ questionId: asked.id, answer: { choice: "eu" } }),
      bob.api.questions.answer.mutate({ questionId: asked.id, answer: { choice: "us" } }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected")!;
    expect(await errorCode(Promise.reject((lost as PromiseRejectedResult).reason))).toBe("CONFLICT");
    const outcome = await client.waitForAnswer(asked.id);
    expect(outcome.status).toBe("answered");
    expect(["eu", "us"]).toContain((outcome.answer as { choice: string }).choice);
    // One answer event, whoever won.
    const events = (await dana.api.messages.history.query({ roomId })).messages.filter(
      (m) => (m.data as QuestionOutcomeData | null)?.questionId === asked.id && m.kind !== "question",
    );
    expect(events).toHaveLength(1);

    // A question for a named person is theirs alone.
    const forBob = await client.postQuestion(roomId, { prompt: "Bob, ok?", kind: "text", audience: { type: "person", participant: "@bob" } });
    expect(forBob.audience).toMatchObject({ type: "person", participant: { handle: "bob" } });
    expect(await errorCode(dana.api.questions.answer.mutate({ questionId: forBob.id, answer: { text: "me instead" } }))).toBe("FORBIDDEN");
    expect((await dana.api.questions.list.query({ for: "me" })).some((q) => q.id === forBob.id)).toBe(false);
    expect((await bob.api.questions.list.query({ for: "me" })).some((q) => q.id === forBob.id)).toBe(true);
    await bob.api.questions.answer.mutate({ questionId: forBob.id, answer: { text: "fine by me" } });
    expect((await client.waitForAnswer(forBob.id)).answer).toEqual({ text: "fine by me" });
  });

  it("expiry takes its decision (an approval declines by default); a late answer gets EXPIRED", async () => {
    const { client } = await connectedAgent(server, dana, "hasty");
    await dana.api.rooms.invite.mutate({ roomId, participantIds: [client.me!.id] });
    const declined = client.ask(roomId, { prompt: "Quick: drop the cache?", kind: "approval", audience: { type: "owner" }, expiresInSeconds: 1 });
    const picked = client.ask(roomId, {
      prompt: "Which build?",
      kind: "single",
      options: [
        { value: "a", label: "A" },
        { value: "b", label: "B" },
      ],
      audience: { type: "room" },
      expiresInSeconds: 1,
      onExpiry: { choice: "b" },
    });
    expect(await declined).toMatchObject({ status: "expired", answer: { approved: false }, answeredBy: null });
    expect(await picked).toMatchObject({ status: "expired", answer: { choice: "b" } });
    const q = (await client.listQuestions({ status: "all" })).find((x) => x.prompt === "Quick: drop the cache?")!;
    expect(await errorCode(dana.api.questions.answer.mutate({ questionId: q.id, answer: { approved: true } }))).toBe("EXPIRED");
    // The expiry is in the room too, as a notice.
    const notices = (await dana.api.messages.history.query({ roomId })).messages.filter(
      (m) => (m.data as QuestionOutcomeData | null)?.type === "question.expired",
    );
    expect(notices.map((n) => n.body)).toContain("Expired without an answer: Declined");
    // An onExpiry that is not an answer to the question is refused when asking.
    expect(
      await errorCode(
        client.postQuestion(roomId, { prompt: "x", kind: "approval", audience: { type: "owner" }, expiresInSeconds: 5, onExpiry: { choice: "a" } }),
      ),
    ).toBe("INVALID_PAYLOAD");
  });

  it("validates a form's answer against its fields, and the ask against its kind", async () => {
    const { client } = await connectedAgent(server, dana, "former");
    await dana.api.rooms.invite.mutate({ roomId, participantIds: [client.me!.id] });
    const asked = await client.postQuestion(roomId, {
      prompt: "Release details",
      kind: "form",
      fields: [
        { name: "version", label: "Version", type: "string", required: true, minLength: 3 },
        { name: "canary", label: "Canary %", type: "integer", min: 0, max: 100 },
        { name: "notify", label: "Notify users", type: "boolean" },
        {
          name: "channel",
          label: "Channel",
          type: "enum",
          options: [
            { value: "stable", label: "Stable" },
            { value: "beta", label: "Beta" },
          ],
          required: true,
        },
      ],
      audience: { type: "owner" },
    });
    const bad = async (values: Record<string, unknown>) => errorCode(dana.api.questions.answer.mutate({ questionId: asked.id, answer: { values } }));
    expect(await bad({ channel: "stable" })).toBe("INVALID_PAYLOAD"); // version is required
    expect(await bad({ version: "2.0", channel: "stable", canary: 5.5 })).toBe("INVALID_PAYLOAD"); // not an integer
    expect(await bad({ version: "2.0", channel: "stable", canary: 101 })).toBe("INVALID_PAYLOAD"); // above max
    expect(await bad({ version: "2.0", channel: "nightly" })).toBe("INVALID_PAYLOAD"); // not an option
    expect(await bad({ version: "2.0", channel: "stable", extra: 1 })).toBe("INVALID_PAYLOAD"); // not a field
    expect(await bad({ version: "2", channel: "stable" })).toBe("INVALID_PAYLOAD"); // too short
    await dana.api.questions.answer.mutate({ questionId: asked.id, answer: { values: { version: "2.0.1", canary: 10, notify: true, channel: "beta" } } });
    expect((await client.waitForAnswer(asked.id)).answer).toEqual({ values: { version: "2.0.1", canary: 10, notify: true, channel: "beta" } });

    // Kinds and their parts: options only for choices, fields only for forms, at least two options.
    expect(await errorCode(client.postQuestion(roomId, { prompt: "x", kind: "single", audience: { type: "room" } }))).toBe("INVALID_PAYLOAD");
    expect(
      await errorCode(
        client.postQuestion(roomId, {
          prompt: "x",
          kind: "text",
          options: [
            { value: "a", label: "A" },
            { value: "b", label: "B" },
          ],
          audience: { type: "room" },
        }),
      ),
    ).toBe("INVALID_PAYLOAD");
    expect(await errorCode(client.postQuestion(roomId, { prompt: "x", kind: "text", audience: { type: "person", participant: "@carol" } }))).toBe(
      "NOT_A_MEMBER",
    );
    expect(await errorCode(client.postQuestion(roomId, { prompt: "x", kind: "text", audience: { type: "person", participant: "@former" } }))).toBe(
      "INVALID_PAYLOAD",
    );
    // A person has no owner to ask.
    expect(await errorCode(dana.api.questions.ask.mutate({ roomId, clientMsgId: "p1", prompt: "x", kind: "text", audience: { type: "owner" } }))).toBe(
      "INVALID_PAYLOAD",
    );
  });

  it("asking is idempotent by clientMsgId; the asker (or its owner) cancels; raw sockets get the same codes", async () => {
    const { apiKey, id: agentId } = await createAgent(dana, "rawasker");
    await dana.api.rooms.invite.mutate({ roomId, participantIds: [agentId] });
    const socket = await openAgentSocket(server.url, apiKey);
    const ask = { roomId, clientMsgId: "ask-1", prompt: "Rename the repo?", kind: "text", audience: { type: "room" } };
    const first = await emitAck<{ ok: true; data: QuestionForViewer }>(socket, "question:ask", ask);
    const again = await emitAck<{ ok: true; data: QuestionForViewer }>(socket, "question:ask", ask);
    expect(again.data.id).toBe(first.data.id);
    expect(first.data.can).toEqual({ answer: false, cancel: true });
    expect(await emitAck(socket, "question:ask", { ...ask, clientMsgId: "ask-2", kind: "poll" })).toMatchObject({
      ok: false,
      error: { code: "INVALID_PAYLOAD" },
    });
    expect(await emitAck(socket, "question:answer", { questionId: first.data.id, answer: { text: "no" } })).toMatchObject({
      ok: false,
      error: { code: "FORBIDDEN" },
    });
    // bob may answer it, not cancel it; dana (the agent's owner) may cancel it.
    expect(await errorCode(bob.api.questions.cancel.mutate({ questionId: first.data.id }))).toBe("FORBIDDEN");
    expect((await bob.api.questions.get.query({ questionId: first.data.id })).can).toEqual({ answer: true, cancel: false });
    const cancelled = await dana.api.questions.cancel.mutate({ questionId: first.data.id });
    expect(cancelled.status).toBe("cancelled");
    expect(await errorCode(bob.api.questions.answer.mutate({ questionId: first.data.id, answer: { text: "late" } }))).toBe("CONFLICT");
    const got = await emitAck<{ ok: true; data: QuestionForViewer }>(socket, "question:get", { questionId: first.data.id });
    expect(got.data).toMatchObject({ status: "cancelled", answer: null });
    // carol (not in the room, not the asker) cannot see it.
    expect(await errorCode(carol.api.questions.get.query({ questionId: first.data.id }))).toBe("NOT_FOUND");
  });

  it("the Needs-you queue: a role's question reaches people with that role, oldest first, and the count follows", async () => {
    const { client } = await connectedAgent(server, dana, "roleasker");
    await dana.api.rooms.invite.mutate({ roomId, participantIds: [client.me!.id] });
    const before = await dana.api.questions.openCount.query();
    const one = await client.postQuestion(roomId, { prompt: "Admins: rotate keys?", kind: "approval", audience: { type: "role", role: "admin" } });
    const two = await client.postQuestion(roomId, { prompt: "Admins: and the tokens?", kind: "approval", audience: { type: "role", role: "admin" } });
    const queue = await dana.api.questions.list.query({ for: "me" });
    const ids = queue.map((q) => q.id);
    expect(ids.indexOf(one.id)).toBeLessThan(ids.indexOf(two.id));
    expect(await dana.api.questions.openCount.query()).toBe(before + 2);
    // bob is a member, not an admin: not his; carol neither.
    expect((await bob.api.questions.list.query({ for: "me" })).some((q) => q.id === one.id)).toBe(false);
    expect(await errorCode(bob.api.questions.answer.mutate({ questionId: one.id, answer: { approved: true } }))).toBe("FORBIDDEN");
    await dana.api.questions.answer.mutate({ questionId: one.id, answer: { approved: true } });
    await dana.api.questions.answer.mutate({ questionId: two.id, answer: { approved: false } });
    expect(await dana.api.questions.openCount.query()).toBe(before);
  });

  it("an owner makes actions wait for approval: the SDK waits, then the approved action goes through once; a declined one fails and does nothing", async () => {
    const { client, id: agentId } = await connectedAgent(server, dana, "gated");
    expect(await dana.api.agents.approvals.query({ agentId })).toEqual({ actions: [], spendUsdPerDay: null });
    await dana.api.agents.setApprovals.mutate({ agentId, actions: ["connection.request", "dm.open"] });
    expect(await errorCode(bob.api.agents.setApprovals.mutate({ agentId, actions: [] }))).toBe("FORBIDDEN");

    // Asking bob to connect waits for dana; approved, the request is made.
    const asking = client.requestConnection(bob.participantId, { message: "for the release" });
    const approval = await queued(dana, `May I ask @bob to connect ("for the release")?`);
    expect(approval).toMatchObject({
      kind: "approval",
      asker: { handle: "gated" },
      audience: { type: "owner" },
      room: { title: expect.stringContaining("Gated") },
    });
    expect(await bob.api.connections.list.query({ status: "pending" })).toMatchObject({ connections: [] });
    await dana.api.questions.answer.mutate({ questionId: approval.id, answer: { approved: true } });
    const connection = await asking;
    expect(connection).toMatchObject({ status: "pending", addressee: { handle: "bob" } });
    await bob.api.connections.respond.mutate({ connectionId: connection.id, decision: "accept" });

    // Opening a DM with bob waits too; approved, it opens, and opening it again needs nothing more.
    const opening = client.openDirect([bob.participantId]);
    const dmApproval = await queued(dana, "May I open a direct conversation with @bob?");
    await dana.api.questions.answer.mutate({ questionId: dmApproval.id, answer: { approved: true } });
    expect(await opening).toMatchObject({ kind: "dm" });
    expect((await client.openDirect([bob.participantId])).id).toBe((await opening).id);

    // A raw socket is told APPROVAL_REQUIRED with the question's id; asking again points at the same
    // question rather than asking twice; once approved, the same request goes through, once.
    const other = await createAgent(dana, "gated2");
    await dana.api.agents.setApprovals.mutate({ agentId: other.id, actions: ["connection.request"] });
    const raw = await openAgentSocket(server.url, other.apiKey);
    const request = { participantId: carol.participantId, message: "hello" };
    const refused = await emitAck<{ ok: false; error: { code: string; questionId: string } }>(raw, "connection:request", request);
    expect(refused.error).toMatchObject({ code: "APPROVAL_REQUIRED", questionId: expect.any(String) });
    const again = await emitAck<{ ok: false; error: { code: string; questionId: string } }>(raw, "connection:request", request);
    expect(again.error.questionId).toBe(refused.error.questionId);
    // Approval is for exactly that request: another message is another request.
    const different = await emitAck<{ ok: false; error: { questionId: string } }>(raw, "connection:request", { ...request, message: "hi" });
    expect(different.error.questionId).not.toBe(refused.error.questionId);
    await dana.api.questions.answer.mutate({ questionId: refused.error.questionId, answer: { approved: true } });
    expect(await emitAck(raw, "connection:request", request)).toMatchObject({ ok: true, data: { status: "pending", addressee: { handle: "carol" } } });
    await dana.api.questions.cancel.mutate({ questionId: different.error.questionId });
    await carol.api.connections.respond.mutate({
      connectionId: (await carol.api.connections.list.query({ status: "pending" })).connections[0].id,
      decision: "decline",
    });

    // Declined: the SDK fails with APPROVAL_DECLINED and nothing was requested.
    const refusedAsk = errorCode(client.requestConnection(carol.participantId));
    const second = await queued(dana, "May I ask @carol to connect?");
    await dana.api.questions.answer.mutate({ questionId: second.id, answer: { approved: false } });
    expect(await refusedAsk).toBe("APPROVAL_DECLINED");
    expect((await carol.api.connections.list.query({ status: "pending" })).connections).toEqual([]);
  });

  it("spending past the owner's daily threshold waits for approval: recorded either way; approved, it holds for the day; declined, every report that day is refused", async () => {
    const { client, id: agentId } = await connectedAgent(server, dana, "spender");
    await dana.api.agents.setApprovals.mutate({ agentId, actions: [], spendUsdPerDay: 1 });
    expect(await dana.api.agents.approvals.query({ agentId })).toEqual({ actions: [], spendUsdPerDay: 1 });
    const report = (reportId: string, costUsd: number) => client.reportUsage({ reportId, model: "test-model", inputTokens: 10, outputTokens: 10, costUsd });
    await report("s1", 0.6); // under the threshold: no question
    const waiting = report("s2", 0.6); // $1.20 today: waits
    const approval = await queued(dana, `May I spend more than $1.00 today (${new Date().toISOString().slice(0, 10)})? I have spent $1.20.`);
    expect(approval.asker.handle).toBe("spender");
    await dana.api.questions.answer.mutate({ questionId: approval.id, answer: { approved: true } });
    expect(await waiting).toMatchObject({ reportId: "s2", costUsd: 0.6 });
    await report("s3", 5); // approved for the day: no second question
    expect((await dana.api.questions.list.query({ for: "me" })).filter((q) => q.asker.handle === "spender")).toEqual([]);

    // Another agent, declined: its report is recorded, the agent is told, and so is every later one that day.
    const other = await connectedAgent(server, dana, "spender2");
    await dana.api.agents.setApprovals.mutate({ agentId: other.id, actions: [], spendUsdPerDay: 0.5 });
    const refused = errorCode(other.client.reportUsage({ reportId: "t1", model: "test-model", inputTokens: 1, outputTokens: 1, costUsd: 0.75 }));
    const second = await queued(dana, `May I spend more than $0.50 today (${new Date().toISOString().slice(0, 10)})? I have spent $0.75.`);
    await dana.api.questions.answer.mutate({ questionId: second.id, answer: { approved: false } });
    expect(await refused).toBe("APPROVAL_DECLINED");
    expect(await errorCode(other.client.reportUsage({ reportId: "t2", model: "test-model", inputTokens: 1, outputTokens: 1, costUsd: 0.1 }))).toBe(
      "APPROVAL_DECLINED",
    );
    const recorded = await dana.api.usage.overview.query({
      from: new Date().toISOString().slice(0, 10),
      to: new Date().toISOString().slice(0, 10),
      agentId: other.id,
    });
    expect(recorded.totals).toMatchObject({ calls: 2, costUsd: 0.85 });
  });

  it("an agent killed while it waits for an answer gets it after it restarts, once", async () => {
    const { apiKey, id: agentId } = await createAgent(dana, "waiter");
    await dana.api.rooms.invite.mutate({ roomId, participantIds: [agentId] });
    const files = { log: path.join(work, `${dialect}-waiter.log`), cursors: path.join(work, `${dialect}-waiter.cursors`) };
    let agent = await startAskingAgent(server, apiKey, files);
    const danaSocket = await dana.socket();
    await emitAck<{ ok: true; data: MessageView }>(danaSocket, "message:send", { roomId, body: "@waiter restart the workers", clientMsgId: "restart-1" });
    const q = await queued(dana, "May I @waiter restart the workers?");
    agent.kill("SIGKILL");
    await new Promise((resolve) => agent.once("exit", resolve));
    await dana.api.questions.answer.mutate({ questionId: q.id, answer: { approved: true } });

    agent = await startAskingAgent(server, apiKey, files);
    await waitFor(() => lines(files.log).some((l) => l.body === "@waiter restart the workers"), 15_000, "the outcome after the restart");
    await waitFor(() => lines(files.log).some((l) => l.event === "question.answered"), 15_000, "the answer event after the restart");
    const outcomes = lines(files.log).filter((l) => l.body !== undefined);
    expect(outcomes).toEqual([{ body: "@waiter restart the workers", status: "answered", answer: { approved: true }, by: "dana" }]);
    // It asked once: the restart's ask found the first question.
    const asked = (await dana.api.questions.list.query({ for: "me", status: "all" })).filter((x) => x.prompt === "May I @waiter restart the workers?");
    expect(asked).toHaveLength(1);
    agent.kill("SIGKILL");
  });
});
