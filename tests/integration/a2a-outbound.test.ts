// A remote A2A agent as a participant, end to end: a real A2A server made with the official SDK in
// this process (tests/support/scripted-a2a.ts), registered through tRPC by its card URL, then talked
// to in a DM like any agent. Its bridge runs inside the Switchboard server (bridges/a2a/outbound).
// The conversation keeps one contextId; a remote outage holds the room's messages, which all arrive
// once and in order when it is back; an INPUT_REQUIRED question is shown and a person's next message
// answers that task; artifacts and a streamed answer are shown; a bad card is refused with a code;
// the credential is stored sealed and sent as the Authorization header.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, type MessageView } from "@switchboard/sdk";
import { startScriptedA2a, type ScriptedA2a } from "../support/scripted-a2a";
import {
  apiClient,
  closeSockets,
  collect,
  dialects,
  errorCode,
  openSocket,
  queryDb,
  signUpPerson,
  startTwoProcesses,
  FAST_PASSES,
  waitFor,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

describe.each(dialects)("A2A outbound: a remote A2A agent as a participant (%s)", (dialect) => {
  let server: TestServer;
  let remote: ScriptedA2a;
  let dana: Person;
  let plain: { agentId: string; roomId: string }; // "plain": answers with sendMessage, wants a bearer token
  let streamer: { agentId: string; roomId: string }; // "streamer": its card says it streams

  /** The room's messages, oldest first. */
  async function roomMessages(roomId: string): Promise<MessageView[]> {
    const page = await dana.api.messages.history.query({ roomId, limit: 200 });
    return [...page.messages].sort((a, b) => a.seq - b.seq);
  }
  const say = (roomId: string, body: string) => dana.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID() });
  /** How many times a remote's bridge has started on the server (it says so in its log). */
  const bridgeStarts = (handle: string) => server.output().split(`a2a: running the bridge of @${handle}\n`).length - 1;
  const from = (agentId: string, messages: MessageView[]) => messages.filter((m) => m.author.id === agentId && m.kind === "text");
  /** What the remote's owner is shown of its last attempt: null while it is reachable. */
  const lastErrorOf = async (agentId: string) => (await dana.api.a2a.remotes.query()).find((r) => r.agent.id === agentId)!.lastError;

  /**
   * Waits for `n` passes of the server's bridge host: each renews the lease of a bridge it runs
   * (streamer's), and a pass starts every bridge that should run before it ends.
   */
  async function hostPasses(n: number): Promise<void> {
    const leaseOf = async () =>
      String(
        (await queryDb<{ leaseUntil: unknown }>(server, `SELECT "leaseUntil" FROM "A2aRemoteAgent" WHERE "participantId" = $1`, [streamer.agentId]))[0]
          .leaseUntil,
      );
    const seen = new Set([await leaseOf()]);
    await waitFor(
      () => seen.size > n,
      10_000,
      `${n} passes of the bridge host`,
      async () => void seen.add(await leaseOf()),
    );
  }

  async function answersIn(roomId: string, agentId: string, count: number, ms = 20_000): Promise<MessageView[]> {
    let found: MessageView[] = [];
    await waitFor(
      () => found.length >= count,
      ms,
      `${count} answers from the remote agent`,
      async () => {
        found = from(agentId, await roomMessages(roomId));
      },
    );
    return found;
  }

  beforeAll(async () => {
    remote = await startScriptedA2a({ plain: false, streamer: true, reporter: false }, { plain: "Bearer s3cret-token" });
    ({
      server,
      people: { dana },
    } = await startWorkspace(dialect, { people: { dana: "owner" }, env: { A2A_RETRY_MAX_MS: "1000", ...FAST_PASSES } }));
    const one = await dana.api.a2a.register.mutate({
      cardUrl: remote.cardUrl("plain"),
      handle: "plain",
      credential: { kind: "bearer", token: "s3cret-token" },
    });
    const two = await dana.api.a2a.register.mutate({ cardUrl: remote.cardUrl("streamer") });
    plain = { agentId: one.agent.id, roomId: (await dana.api.rooms.openDirect.mutate({ participantIds: [one.agent.id] })).id };
    streamer = { agentId: two.agent.id, roomId: (await dana.api.rooms.openDirect.mutate({ participantIds: [two.agent.id] })).id };
  }, 60_000);

  afterAll(async () => {
    closeSockets();
    await server?.dispose();
    await remote?.close();
  });

  it("registers the remote from its card: an agent dana owns, framework a2a, its skills as capabilities", async () => {
    const mine = await dana.api.a2a.remotes.query();
    expect(mine.map((r) => r.agent.handle).sort()).toEqual(["plain", "streamer"]);
    const two = mine.find((r) => r.agent.handle === "streamer")!;
    expect(two).toMatchObject({ cardUrl: remote.cardUrl("streamer"), enabled: true, credential: null, card: { name: "streamer", streaming: true } });
    expect(two.agent).toMatchObject({
      framework: "a2a",
      capabilities: ["echo"],
      description: "The scripted streamer agent",
      owner: { id: dana.participantId },
    });
    expect(mine.find((r) => r.agent.handle === "plain")!.credential).toEqual({ kind: "bearer", header: "Authorization" });
  });

  it("the talk's first demo with an A2A agent: registered and introduced, accepted in the inbox, invited to a room, asked, and it reports back", async () => {
    const { token } = await dana.api.workspace.createInvite.mutate({ maxUses: 1 });
    const bea = await signUpPerson(server, { handle: "bea", inviteToken: token });
    // Bea registers a remote A2A agent, and it asks Dana to connect.
    const reporter = await bea.api.a2a.register.mutate({
      cardUrl: remote.cardUrl("reporter"),
      handle: "reporter",
      introduceTo: { participantIds: [dana.participantId], message: "I report on builds, over A2A." },
    });
    expect(reporter.agent.owner?.id).toBe(bea.participantId);
    const { connections: pending } = await dana.api.connections.list.query({ status: "pending" });
    const request = pending.find((c) => c.requester.id === reporter.agent.id)!;
    expect(request).toMatchObject({ message: "I report on builds, over A2A.", addressee: { id: dana.participantId } });
    // Until Dana accepts, she cannot bring it into her room.
    const room = await dana.api.rooms.createChannel.mutate({ name: `builds-${dialect}`, memberIds: [] });
    expect(await errorCode(dana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [reporter.agent.id] }))).toBe("NOT_CONNECTED");
    await dana.api.connections.respond.mutate({ connectionId: request.id, decision: "accept" });
    await dana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [reporter.agent.id] });
    // Asked in the room, it reports back there: its answer and its artifact.
    await say(room.id, "report on the nightly build @reporter");
    const [answer] = await answersIn(room.id, reporter.agent.id, 1);
    expect(answer.body).toContain("report.md");
    expect(answer.body).toContain("All green.");
    expect(remote.received.filter((r) => r.agent === "reporter").map((r) => r.text)).toEqual(["@dana: report on the nightly build @reporter"]);
    // An unknown participant to introduce it to is refused before anything is made.
    expect(
      await errorCode(bea.api.a2a.register.mutate({ cardUrl: remote.cardUrl("reporter"), handle: "nobody-knows", introduceTo: { participantIds: ["nope"] } })),
    ).toBe("PARTICIPANT_NOT_FOUND");
  });

  it("refuses a card URL where no agent card is, with A2A_CARD_INVALID", async () => {
    expect(await errorCode(dana.api.a2a.register.mutate({ cardUrl: `http://127.0.0.1:${remote.port}/nobody/.well-known/agent-card.json` }))).toBe(
      "A2A_CARD_INVALID",
    );
    expect(await errorCode(dana.api.a2a.register.mutate({ cardUrl: "http://127.0.0.1:1/" }))).toBe("A2A_CARD_INVALID");
  });

  it("keeps the credential and the bridge's key sealed in the database, and sends the credential as the Authorization header", async () => {
    const rows = await queryDb<{ credential: string; apiKey: string }>(
      server,
      `SELECT "credential", "apiKey" FROM "A2aRemoteAgent" WHERE "participantId" = $1`,
      [plain.agentId],
    );
    expect(rows[0].credential).toMatch(/^v1:/);
    expect(rows[0].credential).not.toContain("s3cret");
    expect(rows[0].apiKey).toMatch(/^v1:/);
    expect(rows[0].apiKey).not.toContain("sb_");
    await say(plain.roomId, "hello there");
    const [answer] = await answersIn(plain.roomId, plain.agentId, 1);
    expect(answer.body).toBe("echo: hello there");
    expect(remote.received.filter((r) => r.agent === "plain").map((r) => r.authorization)).toEqual(["Bearer s3cret-token"]);
  });

  it("keeps one A2A conversation per room: the second message carries the first's contextId", async () => {
    await say(plain.roomId, "second");
    await answersIn(plain.roomId, plain.agentId, 2);
    const seen = remote.received.filter((r) => r.agent === "plain");
    expect(seen.map((r) => r.text)).toEqual(["@dana: hello there", "@dana: second"]);
    expect(seen[1].contextId).toBe(seen[0].contextId);
    const bindings = await queryDb<{ externalId: string; runtime: string }>(
      server,
      `SELECT "externalId", "runtime" FROM "RuntimeBinding" WHERE "agentId" = $1`,
      [plain.agentId],
    );
    expect(bindings).toEqual([{ externalId: seen[0].contextId, runtime: "a2a" }]);
  });

  it("holds the room's messages through a remote outage: all 20 arrive once, in order, and are answered", async () => {
    const before = remote.received.length;
    const answered = from(plain.agentId, await roomMessages(plain.roomId)).length;
    await remote.stop();
    for (let i = 1; i <= 20; i++) await say(plain.roomId, `m${i}`);
    // While it is down: nothing lost, nothing answered, and its owner sees why.
    let lastError: string | null = null;
    await waitFor(
      () => lastError !== null,
      10_000,
      "the outage recorded",
      async () => {
        lastError = (await dana.api.a2a.remotes.query()).find((r) => r.agent.id === plain.agentId)!.lastError;
      },
    );
    expect(from(plain.agentId, await roomMessages(plain.roomId))).toHaveLength(answered);
    await remote.start();
    const answers = await answersIn(plain.roomId, plain.agentId, answered + 20, 60_000);
    const got = remote.received.slice(before).filter((r) => r.agent === "plain");
    expect(got.map((r) => r.text)).toEqual(Array.from({ length: 20 }, (_, i) => `@dana: m${i + 1}`));
    expect(answers.slice(answered).map((m) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `echo: m${i + 1}`));
    await waitFor(
      () => lastError === null,
      10_000,
      "the outage cleared",
      async () => {
        lastError = (await dana.api.a2a.remotes.query()).find((r) => r.agent.id === plain.agentId)!.lastError;
      },
    );
  }, 90_000);

  it("shows the delivery state: each message the remote answered is processed by the agent", async () => {
    const mine = (await roomMessages(plain.roomId)).filter((m) => m.author.id === dana.participantId);
    let states: (string | undefined)[] = [];
    await waitFor(
      () => states.every((s) => s === "processed"),
      10_000,
      "processed receipts",
      async () => {
        states = (await roomMessages(plain.roomId))
          .filter((m) => mine.some((x) => x.id === m.id))
          .map((m) => m.receipts.find((r) => r.participantId === plain.agentId)?.state);
      },
    );
    expect(states).toHaveLength(22);
  });

  it("loses nothing when the server restarts during an outage: the turn left unfinished runs again, once", async () => {
    const before = remote.received.length;
    const answered = from(plain.agentId, await roomMessages(plain.roomId)).length;
    await remote.stop();
    for (const body of ["r1", "r2", "r3"]) await say(plain.roomId, body);
    let lastError: string | null = null;
    await waitFor(
      () => lastError !== null,
      10_000,
      "the bridge retrying r1",
      async () => void (lastError = await lastErrorOf(plain.agentId)),
    );
    await server.restart();
    await remote.start();
    const answers = await answersIn(plain.roomId, plain.agentId, answered + 3, 30_000);
    expect(remote.received.slice(before).map((r) => r.text)).toEqual(["@dana: r1", "@dana: r2", "@dana: r3"]);
    expect(answers.slice(answered).map((m) => m.body)).toEqual(["echo: r1", "echo: r2", "echo: r3"]);
  }, 60_000);

  it("turned off, its bridge stops and what is sent waits; turned on again, it is delivered", async () => {
    const answered = from(plain.agentId, await roomMessages(plain.roomId)).length;
    const before = remote.received.length;
    let running = true;
    await dana.api.a2a.setEnabled.mutate({ agentId: plain.agentId, enabled: false });
    await waitFor(
      () => !running,
      10_000,
      "the bridge stopped",
      async () => {
        running = (await dana.api.a2a.remotes.query()).find((r) => r.agent.id === plain.agentId)!.running;
      },
    );
    const starts = bridgeStarts("plain");
    await say(plain.roomId, "while off");
    // A bridge that should not run would be started by a pass, and then send it: two passes later,
    // neither happened.
    await hostPasses(2);
    expect(bridgeStarts("plain")).toBe(starts);
    expect(remote.received.length).toBe(before);
    await dana.api.a2a.setEnabled.mutate({ agentId: plain.agentId, enabled: true });
    const answers = await answersIn(plain.roomId, plain.agentId, answered + 1);
    expect(answers.at(-1)!.body).toBe("echo: while off");
    expect(remote.received.slice(before).map((r) => r.text)).toEqual(["@dana: while off"]);
  });

  it("shows an INPUT_REQUIRED question in the room, and dana's next message answers that task", async () => {
    const answered = from(plain.agentId, await roomMessages(plain.roomId)).length;
    await say(plain.roomId, "ask me something");
    const asked = await answersIn(plain.roomId, plain.agentId, answered + 1);
    expect(asked.at(-1)!.body).toBe("Which colour?");
    const question = remote.received.at(-1)!;
    await say(plain.roomId, "blue");
    const done = await answersIn(plain.roomId, plain.agentId, answered + 2);
    expect(done.at(-1)!.body).toBe("noted: blue");
    const reply = remote.received.at(-1)!;
    expect(reply).toMatchObject({ text: "@dana: blue", taskId: question.taskId, contextId: question.contextId, continuesTask: true });
  });

  it("answers a question whose task the remote has forgotten by starting a new task", async () => {
    const answered = from(plain.agentId, await roomMessages(plain.roomId)).length;
    await say(plain.roomId, "ask again");
    expect((await answersIn(plain.roomId, plain.agentId, answered + 1)).at(-1)!.body).toBe("Which colour?");
    const question = remote.received.at(-1)!;
    remote.forgetTasks();
    await say(plain.roomId, "red");
    expect((await answersIn(plain.roomId, plain.agentId, answered + 2)).at(-1)!.body).toBe("echo: red");
    expect(remote.received.at(-1)).toMatchObject({ text: "@dana: red", continuesTask: false, contextId: question.contextId });
    expect(remote.received.at(-1)!.taskId).not.toBe(question.taskId);
  });

  it("cuts an answer longer than a message holds, and says so", async () => {
    const answered = from(plain.agentId, await roomMessages(plain.roomId)).length;
    await say(plain.roomId, "long answer please");
    const long = (await answersIn(plain.roomId, plain.agentId, answered + 1)).at(-1)!;
    expect(Buffer.byteLength(long.body)).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(long.body).toMatch(/^é+\n\n_\(the rest of the remote agent's answer is longer than a message holds\)_$/);
  });

  it("gives the bridge a key of its own again when its owner rotates the agent's keys", async () => {
    const answered = from(plain.agentId, await roomMessages(plain.roomId)).length;
    await dana.api.agents.rotateKey.mutate({ agentId: plain.agentId });
    await say(plain.roomId, "after the rotation");
    const answers = await answersIn(plain.roomId, plain.agentId, answered + 1, 30_000);
    expect(answers.at(-1)!.body).toBe("echo: after the rotation");
    const keys = await queryDb<{ label: string; revokedAt: unknown }>(
      server,
      `SELECT "label", "revokedAt" FROM "ApiKey" WHERE "participantId" = $1 AND "revokedAt" IS NULL`,
      [plain.agentId],
    );
    expect(keys.map((k) => k.label).sort()).toEqual(["a2a bridge", "rotated"]);
  }, 45_000);

  it("shows artifacts, and streams an answer into one message edited as it grows", async () => {
    await say(streamer.roomId, "report please");
    const [report] = await answersIn(streamer.roomId, streamer.agentId, 1);
    expect(report.body).toBe("done\n\n**report.md**\n# Report\nAll green.");
    await say(streamer.roomId, "story time");
    let story: MessageView | undefined;
    await waitFor(
      () => story?.body === "Once upon a time.",
      20_000,
      "the whole story",
      async () => {
        story = from(streamer.agentId, await roomMessages(streamer.roomId))[1];
      },
    );
    // One message, edited while the remote streamed it.
    expect(from(streamer.agentId, await roomMessages(streamer.roomId))).toHaveLength(2);
    expect(story!.editedAt).not.toBeNull();
  });

  it("shows the remote's task live under the message, and a Stop cancels it on the remote (A2A CancelTask)", async () => {
    const asked = await say(streamer.roomId, "slow down and think");
    let turn: Awaited<ReturnType<typeof dana.api.turns.forRoom.query>>["turns"][number] | undefined;
    const refresh = async () => void (turn = (await dana.api.turns.forRoom.query({ roomId: streamer.roomId })).turns.find((t) => t.messageId === asked.id));
    await waitFor(() => turn?.steps.some((s) => s.title === "The remote's task: working") === true, 20_000, "the remote working, live", refresh);
    expect(turn).toMatchObject({ state: "running", runtime: "a2a" });
    await dana.api.turns.stop.mutate({ turnId: turn!.id });
    await waitFor(() => turn?.state === "stopped", 20_000, "the turn stopped", refresh);
    const taskId = remote.received.findLast((r) => r.agent === "streamer")!.taskId;
    await waitFor(() => remote.canceled.includes(taskId), 10_000, "the remote's task canceled");
  });

  it("waits while the remote refuses the credential, and delivers once its owner enters the right one", async () => {
    const answered = from(plain.agentId, await roomMessages(plain.roomId)).length;
    const before = remote.received.length;
    const restarts = bridgeStarts("plain");
    await dana.api.a2a.updateCredential.mutate({ agentId: plain.agentId, credential: { kind: "bearer", token: "expired" } });
    await waitFor(() => bridgeStarts("plain") > restarts, 10_000, "the bridge restarted with the credential the remote refuses");
    await say(plain.roomId, "locked out");
    let lastError: string | null = null;
    await waitFor(
      () => lastError?.includes("401") === true,
      10_000,
      "the refusal shown to its owner",
      async () => {
        lastError = (await dana.api.a2a.remotes.query()).find((r) => r.agent.id === plain.agentId)!.lastError;
      },
    );
    expect(remote.received.length).toBe(before);
    await dana.api.a2a.updateCredential.mutate({ agentId: plain.agentId, credential: { kind: "bearer", token: "s3cret-token" } });
    const answers = await answersIn(plain.roomId, plain.agentId, answered + 1, 30_000);
    expect(answers.at(-1)!.body).toBe("echo: locked out");
    expect(remote.received.slice(before)).toMatchObject([{ text: "@dana: locked out", authorization: "Bearer s3cret-token" }]);
  }, 45_000);

  it("is reached by others only with its owner's consent, like any agent: in a channel, by a mention", async () => {
    const fay = await signUpPerson(server, { handle: "fay", inviteToken: (await dana.api.workspace.createInvite.mutate({})).token });
    expect(await errorCode(fay.api.rooms.openDirect.mutate({ participantIds: [plain.agentId] }))).toBe("NOT_CONNECTED");
    const asked = await fay.api.connections.request.mutate({ participantId: plain.agentId, message: "questions for your remote agent" });
    await dana.api.connections.respond.mutate({ connectionId: asked.id, decision: "accept" });
    const room = await dana.api.rooms.createChannel.mutate({ name: `remote-${dialect}`, visibility: "private", memberIds: [plain.agentId, fay.participantId] });
    const before = remote.received.length;
    await fay.api.messages.send.mutate({ roomId: room.id, body: "not for the agent", clientMsgId: randomUUID() });
    await fay.api.messages.send.mutate({ roomId: room.id, body: "@plain hello from fay", clientMsgId: randomUUID() });
    const [answer] = await answersIn(room.id, plain.agentId, 1);
    expect(answer.body).toBe("echo: @plain hello from fay");
    // Handed what it had not seen in that conversation, in a new A2A conversation of its own.
    const got = remote.received.slice(before);
    expect(got.map((r) => r.text)).toEqual(["@fay: not for the agent\n@fay: @plain hello from fay"]);
    expect(remote.received.slice(0, before).map((r) => r.contextId)).not.toContain(got[0].contextId);
    const binding = await queryDb<{ externalId: string }>(server, `SELECT "externalId" FROM "RuntimeBinding" WHERE "roomId" = $1`, [room.id]);
    expect(binding).toEqual([{ externalId: got[0].contextId }]);
  }, 30_000);

  it("lets only its owner (or an admin) manage it: a new credential is sent from then on; removed, it is suspended; all audited", async () => {
    const erin = await signUpPerson(server, { handle: "erin", inviteToken: (await dana.api.workspace.createInvite.mutate({})).token });
    expect(await errorCode(erin.api.a2a.setEnabled.mutate({ agentId: streamer.agentId, enabled: false }))).toBe("FORBIDDEN");
    expect(await erin.api.a2a.remotes.query()).toEqual([]);

    const restarts = bridgeStarts("streamer");
    await dana.api.a2a.updateCredential.mutate({ agentId: streamer.agentId, credential: { kind: "header", header: "X-API-Key", value: "k-123" } });
    await waitFor(() => bridgeStarts("streamer") > restarts, 10_000, "the bridge restarted with the new credential");
    const before = remote.received.length;
    const answered = from(streamer.agentId, await roomMessages(streamer.roomId)).length;
    await say(streamer.roomId, "with a key now");
    await answersIn(streamer.roomId, streamer.agentId, answered + 1, 30_000);
    expect(remote.received.slice(before)).toMatchObject([{ text: "@dana: with a key now", apiKey: "k-123", authorization: null }]);

    // Removed: suspended through the kill switch, so the workspace is told (and audited) as for any other.
    const updates = collect(await openSocket(server.url, dana.cookie), "participant:updated");
    await dana.api.a2a.remove.mutate({ agentId: streamer.agentId });
    expect((await dana.api.a2a.remotes.query()).map((r) => r.agent.id)).not.toContain(streamer.agentId);
    expect((await dana.api.agents.get.query({ agentId: streamer.agentId })).status).toBe("suspended");
    await waitFor(() => updates.some((u) => u.participant.id === streamer.agentId && u.participant.status === "suspended"), 10_000, "told of the suspension");
    const audit = await queryDb<{ action: string }>(
      server,
      `SELECT action FROM "AuditEvent" WHERE "subjectId" = $1 AND (action LIKE 'a2a_remote.%' OR action LIKE 'agent.%') ORDER BY seq`,
      [streamer.agentId],
    );
    expect(audit.map((a) => a.action)).toEqual(["a2a_remote.registered", "agent.created", "a2a_remote.credential", "a2a_remote.removed", "agent.suspended"]);
  }, 45_000);
});

