// The work board end to end on the real server: agents report a status kept alive by a heartbeat (and
// cleared by the server when it stops), their tasks, the files they touch and what they shipped, over
// the socket, the SDK and the platform tools; people read the board through tRPC, each seeing what
// the policy lets them; the component map files paths; two agents on one file are flagged.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Agent, SwitchboardClient, type Ack } from "@switchboard/sdk";
import { generic } from "@switchboard/sdk/adapters/generic";
import type { FileTouchView, TaskView, WorkLinkView, WorkStatusView } from "@switchboard/sdk/work";
import {
  closeAgentClients,
  closeSockets,
  collect,
  createAgent,
  dialects,
  emitAck,
  errorCode,
  openAgentSocket,
  queryDb,
  unwrap,
  waitFor,
  type ClientSocket,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

const codeOf = <T>(reply: Ack<T>): string => (reply.ok ? "ok" : reply.error.code);

describe.each(dialects)("the work board (%s)", (dialect) => {
  let server: TestServer;
  let dana: Person; // owner of the workspace and of the agents
  let erin: Person; // a member outside the agents' private room
  let fay: Person; // a member of the private room

  beforeAll(async () => {
    ({
      server,
      people: { dana, erin, fay },
    } = await startWorkspace(dialect, { people: { dana: "owner", erin: "member", fay: "member" }, invite: { maxUses: 10 } }));
  });
  afterEach(async () => {
    closeSockets();
    await closeAgentClients();
  });
  afterAll(() => server?.dispose());

  async function agentIn(handle: string, roomId?: string) {
    const agent = await createAgent(dana, handle, { framework: "claude-code" });
    if (roomId) await dana.api.rooms.invite.mutate({ roomId, participantIds: [agent.id] });
    const socket = await openAgentSocket(server.url, agent.apiKey);
    return { ...agent, socket };
  }

  const board = (who: Person) => who.api.work.board.query({ sinceHours: 24 });
  const workOf = async (who: Person, agentId: string) => (await board(who)).agents.find((a) => a.agent.id === agentId)!;

  it("an agent's status reaches everyone live, a heartbeat keeps it and the server clears it within the TTL once it stops", async () => {
    const bot = await agentIn(`status-${dialect}`);
    const watcher = await erin.socket();
    const updates = collect(watcher, "status:updated");
    const set = unwrap(
      await emitAck<Ack<WorkStatusView>>(bot.socket, "work:status", {
        state: "waiting",
        text: "Need the staging password",
        waitingFor: dana.participantId,
        ttlSec: 5,
      }),
    );
    expect(set).toMatchObject({ state: "waiting", text: "Need the staging password", waitingFor: { id: dana.participantId, handle: "dana" } });
    expect(Date.parse(set.until!) - Date.parse(set.since!)).toBe(5000);
    await waitFor(() => updates.some((u) => u.status.participantId === bot.id && u.status.state === "waiting"), 5000, "the waiting status, live");

    // A heartbeat (the same status again), once the clock has moved on, keeps `since` and moves `until`.
    await waitFor(() => Date.now() > Date.parse(set.since!) + 1, 1000, "the clock past the status's start");
    const again = unwrap(
      await emitAck<Ack<WorkStatusView>>(bot.socket, "work:status", {
        state: "waiting",
        text: "Need the staging password",
        waitingFor: dana.participantId,
        ttlSec: 5,
      }),
    );
    expect(again.since).toBe(set.since);
    expect(Date.parse(again.until!)).toBeGreaterThan(Date.parse(set.until!));

    // It stops: within the TTL (and a sweep) everyone is told it is idle, and the board reads idle.
    await waitFor(() => updates.some((u) => u.status.participantId === bot.id && u.status.state === "idle"), 12_000, "the expired status cleared, live");
    expect((await workOf(erin, bot.id)).status).toMatchObject({ state: "idle", waitingFor: null });
    const [row] = await queryDb<{ workState: string }>(server, `SELECT "workState" FROM "Participant" WHERE "id" = $1`, [bot.id]);
    expect(row.workState).toBe("idle");
  });

  it("refuses a status it cannot keep: waitingFor without waiting, someone unknown, a bad state", async () => {
    const bot = await agentIn(`badstatus-${dialect}`);
    expect(codeOf(await emitAck(bot.socket, "work:status", { state: "working", waitingFor: dana.participantId }))).toBe("INVALID_PAYLOAD");
    expect(codeOf(await emitAck(bot.socket, "work:status", { state: "waiting", waitingFor: "nobody-at-all" }))).toBe("PARTICIPANT_NOT_FOUND");
    expect(codeOf(await emitAck(bot.socket, "work:status", { state: "asleep" }))).toBe("INVALID_PAYLOAD");
    expect(codeOf(await emitAck(bot.socket, "work:status", { state: "working", ttlSec: 1 }))).toBe("INVALID_PAYLOAD");
    expect((await workOf(dana, bot.id)).status.state).toBe("idle");
  });

  // The client's timer, not the database, is under test here (the server's side is above): one dialect.
  it.runIf(dialect === "sqlite")("an SDK agent's status is kept alive by the client's heartbeat past its TTL, and set idle when it closes", async () => {
    const made = await createAgent(dana, `beat-${dialect}`);
    const client = new SwitchboardClient({ url: server.url, apiKey: made.apiKey });
    await client.connect();
    const first = await client.setWorkStatus({ state: "working", text: "Refactoring the exporter", ttlSec: 5 });
    // Past the TTL it was first set for (and a sweep after it): only the heartbeat keeps it.
    await waitFor(() => Date.now() > Date.parse(first.until!) + 200, 10_000, "past the first TTL");
    expect((await workOf(dana, made.id)).status).toMatchObject({ state: "working", text: "Refactoring the exporter" });
    await client.close();
    expect((await workOf(dana, made.id)).status.state).toBe("idle");
  });

  it("an Agent is working while a turn runs and idle after it; what its adapter reports lands on the turn's binding", async () => {
    const made = await createAgent(dana, `runner-${dialect}`);
    const room = await dana.api.rooms.createChannel.mutate({ name: `runner-${dialect}`, visibility: "private", memberIds: [made.id] });
    const statuses = collect(await dana.socket(), "status:updated");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const agent = Agent.create({
      url: server.url,
      apiKey: made.apiKey,
      handleSignals: false,
      adapter: generic(async (input) => {
        await input.work.tasks([
          { title: "Read the question", status: "completed" },
          { title: "Answer it", status: "in_progress" },
        ]);
        await input.work.files([{ path: "docs/faq.md", operation: "read" }]);
        await held;
        return "Done";
      }),
    });
    await agent.start();
    try {
      await dana.api.messages.send.mutate({ roomId: room.id, body: `@runner-${dialect} what is new?`, clientMsgId: randomUUID() });
      await waitFor(() => statuses.some((u) => u.status.participantId === made.id && u.status.state === "working"), 10_000, "working during the turn");
      expect(statuses.find((u) => u.status.participantId === made.id)?.status.text).toBe(`Answering @dana in #runner-${dialect}`);
      let during = await workOf(dana, made.id);
      await waitFor(
        () => during.tasks.length === 2 && during.files.length === 1,
        10_000,
        "the turn's reports",
        async () => void (during = await workOf(dana, made.id)),
      );
      expect(during.status.state).toBe("working");
      expect(during.tasks.map((t) => [t.title, t.status])).toEqual([
        ["Answer it", "in_progress"],
        ["Read the question", "completed"],
      ]);
      const [binding] = await dana.api.bindings.ofRoom.query({ roomId: room.id, includeClosed: false });
      expect(during.tasks[0]).toMatchObject({ roomId: room.id, bindingId: binding.id, sessionId: binding.externalId });
      expect(during.files.map((f) => f.path)).toEqual(["docs/faq.md"]);
      release();
      await waitFor(() => statuses.filter((u) => u.status.participantId === made.id).at(-1)?.status.state === "idle", 10_000, "idle after the turn");
    } finally {
      release();
      await agent.stop();
    }
  });

  it("tasks: made and updated by key in order, nested, the ones a whole list leaves out dropped; people cannot report them", async () => {
    const room = await dana.api.rooms.createChannel.mutate({ name: `tasks-${dialect}`, visibility: "private", memberIds: [] });
    const bot = await agentIn(`tasker-${dialect}`, room.id);
    const report = (tasks: unknown[], extra: Record<string, unknown> = {}) =>
      emitAck<Ack<{ tasks: TaskView[]; dropped: number }>>(bot.socket, "work:tasks", { sessionId: "s-1", roomId: room.id, tasks, ...extra });

    const first = unwrap(
      await report([
        { title: "Add the CSV endpoint", status: "in_progress" },
        { key: "tests", title: "Write tests" },
        { title: "Cover empty ranges", parentKey: "tests" },
      ]),
    );
    expect(first.tasks.map((t) => [t.key, t.status, t.position])).toEqual([
      ["add the csv endpoint", "in_progress", 0],
      ["tests", "pending", 1],
      ["cover empty ranges", "pending", 2],
    ]);
    expect(first.tasks[2].parentId).toBe(first.tasks[1].id);
    expect(first.tasks[0]).toMatchObject({ roomId: room.id, sessionId: "s-1" });
    expect(first.tasks[0].startedAt).not.toBeNull();

    // A todo tool's next list: one done, one gone, one new. Same ids for the same keys.
    const second = unwrap(
      await report([
        { title: "Add the CSV endpoint", status: "completed" },
        { key: "tests", title: "Write tests", status: "in_progress" },
        { title: "Update the docs" },
      ]),
    );
    expect(second.dropped).toBe(1);
    expect(second.tasks[0]).toMatchObject({ id: first.tasks[0].id, status: "completed" });
    expect(second.tasks[0].completedAt).not.toBeNull();
    const mine = (await workOf(dana, bot.id)).tasks;
    expect(mine.find((t) => t.key === "cover empty ranges")?.status).toBe("dropped");
    expect((await workOf(dana, bot.id)).progress).toEqual({ completed: 1, total: 3 });

    // Partial report (complete: false) drops nothing.
    expect(unwrap(await report([{ title: "Update the docs", status: "in_progress" }], { complete: false })).dropped).toBe(0);

    // Bad reports store nothing.
    const before = await queryDb<{ n: number }>(server, `SELECT COUNT(*) AS "n" FROM "WorkTask" WHERE "agentId" = $1`, [bot.id]);
    expect(codeOf(await report([{ title: "Same" }, { title: "same" }]))).toBe("INVALID_PAYLOAD");
    expect(codeOf(await report([{ title: "Orphan", parentKey: "nowhere" }]))).toBe("INVALID_PAYLOAD");
    expect(codeOf(await report([{ title: "" }]))).toBe("INVALID_PAYLOAD");
    expect(codeOf(await report([{ title: "x", status: "finished" }]))).toBe("INVALID_PAYLOAD");
    const other = await dana.api.rooms.createChannel.mutate({ name: `elsewhere-${dialect}`, visibility: "private", memberIds: [] });
    expect(codeOf(await report([{ title: "In a room I am not in" }], { roomId: other.id }))).toBe("ROOM_NOT_FOUND"); // private: not even there
    const after = await queryDb<{ n: number }>(server, `SELECT COUNT(*) AS "n" FROM "WorkTask" WHERE "agentId" = $1`, [bot.id]);
    expect(Number(after[0].n)).toBe(Number(before[0].n));

    const person = await dana.socket();
    expect(codeOf(await emitAck(person, "work:tasks", { tasks: [{ title: "Mine" }] }))).toBe("FORBIDDEN");
  });

  it("a session id one of the agent's bindings carries ties the report to that binding's room and thread", async () => {
    const room = await dana.api.rooms.createChannel.mutate({ name: `bound-${dialect}`, visibility: "private", memberIds: [] });
    const bot = await agentIn(`bound-${dialect}`, room.id);
    const holder = randomUUID();
    const claimed = unwrap(
      await emitAck<Ack<{ id: string; generation: number }>>(bot.socket, "binding:claim", { roomId: room.id, runtime: "claude-agent-sdk", holder }),
    );
    unwrap(
      await emitAck(bot.socket, "binding:update", {
        bindingId: claimed.id,
        holder,
        generation: claimed.generation,
        externalId: "claude-session-7",
        release: true,
      }),
    );
    const { tasks } = unwrap(
      await emitAck<Ack<{ tasks: TaskView[] }>>(bot.socket, "work:tasks", { sessionId: "claude-session-7", tasks: [{ title: "Bound work" }] }),
    );
    expect(tasks[0]).toMatchObject({ roomId: room.id, bindingId: claimed.id, sessionId: "claude-session-7" });
    const { files } = unwrap(
      await emitAck<Ack<{ files: FileTouchView[] }>>(bot.socket, "work:files", { bindingId: claimed.id, files: [{ path: "server/a.ts", operation: "edit" }] }),
    );
    expect(files[0]).toMatchObject({ roomId: room.id, sessionId: "claude-session-7" });
    expect(codeOf(await emitAck(bot.socket, "work:files", { bindingId: "not-a-binding", files: [{ path: "a", operation: "edit" }] }))).toBe("NOT_FOUND");
  });

  it("files map to components (top folders by default, then the admins' map, applied to history too), and links tie what shipped", async () => {
    const room = await dana.api.rooms.createChannel.mutate({ name: `files-${dialect}`, visibility: "private", memberIds: [] });
    const bot = await agentIn(`filer-${dialect}`, room.id);
    // What a report stored, to those who may read it: the room's members, the agent's owner, the admins.
    const changes = collect(await dana.socket(), "work:changed");
    const overheard = collect(await erin.socket(), "work:changed");
    unwrap(await emitAck(bot.socket, "work:tasks", { sessionId: "f-1", roomId: room.id, tasks: [{ key: "export", title: "Export usage" }] }));
    const { files } = unwrap(
      await emitAck<Ack<{ files: FileTouchView[] }>>(bot.socket, "work:files", {
        sessionId: "f-1",
        roomId: room.id,
        taskKey: "export",
        branch: "feat/export",
        files: [
          { path: "./server/services/usage/usage.ts", operation: "edit", linesAdded: 40, linesRemoved: 2 },
          { path: "components/usage/chart.tsx", operation: "create", linesAdded: 120 },
          { path: "README.md", operation: "read" },
          { path: "npm test -- usage", operation: "run" },
        ],
      }),
    );
    expect(files.map((f) => [f.path, f.component])).toEqual([
      ["server/services/usage/usage.ts", "server"],
      ["components/usage/chart.tsx", "components"],
      ["README.md", "(root)"],
      ["npm test -- usage", null],
    ]);
    expect(files[0]).toMatchObject({ branch: "feat/export", linesAdded: 40 });
    expect(files[0].taskId).not.toBeNull();
    await waitFor(() => changes.some((c) => c.agentId === bot.id && c.what === "files"), 5000, "work:changed");
    expect(changes.find((c) => c.what === "tasks")).toMatchObject({ agentId: bot.id, roomId: room.id, tasks: [expect.objectContaining({ key: "export" })] });
    expect(changes.find((c) => c.what === "files")).toMatchObject({ roomId: room.id, files });
    expect(overheard.filter((c) => c.agentId === bot.id)).toEqual([]); // erin is not in the room

    // Only admins edit the map; a bad glob is refused.
    expect(await errorCode(erin.api.work.setComponents.mutate({ components: [{ name: "Services", patterns: ["server/services/**"] }] }))).toBe("FORBIDDEN");
    expect(
      await errorCode(
        dana.api.work.setComponents.mutate({
          components: [
            { name: "A", patterns: ["a/**"] },
            { name: "a", patterns: ["b/**"] },
          ],
        }),
      ),
    ).toBe("INVALID_PAYLOAD");
    // Before saving, admins preview a draft against the files agents touched (commands are no files).
    const draft = {
      components: [
        { name: "Services", patterns: ["server/services/**"] },
        { name: "Nothing", patterns: ["nope/**"] },
      ],
    };
    expect(await errorCode(erin.api.work.previewComponents.query(draft))).toBe("FORBIDDEN");
    expect(await errorCode(dana.api.work.previewComponents.query({ components: [...draft.components, { name: "services", patterns: ["x/**"] }] }))).toBe(
      "INVALID_PAYLOAD",
    );
    const preview = await dana.api.work.previewComponents.query(draft);
    const previewed = (name: string) => preview.components.find((c) => c.name === name);
    expect(previewed("Services")).toMatchObject({ fallback: false, examples: expect.arrayContaining(["server/services/usage/usage.ts"]) });
    expect(previewed("Nothing")).toMatchObject({ fallback: false, paths: 0, examples: [] });
    expect(previewed("components")).toMatchObject({ fallback: true, examples: expect.arrayContaining(["components/usage/chart.tsx"]) });
    expect(preview.components.flatMap((c) => c.examples)).not.toContain("npm test -- usage");
    expect((await dana.api.work.components.query()).components).toEqual([]); // a preview saves nothing
    await dana.api.work.setComponents.mutate({
      components: [
        { name: "Services", patterns: ["server/services/**"] },
        { name: "UI", patterns: ["components/**", "app/**/*.tsx"] },
      ],
    });
    expect((await erin.api.work.components.query()).components.map((c) => c.name)).toEqual(["Services", "UI"]);
    const mine = await workOf(dana, bot.id);
    expect(mine.files.find((f) => f.path === "server/services/usage/usage.ts")?.component).toBe("Services");
    expect(mine.components.map((c) => c.name).sort()).toEqual(["(root)", "Services", "UI"]);
    const services = (await board(dana)).components.find((c) => c.name === "Services")!;
    expect(services.agentsNow.map((a) => a.id)).toContain(bot.id);

    const pr = "https://git.example.test/acme/app/pull/42";
    const link = unwrap(
      await emitAck<Ack<WorkLinkView>>(bot.socket, "work:link", {
        sessionId: "f-1",
        roomId: room.id,
        taskKey: "export",
        kind: "pull_request",
        value: pr,
        title: "Export usage as CSV",
      }),
    );
    expect(link).toMatchObject({ kind: "pull_request", value: pr, roomId: room.id });
    // Once per session: linking again updates it.
    const again = unwrap(
      await emitAck<Ack<WorkLinkView>>(bot.socket, "work:link", { sessionId: "f-1", kind: "pull_request", value: pr, title: "Export usage (CSV)" }),
    );
    expect(again.id).toBe(link.id);
    expect(again.title).toBe("Export usage (CSV)");
    expect(codeOf(await emitAck(bot.socket, "work:link", { kind: "pull_request", value: "not a url" }))).toBe("INVALID_PAYLOAD");
    expect(codeOf(await emitAck(bot.socket, "work:files", { files: [] }))).toBe("INVALID_PAYLOAD");
    expect(codeOf(await emitAck(bot.socket, "work:files", { files: [{ path: "a.ts", operation: "rename" }] }))).toBe("INVALID_PAYLOAD");
  });

  it("two agents editing one file (and one component) at the same time are flagged", async () => {
    const a = await agentIn(`left-${dialect}`);
    const b = await agentIn(`right-${dialect}`);
    unwrap(await emitAck(a.socket, "work:files", { files: [{ path: "lib/shared/money.ts", operation: "edit" }] }));
    unwrap(
      await emitAck(b.socket, "work:files", {
        files: [
          { path: "lib/shared/money.ts", operation: "edit" },
          { path: "lib/other.ts", operation: "edit" },
        ],
      }),
    );
    const { conflicts } = await board(dana);
    const onFile = conflicts.find((c) => c.kind === "file" && c.subject === "lib/shared/money.ts");
    expect(onFile?.agents.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    expect(conflicts.some((c) => c.kind === "component" && c.subject === "lib")).toBe(true);
    // Reads alone are no conflict.
    unwrap(await emitAck(a.socket, "work:files", { files: [{ path: "docs/guide.md", operation: "read" }] }));
    unwrap(await emitAck(b.socket, "work:files", { files: [{ path: "docs/guide.md", operation: "read" }] }));
    expect((await board(dana)).conflicts.some((c) => c.subject === "docs/guide.md" || c.subject === "docs")).toBe(false);
  });

  it("each person sees an agent's work where they may read its room, or the agent is theirs, or they are an admin; statuses are everyone's", async () => {
    const room = await dana.api.rooms.createChannel.mutate({ name: `secret-${dialect}`, visibility: "private", memberIds: [fay.participantId] });
    const bot = await agentIn(`private-${dialect}`, room.id);
    unwrap(await emitAck(bot.socket, "work:tasks", { roomId: room.id, tasks: [{ title: "Rotate the secret keys" }] }));
    unwrap(await emitAck(bot.socket, "work:files", { roomId: room.id, files: [{ path: "infra/keys.tf", operation: "edit" }] }));
    unwrap(await emitAck(bot.socket, "work:tasks", { sessionId: "no-room", tasks: [{ title: "Roomless chore" }] }));
    unwrap(await emitAck(bot.socket, "work:status", { state: "working", text: "Rotating keys" }));

    const asErin = await workOf(erin, bot.id);
    expect(asErin.status.text).toBe("Rotating keys");
    expect(asErin.tasks).toEqual([]);
    expect(asErin.files).toEqual([]);
    expect((await board(erin)).components.some((c) => c.name === "infra")).toBe(false);

    const asFay = await workOf(fay, bot.id);
    expect(asFay.tasks.map((t) => t.title)).toEqual(["Rotate the secret keys"]);
    expect(asFay.files.map((f) => f.path)).toEqual(["infra/keys.tf"]);

    const asDana = await workOf(dana, bot.id); // the owner (and an admin)
    expect(asDana.tasks.map((t) => t.title).sort()).toEqual(["Roomless chore", "Rotate the secret keys"]);
  });

  it("involvement: who drove a pull request, from the conversation that produced it; only conversations the viewer reads; exportable as CSV", async () => {
    const room = await dana.api.rooms.createChannel.mutate({ name: `pr-${dialect}`, visibility: "private", memberIds: [fay.participantId] });
    const bot = await agentIn(`shipper-${dialect}`, room.id);
    const scope = { sessionId: "pr-session", roomId: room.id };
    const ask = await dana.api.messages.send.mutate({
      roomId: room.id,
      body: `@shipper-${dialect} please add CSV export to the usage page`,
      clientMsgId: randomUUID(),
    });
    unwrap(await emitAck(bot.socket, "work:tasks", { ...scope, tasks: [{ key: "csv", title: "CSV export", status: "in_progress" }] }));
    unwrap(await emitAck(bot.socket, "message:send", { roomId: room.id, body: "Working on it: one column per dimension?", clientMsgId: randomUUID() }));
    await fay.api.messages.send.mutate({ roomId: room.id, body: "Yes, and keep the header stable", clientMsgId: randomUUID() });
    const q = unwrap(
      await emitAck<Ack<{ id: string }>>(bot.socket, "question:ask", {
        roomId: room.id,
        clientMsgId: randomUUID(),
        prompt: "Merge it?",
        kind: "approval",
        audience: { type: "person", participant: dana.participantId },
      }),
    );
    await dana.api.questions.answer.mutate({ questionId: q.id, answer: { approved: true } });
    unwrap(
      await emitAck(bot.socket, "work:files", {
        ...scope,
        taskKey: "csv",
        files: [{ path: "server/services/usage/reports.ts", operation: "edit", linesAdded: 30, linesRemoved: 5 }],
      }),
    );
    const pr = `https://git.example.test/acme/app/pull/${dialect}-7`;
    unwrap(await emitAck(bot.socket, "work:link", { ...scope, taskKey: "csv", kind: "pull_request", value: pr, title: "CSV export" }));
    expect(ask.body).toContain("CSV");

    const inv = await dana.api.work.involvement.query({ kind: "pull_request", value: pr });
    expect(inv.subject).toEqual({ kind: "pull_request", value: pr, title: "CSV export" });
    expect(inv.hiddenConversations).toBe(0);
    const part = (handle: string) => [...inv.people, ...inv.agents].find((p) => p.participant.handle === handle)!;
    // Dana's request set the work going (the last person's message before its first task): it counts.
    expect(part("dana")).toMatchObject({ messages: 1, answers: 1, approvals: 1 });
    expect(inv.from).toBe(ask.createdAt);
    expect(part("fay")).toMatchObject({ messages: 1, words: 6 });
    expect(part(`shipper-${dialect}`)).toMatchObject({ tasks: 1, files: 1, linesChanged: 35 });
    expect(part(`shipper-${dialect}`).messages).toBeGreaterThanOrEqual(2); // its message and its question
    expect(inv.share.messages).toBeGreaterThan(0);
    expect(inv.timeline.map((e) => e.kind)).toEqual(expect.arrayContaining(["task_created", "message", "question", "answer", "file", "link"]));
    expect(inv.timeline.find((e) => e.kind === "answer")).toMatchObject({
      who: { handle: "dana" },
      intervention: true,
      approved: true,
      answer: "Approved",
      text: "Merge it?",
    });
    expect(inv.rooms).toEqual([{ id: room.id, title: `pr-${dialect}`, kind: "channel" }]);
    expect(inv.earlierEvents).toBe(0);
    const { csv } = await dana.api.work.involvementCsv.query({ kind: "pull_request", value: pr });
    const [header, ...rows] = csv.trim().split("\n");
    expect(header).toBe("subject_kind,subject,participant,handle,kind,messages,words,answers,approvals,tasks,files,lines_changed,first_at,last_at");
    expect(rows.some((r) => r.includes(",fay,human,1,6,"))).toBe(true);

    // Erin reads none of it: the conversation is hidden from her, and counted as such.
    const asErin = await erin.api.work.involvement.query({ kind: "pull_request", value: pr });
    expect(asErin).toMatchObject({ hiddenConversations: 1, people: [], timeline: [] });
    expect(asErin.agents).toEqual([]);
    const [task] = (await workOf(dana, bot.id)).tasks;
    expect((await dana.api.work.involvement.query({ kind: "task", taskId: task.id })).subject.title).toBe("CSV export");
    expect(await errorCode(erin.api.work.involvement.query({ kind: "task", taskId: task.id }))).toBe("NOT_FOUND");
    expect(await errorCode(dana.api.work.involvement.query({ kind: "branch", value: "never-linked" }))).toBe("NOT_FOUND");
  });

  it("timeline: a room's, a thread's and a task's tasks, files, links and messages in time order, people's interventions marked, paged without gaps", async () => {
    const room = await dana.api.rooms.createChannel.mutate({ name: `timeline-${dialect}`, visibility: "private", memberIds: [fay.participantId] });
    const bot = await agentIn(`chronicler-${dialect}`, room.id);
    const ask = await dana.api.messages.send.mutate({ roomId: room.id, body: `@chronicler-${dialect} add a dark mode toggle`, clientMsgId: randomUUID() });
    const scope = { sessionId: "tl-session", roomId: room.id, threadRootId: ask.id };
    unwrap(
      await emitAck(bot.socket, "work:tasks", {
        ...scope,
        tasks: [
          { key: "toggle", title: "Add the toggle", status: "in_progress" },
          { key: "docs", title: "Document it" },
        ],
      }),
    );
    unwrap(await emitAck(bot.socket, "message:send", { roomId: room.id, threadRootId: ask.id, body: "Where should it live?", clientMsgId: randomUUID() }));
    await fay.api.messages.send.mutate({ roomId: room.id, threadRootId: ask.id, body: "In the user menu", clientMsgId: randomUUID() });
    const q = unwrap(
      await emitAck<Ack<{ id: string }>>(bot.socket, "question:ask", {
        roomId: room.id,
        threadRootId: ask.id,
        clientMsgId: randomUUID(),
        prompt: "Ship it behind a flag?",
        kind: "approval",
        audience: { type: "person", participant: dana.participantId },
      }),
    );
    await dana.api.questions.answer.mutate({ questionId: q.id, answer: { approved: false, comment: "No flag" } });
    // One report, five files: one instant, so the pages below split rows that share a time.
    const paths = ["components/theme/toggle.tsx", "components/theme/provider.tsx", "app/layout.tsx", "app/globals.css", "tests/unit/theme.test.ts"];
    unwrap(await emitAck(bot.socket, "work:files", { ...scope, taskKey: "toggle", files: paths.map((path) => ({ path, operation: "edit", linesAdded: 3 })) }));
    unwrap(await emitAck(bot.socket, "work:tasks", { ...scope, tasks: [{ key: "toggle", title: "Add the toggle", status: "completed" }] })); // "Document it" dropped
    unwrap(await emitAck(bot.socket, "work:link", { ...scope, taskKey: "toggle", kind: "branch", value: `feat/dark-${dialect}` }));
    await dana.api.messages.send.mutate({ roomId: room.id, body: "Unrelated: lunch?", clientMsgId: randomUUID() }); // the room's, not the thread's

    const all = await dana.api.work.timeline.query({ roomId: room.id });
    expect(all).toMatchObject({
      scope: { kind: "room", roomId: room.id, threadRootId: null },
      title: `timeline-${dialect}`,
      hiddenConversations: 0,
      nextCursor: null,
    });
    expect(all.rooms).toEqual([{ id: room.id, title: `timeline-${dialect}`, kind: "channel" }]);
    const kinds = all.events.map((e) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(["message", "task_created", "task_created"]);
    expect(kinds.filter((k) => k === "file")).toHaveLength(5);
    expect(kinds).toEqual(expect.arrayContaining(["question", "answer", "task_completed", "task_dropped", "link"]));
    expect(kinds.at(-1)).toBe("message");
    const times = all.events.map((e) => e.at);
    expect(times).toEqual([...times].sort());
    expect(new Set(all.events.map((e) => e.id)).size).toBe(all.events.length);
    // People's messages and answers are interventions; the agent's work and words are not.
    expect(all.events.filter((e) => e.intervention).map((e) => [e.who.handle, e.kind])).toEqual([
      ["dana", "message"],
      ["fay", "message"],
      ["dana", "answer"],
      ["dana", "message"],
    ]);
    expect(all.events.find((e) => e.kind === "answer")).toMatchObject({ approved: false, answer: "Declined: No flag", text: "Ship it behind a flag?" });
    expect(all.events.find((e) => e.kind === "task_completed")).toMatchObject({
      text: "Add the toggle",
      who: { handle: `chronicler-${dialect}`, kind: "agent" },
      threadRootId: ask.id,
    });
    expect(all.events.find((e) => e.kind === "task_dropped")?.text).toBe("Document it");
    expect(all.events.find((e) => e.kind === "file")).toMatchObject({ file: { operation: "edit", linesAdded: 3, linesRemoved: null } });
    expect(all.events.find((e) => e.kind === "link")).toMatchObject({ link: { kind: "branch", value: `feat/dark-${dialect}`, title: null } });

    // Paged back from the newest, two at a time: every event once, in the same order.
    const pages: (typeof all.events)[] = [];
    let cursor: string | undefined;
    do {
      const page = await dana.api.work.timeline.query({ roomId: room.id, limit: 2, cursor });
      expect(page.events.length).toBeLessThanOrEqual(2);
      pages.unshift(page.events);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && pages.length < 50);
    expect(pages.flat().map((e) => e.id)).toEqual(all.events.map((e) => e.id));

    // The thread: its messages and the work done for it; not the room's other talk.
    const thread = await fay.api.work.timeline.query({ roomId: room.id, threadRootId: ask.id });
    expect(thread.events.map((e) => e.text)).not.toContain("Unrelated: lunch?");
    expect(thread.events[0]).toMatchObject({ kind: "message", messageId: ask.id });
    expect(thread.events.filter((e) => e.kind === "file")).toHaveLength(5);

    // A task: its work and its conversation, from the request that set it going to its end.
    const [toggle] = (await workOf(dana, bot.id)).tasks.filter((t) => t.key === "toggle");
    const ofTask = await fay.api.work.timeline.query({ taskId: toggle.id });
    expect(ofTask.scope).toMatchObject({ kind: "task", task: { id: toggle.id, status: "completed" }, agent: { handle: `chronicler-${dialect}` } });
    expect(ofTask.title).toBe("Add the toggle");
    expect(ofTask.events[0]).toMatchObject({ kind: "message", messageId: ask.id, intervention: true });
    expect(ofTask.events.map((e) => e.kind)).toEqual(expect.arrayContaining(["task_created", "file", "answer", "task_completed", "link"]));
    expect(ofTask.events.map((e) => e.text)).not.toContain("Unrelated: lunch?");

    // Who may not read the room sees no timeline of it, nor of its tasks; a public channel is anyone's to preview.
    expect(await errorCode(erin.api.work.timeline.query({ roomId: room.id }))).toBe("ROOM_NOT_FOUND");
    expect(await errorCode(erin.api.work.timeline.query({ roomId: room.id, threadRootId: ask.id }))).toBe("ROOM_NOT_FOUND");
    expect(await errorCode(erin.api.work.timeline.query({ taskId: toggle.id }))).toBe("NOT_FOUND");
    const open = await dana.api.rooms.createChannel.mutate({ name: `open-tl-${dialect}`, visibility: "public", memberIds: [] });
    expect((await erin.api.work.timeline.query({ roomId: open.id })).events).toEqual([]);

    // Bad input: refused with stable codes.
    const other = await dana.api.messages.send.mutate({ roomId: open.id, body: "elsewhere", clientMsgId: randomUUID() });
    expect(await errorCode(dana.api.work.timeline.query({ roomId: room.id, threadRootId: other.id }))).toBe("MESSAGE_NOT_FOUND");
    expect(await errorCode(dana.api.work.timeline.query({ roomId: "no-such-room" }))).toBe("ROOM_NOT_FOUND");
    expect(await errorCode(dana.api.work.timeline.query({ taskId: "no-such-task" }))).toBe("NOT_FOUND");
    const bad = (input: unknown) => errorCode(dana.api.work.timeline.query(input as { roomId: string }));
    expect(await bad({})).toBe("INVALID_PAYLOAD");
    expect(await bad({ roomId: room.id, taskId: toggle.id })).toBe("INVALID_PAYLOAD");
    expect(await bad({ roomId: room.id, limit: 0 })).toBe("INVALID_PAYLOAD");
    expect(await bad({ roomId: room.id, limit: 201 })).toBe("INVALID_PAYLOAD");
    expect(await bad({ roomId: room.id, cursor: "yesterday" })).toBe("INVALID_PAYLOAD");
    expect(await bad({ roomId: room.id, cursor: "2026-13-45T99:99:99.000Z|m:1" })).toBe("INVALID_PAYLOAD");
  });

  it("the platform tools report work as the agent: set_status with a state, report_tasks, report_files, link_work", async () => {
    const room = await dana.api.rooms.createChannel.mutate({ name: `tools-${dialect}`, visibility: "private", memberIds: [] });
    const bot = await agentIn(`tooler-${dialect}`, room.id);
    const call = (name: string, args: Record<string, unknown>) =>
      emitAck<Ack<Record<string, unknown>>>(bot.socket as ClientSocket, "tool:call", { name, args });
    expect(unwrap(await call("set_status", { status: "Need a decision", state: "waiting", waiting_for: "@dana" }))).toMatchObject({
      state: "waiting",
      waiting_for: "@dana",
    });
    expect(
      unwrap(
        await call("report_tasks", {
          session_id: "mcp-1",
          room: `#tools-${dialect}`,
          tasks: [
            { title: "Plan", status: "completed" },
            { title: "Build", status: "in_progress" },
          ],
        }),
      ),
    ).toMatchObject({
      tasks: [
        { id: "plan", status: "completed" },
        { id: "build", status: "in_progress" },
      ],
    });
    expect(
      unwrap(await call("report_files", { session_id: "mcp-1", task_id: "build", files: [{ path: "scripts/build.ts", operation: "edit", lines_added: 3 }] })),
    ).toEqual({ recorded: 1, components: ["scripts"] });
    expect(unwrap(await call("link_work", { session_id: "mcp-1", kind: "branch", value: "feat/tools" }))).toMatchObject({
      kind: "branch",
      value: "feat/tools",
    });
    expect(codeOf(await call("link_work", { kind: "pull_request", value: "nope" }))).toBe("INVALID_PAYLOAD");
    const mine = await workOf(dana, bot.id);
    expect(mine.status).toMatchObject({ state: "waiting", waitingFor: { handle: "dana" } });
    expect(mine.tasks.map((t) => t.title)).toEqual(["Build", "Plan"]);
    expect(mine.links.map((l) => l.value)).toEqual(["feat/tools"]);
  });
});