describe.runIf(dialects.includes("postgresql"))("A2A outbound on two server processes", () => {
  let a: TestServer;
  let b: TestServer;
  let remote: ScriptedA2a;
  let dana: Person;

  beforeAll(async () => {
    remote = await startScriptedA2a({ twin: false });
    [a, b] = await startTwoProcesses({ A2A_RETRY_MAX_MS: "1000", ...FAST_PASSES });
    dana = await signUpPerson(a, { handle: "dana" });
  }, 60_000);
  afterAll(async () => {
    await b?.dispose();
    await a?.dispose();
    await remote?.close();
  });

  it("runs a remote's bridge on one process at a time; when that one stops, the other takes it over", async () => {
    const { agent } = await dana.api.a2a.register.mutate({ cardUrl: remote.cardUrl("twin") });
    const roomId = (await dana.api.rooms.openDirect.mutate({ participantIds: [agent.id] })).id;
    const say = (body: string) => dana.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID() });
    const answers = async (n: number) => {
      let found: MessageView[] = [];
      await waitFor(
        () => found.length >= n,
        20_000,
        `${n} answers`,
        async () => {
          found = (await dana.api.messages.history.query({ roomId, limit: 200 })).messages.filter((m) => m.author.id === agent.id);
        },
      );
    };
    for (let i = 1; i <= 5; i++) await say(`t${i}`);
    await answers(5);
    const running = whichRuns(a, b, agent.handle);
    const other = running === a ? b : a;
    expect(other.output()).not.toContain(`a2a: running the bridge of @${agent.handle}`);
    // The process running it stops; the other picks it up.
    await running.stop();
    dana = { ...dana, api: apiClient(other.url, dana.cookie) };
    for (let i = 6; i <= 8; i++) await say(`t${i}`);
    await answers(8);
    expect(remote.received.map((r) => r.text)).toEqual(Array.from({ length: 8 }, (_, i) => `@dana: t${i + 1}`));
  }, 90_000);
});

/** The process running the remote's bridge (it says so in its log). */
function whichRuns(a: TestServer, b: TestServer, handle: string): TestServer {
  return a.output().includes(`a2a: running the bridge of @${handle}`) ? a : b;
}
