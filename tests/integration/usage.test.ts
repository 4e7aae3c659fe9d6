import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { weekOf } from "../../components/usage/format";
import { rollupRowsFromRecordsSql } from "../../server/services/usage/rollups";
import type { UsageView } from "@switchboard/sdk/contract";
import {
  closeAgentClients,
  closeSockets,
  collect,
  collectMessages,
  connectedAgent,
  dialects,
  errorCode,
  queryDb,
  signUpPerson,
  waitFor,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

const DAYS = ["2026-11-20", "2026-11-21", "2026-11-23", "2026-11-28"];
const today = () => new Date().toISOString().slice(0, 10);

// ---- an independent ledger: what a test reported, summed here ----

interface Entry {
  agent: string;
  owner: string;
  room: string | null;
  task: string | null;
  model: string;
  day: string;
  cost: number;
  input: number;
  output: number;
  cached: number;
  unpriced: boolean;
}
interface Sums {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  calls: number;
  unpricedCalls: number;
  unpricedTokens: number;
}
type Breakdown = "byAgent" | "byPerson" | "byRoom" | "byTask" | "byModel";
interface OverviewLike {
  totals: Sums;
  series: (Sums & { bucket: string })[];
  byAgent: (Sums & { id: string | null })[];
  byPerson: (Sums & { id: string | null })[];
  byRoom: (Sums & { id: string | null })[];
  byTask: (Sums & { id: string | null })[];
  byModel: (Sums & { id: string | null })[];
}

const BREAKDOWNS: [Breakdown, (e: Entry) => string | null][] = [
  ["byAgent", (e) => e.agent],
  ["byPerson", (e) => e.owner],
  ["byRoom", (e) => e.room],
  ["byTask", (e) => e.task],
  ["byModel", (e) => e.model],
];

function sumOf(entries: Entry[]): Sums {
  const s: Sums = { costUsd: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, calls: 0, unpricedCalls: 0, unpricedTokens: 0 };
  for (const e of entries) {
    s.costUsd += e.cost;
    s.inputTokens += e.input;
    s.outputTokens += e.output;
    s.cachedTokens += e.cached;
    s.calls += 1;
    if (e.unpriced) {
      s.unpricedCalls += 1;
      s.unpricedTokens += e.input + e.output;
    }
  }
  return s;
}

function groupedSums(entries: Entry[], key: (e: Entry) => string | null): Map<string | null, Sums> {
  const groups = new Map<string | null, Entry[]>();
  for (const e of entries) groups.set(key(e), [...(groups.get(key(e)) ?? []), e]);
  return new Map([...groups].map(([k, list]) => [k, sumOf(list)]));
}

function expectSums(got: Sums, want: Sums, what: string): void {
  expect(got.costUsd, `${what}: cost`).toBeCloseTo(want.costUsd, 6);
  const { costUsd: _got, ...gotCounts } = got;
  const { costUsd: _want, ...wantCounts } = want;
  expect(gotCounts, what).toMatchObject(wantCounts);
}

function expectRows(rows: (Sums & { id: string | null })[], want: Map<string | null, Sums>, what: string): void {
  expect(rows.map((r) => r.id).sort(), `${what}: rows`).toEqual([...want.keys()].sort());
  for (const r of rows) expectSums(r, want.get(r.id)!, `${what} ${r.id}`);
}

/** Every number the dashboard shows for a query, against the ledger's entries that query covers. */
function expectOverview(overview: OverviewLike, entries: Entry[], bucket: "day" | "week" | "month", what: string): void {
  expectSums(overview.totals, sumOf(entries), `${what} totals`);
  const bucketOf = (day: string) => (bucket === "day" ? day : bucket === "week" ? weekOf(day) : day.slice(0, 7));
  expectRows(
    overview.series.map((s) => ({ ...s, id: s.bucket })),
    groupedSums(entries, (e) => bucketOf(e.day)),
    `${what} series`,
  );
  expect(
    overview.series.map((s) => s.bucket),
    `${what}: series in time order`,
  ).toEqual(overview.series.map((s) => s.bucket).sort());
  for (const [b, key] of BREAKDOWNS) expectRows(overview[b], groupedSums(entries, key), `${what} ${b}`);
}

type Row = Record<string, string | number | bigint>;
const rowKey = (r: Row) =>
  ["workspaceId", "grain", "span", "day", "week", "month", "agentId", "ownerId", "requesterId", "roomId", "taskId", "model"].map((c) => r[c]).join("|");
const COUNTERS = ["calls", "inputTokens", "outputTokens", "cachedTokens", "unpricedCalls", "unpricedTokens"];

describe.each(dialects)("usage and cost on %s", (dialect) => {
  let server: TestServer;
  let admin: Person;
  let mia: Person;

  const agentOf = (owner: Person, handle: string) => connectedAgent(server, owner, handle);

  /**
   * A report's budget check runs after the report is answered, and its `usage:recorded` is published
   * once the check is done: `heard` (usage:recorded, as the agent's owner hears it) holding every one of
   * `reports` means their checks have finished, including those that changed nothing.
   */
  async function budgetChecksDone(heard: { usage: { id: string } }[], reports: { id: string }[]): Promise<void> {
    await waitFor(() => reports.every((r) => heard.some((e) => e.usage.id === r.id)), 5000, "the reports' budget checks");
  }

  beforeAll(async () => {
    ({
      server,
      people: { ada: admin, mia },
    } = await startWorkspace(dialect, { people: { ada: "owner", mia: "member" } }));
  });
  afterEach(async () => {
    await closeAgentClients();
    closeSockets();
  });
  afterAll(() => server.dispose());

  it("aggregates reports from several agents over several days exactly, by every breakdown", async () => {
    const a = await agentOf(admin, `writer-${dialect}`);
    const b = await agentOf(mia, `reviewer-${dialect}`);
    const room = await admin.api.rooms.createChannel.mutate({ name: `spend-${dialect}`, visibility: "private", memberIds: [a.id] });
    // An independent ledger: what the test itself reported.
    const ledger: { agent: string; owner: string; day: string; cost: number; input: number; output: number; task?: string; room?: string }[] = [];
    let n = 0;
    for (const day of DAYS) {
      for (const [agent, owner] of [
        [a, admin],
        [b, mia],
      ] as const) {
        for (let i = 0; i < 3; i++) {
          const cost = Math.round((0.01 + ((n * 37) % 100) / 1000) * 1e6) / 1e6;
          const input = 1000 + n * 17;
          const output = 200 + n * 3;
          const task = i === 0 ? `task-${dialect}-1` : undefined;
          const inRoom = agent === a && i === 1 ? room.id : undefined;
          await agent.client.reportUsage({
            model: i % 2 ? "gpt-5" : "claude-sonnet-4.5",
            inputTokens: input,
            outputTokens: output,
            costUsd: cost,
            taskId: task,
            roomId: inRoom,
            occurredAt: `${day}T1${i}:00:00Z`,
          });
          ledger.push({ agent: agent.id, owner: owner.participantId, day, cost, input, output, task, room: inRoom });
          n++;
        }
      }
    }
    const sum = (rows: typeof ledger) => ({ cost: Math.round(rows.reduce((s, r) => s + r.cost, 0) * 1e6) / 1e6, input: rows.reduce((s, r) => s + r.input, 0) });
    const overview = await admin.api.usage.overview.query({ from: DAYS[0], to: DAYS[DAYS.length - 1], bucket: "day", agentId: undefined });
    const mine = ledger.filter((r) => r.agent === a.id || r.agent === b.id);
    const mineOverview = overview.byAgent.filter((r) => r.id === a.id || r.id === b.id);
    expect(mineOverview.map((r) => [r.id, r.costUsd, r.inputTokens]).sort()).toEqual(
      [a.id, b.id].map((id) => [id, sum(mine.filter((r) => r.agent === id)).cost, sum(mine.filter((r) => r.agent === id)).input]).sort(),
    );
    for (const day of DAYS) {
      expect(overview.series.find((s) => s.bucket === day)?.costUsd).toBeCloseTo(sum(ledger.filter((r) => r.day === day)).cost, 6);
    }
    expect(overview.byPerson.find((p) => p.id === mia.participantId)?.costUsd).toBeCloseTo(sum(ledger.filter((r) => r.owner === mia.participantId)).cost, 6);
    expect(overview.byTask.find((t) => t.id === `task-${dialect}-1`)?.calls).toBe(ledger.filter((r) => r.task).length);
    expect(overview.byRoom.find((r) => r.id === room.id)?.costUsd).toBeCloseTo(sum(ledger.filter((r) => r.room)).cost, 6);
    expect(overview.byModel.map((m) => m.id).sort()).toEqual(["claude-sonnet-4.5", "gpt-5"]);
    const weekly = await admin.api.usage.overview.query({ from: DAYS[0], to: DAYS[3], bucket: "week" });
    expect(weekly.series.map((s) => s.bucket)).toEqual(["2026-11-16", "2026-11-23"]);
    expect(weekly.totals.costUsd).toBeCloseTo(overview.totals.costUsd, 6);

    // Members see only their own agents.
    const hers = await mia.api.usage.overview.query({ from: DAYS[0], to: DAYS[3], bucket: "day" });
    expect(hers.byAgent.map((r) => r.id)).toEqual([b.id]);
    expect(hers.totals.costUsd).toBeCloseTo(sum(ledger.filter((r) => r.agent === b.id)).cost, 6);

    const csv = await admin.api.usage.exportCsv.query({ from: DAYS[0], to: DAYS[3], bucket: "day", view: "byAgent" });
    const csvTotal = csv
      .trim()
      .split("\n")
      .slice(1)
      .reduce((s, line) => s + Number(line.split(",")[2].replace(/"/g, "")), 0);
    expect(csvTotal).toBeCloseTo(overview.totals.costUsd, 6);
  });

  it("is idempotent per reportId and prices from the table", async () => {
    const agent = await agentOf(admin, `pricey-${dialect}`);
    const reportId = randomUUID();
    const first = await agent.client.reportUsage({
      reportId,
      model: "claude-sonnet-4.5",
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cachedTokens: 200_000,
    });
    const again = await agent.client.reportUsage({ reportId, model: "claude-sonnet-4.5", inputTokens: 5, outputTokens: 5 });
    expect(again.id).toBe(first.id);
    // 800k uncached input at $3, 200k cached at $0.30, 100k output at $15 per million tokens.
    expect(first).toMatchObject({ costSource: "priced" });
    expect(first.costUsd).toBeCloseTo(0.8 * 3 + 0.2 * 0.3 + 0.1 * 15, 9);
    await admin.api.usage.setPrice.mutate({ model: "house-model", inputPerMTok: 2, outputPerMTok: 4, cachedPerMTok: 0 });
    expect((await agent.client.reportUsage({ model: "house-model", inputTokens: 500_000, outputTokens: 250_000 })).costUsd).toBeCloseTo(2, 9);
    expect((await agent.client.reportUsage({ model: "unknown-model", inputTokens: 10, outputTokens: 10 })).costSource).toBe("unpriced");
    expect(await errorCode(mia.api.usage.setPrice.mutate({ model: "x", inputPerMTok: 1, outputPerMTok: 1 }))).toBe("FORBIDDEN");
    const records = await queryDb<{ n: number }>(server, `SELECT COUNT(*) AS n FROM "UsageRecord" WHERE "reportId" = $1`, [reportId]);
    expect(Number(records[0].n)).toBe(1);
  });

  it("shows what a call cost only to the agent, its owner and admins: not on its message, not to the rest of the room", async () => {
    // Mia's agent works in a room with Ada (an owner of the workspace) and Noa (a member who owns none of it).
    const noa = await signUpPerson(server, { handle: `noa-${dialect}`, inviteToken: (await admin.api.workspace.createInvite.mutate({})).token });
    const agent = await agentOf(mia, `answerer-${dialect}`);
    const room = await mia.api.rooms.createChannel.mutate({
      name: `carry-${dialect}`,
      visibility: "private",
      memberIds: [agent.id, admin.participantId, noa.participantId],
    });
    const [noaSocket, miaSocket, adaSocket] = await Promise.all([noa.socket(), mia.socket(), admin.socket()]);
    const noaUpdates = collect(noaSocket, "message:updated");
    const noaUsage = collect(noaSocket, "usage:recorded");
    const noaMessages = collectMessages(noaSocket);
    const [miaUsage, adaUsage] = [collect(miaSocket, "usage:recorded"), collect(adaSocket, "usage:recorded")];
    const said = await agent.client.send(room.id, "here is my answer");
    // Two calls produced it, reported at once.
    await Promise.all(
      [0.25, 0.5].map((costUsd) => agent.client.reportUsage({ model: "gpt-5", inputTokens: 100, outputTokens: 50, costUsd, messageId: said.id })),
    );
    for (const [seen, who] of [
      [miaUsage, "the owner"],
      [adaUsage, "an admin"],
    ] as const) {
      await waitFor(() => seen.filter((e) => e.usage.messageId === said.id).length === 2, 5000, `${who} hears of both calls`);
    }
    // A sentinel the room gets after anything those reports could have sent Noa.
    const sentinel = await agent.client.send(room.id, "sentinel");
    await waitFor(() => noaMessages.seen.some((m) => m.message.id === sentinel.id), 5000, "sentinel");
    expect(noaUsage).toEqual([]);
    expect(noaUpdates.filter((e) => e.message.id === said.id)).toEqual([]);
    const { messages } = await noa.api.messages.history.query({ roomId: room.id, limit: 10 });
    expect(messages.find((m) => m.id === said.id)?.data ?? null).toBeNull();

    // The room's cost: all of it for the owner of the agent and for admins, none of it for Noa.
    const range = { roomId: room.id, from: today(), to: today() };
    for (const who of [mia, admin]) {
      const view = await who.api.usage.room.query(range);
      expect(view.totals.costUsd).toBeCloseTo(0.75, 9);
      expect(view.totals.calls).toBe(2);
      expect(view.shares).toMatchObject([{ id: agent.id, share: 1 }]);
    }
    const noaView = await noa.api.usage.room.query(range);
    expect(noaView.totals).toMatchObject({ calls: 0, costUsd: 0 });
    expect(noaView.shares).toEqual([]);
    expect(noaView.involvement).toMatchObject({ agents: 2, people: 0 });
  });

  it("attributes each call to the person who drove it, through a chain of agents, next to the agent's owner", async () => {
    // Bea asks Mia's agent Scout; Scout, handling it, asks Mia's agent Relay. Both calls are Bea's
    // requests on Mia's agents. Tally marks Bea's message as processing and reports with no message
    // (a client without the SDK's cause); Solo reports on its own.
    const bea = await signUpPerson(server, { handle: `bea-${dialect}`, inviteToken: (await admin.api.workspace.createInvite.mutate({})).token });
    const [scout, relay, tally, solo] = await Promise.all(["scout", "relay", "tally", "solo"].map((h) => agentOf(mia, `${h}-${dialect}`)));
    const room = await mia.api.rooms.createChannel.mutate({
      name: `asks-${dialect}`,
      visibility: "private",
      memberIds: [scout.id, relay.id, tally.id, bea.participantId],
    });
    const asking = await bea.api.connections.request.mutate({ participantId: scout.id, message: "questions about the build" });
    await mia.api.connections.respond.mutate({ connectionId: asking.id, decision: "accept" });
    await mia.api.connections.respond.mutate({ connectionId: (await scout.client.requestConnection(relay.id)).id, decision: "accept" });
    const calls: Promise<UsageView>[] = [];
    scout.client.onMessage(async (m, ctx) => {
      if (m.author.id !== bea.participantId) return;
      calls.push(ctx.reportUsage({ model: "gpt-5", inputTokens: 100, outputTokens: 10, costUsd: 0.5 }));
      await ctx.send(room.id, `@relay-${dialect} the details, please`);
    });
    relay.client.onMessage(async (m, ctx) => {
      if (m.author.id === scout.id) calls.push(ctx.reportUsage({ model: "gpt-5", inputTokens: 100, outputTokens: 10, costUsd: 0.25 }));
    });
    const beaHears = collect(await bea.socket(), "usage:recorded");
    const asked = await bea.api.messages.send.mutate({ roomId: room.id, body: `@scout-${dialect} what did the build cost?`, clientMsgId: randomUUID() });
    await waitFor(() => calls.length === 2, 10_000, "Scout's and Relay's calls");
    const [scoutCall, relayCall] = await Promise.all(calls);
    await tally.client.processing(asked);
    const tallyCall = await tally.client.reportUsage({ model: "gpt-5", inputTokens: 10, outputTokens: 1, costUsd: 0.125 });
    const soloCall = await solo.client.reportUsage({ model: "gpt-5", inputTokens: 10, outputTokens: 1, costUsd: 1 });
    for (const call of [scoutCall, relayCall, tallyCall]) expect(call).toMatchObject({ ownerId: mia.participantId, requesterId: bea.participantId });
    expect(soloCall).toMatchObject({ ownerId: mia.participantId, requesterId: null });
    // Bea hears of the calls she drove, live (and of no other call of Mia's agents).
    await waitFor(() => beaHears.length === 3, 5000, "Bea hears of her requests' calls");
    expect(beaHears.map((e) => e.usage.id).sort()).toEqual([scoutCall.id, relayCall.id, tallyCall.id].sort());
    const [handoff] = await queryDb<{ requesterId: string }>(server, `SELECT "requesterId" FROM "Message" WHERE "authorId" = $1`, [scout.id]);
    expect(handoff.requesterId).toBe(bea.participantId);

    // A cause must be a message the agent could have read.
    const elsewhere = await admin.api.rooms.createChannel.mutate({ name: `elsewhere-${dialect}`, visibility: "private", memberIds: [] });
    const secret = await admin.api.messages.send.mutate({ roomId: elsewhere.id, body: "not for agents", clientMsgId: randomUUID() });
    expect(await errorCode(scout.client.send(room.id, "claiming a request", { causeId: secret.id }))).toBe("MESSAGE_NOT_FOUND");

    // Admins see "requested by" next to "owned by"; Bea sees what she requested, and nothing else of Mia's.
    const day = { from: today(), to: today(), bucket: "day" as const };
    const overview = await admin.api.usage.overview.query({ ...day, ownerId: mia.participantId });
    expect(overview.byRequester.find((r) => r.id === bea.participantId)).toMatchObject({ calls: 3, costUsd: 0.875, name: `Bea-${dialect} (@bea-${dialect})` });
    expect(overview.byRequester.find((r) => r.id === null)?.costUsd).toBeGreaterThanOrEqual(1);
    const hers = await bea.api.usage.overview.query({ ...day, requesterId: bea.participantId });
    expect(hers.totals).toMatchObject({ calls: 3, costUsd: 0.875 });
    expect(hers.byAgent.map((r) => r.id).sort()).toEqual([scout.id, relay.id, tally.id].sort());
    expect(hers.byPerson.map((r) => r.id)).toEqual([mia.participantId]);
    expect((await bea.api.usage.overview.query(day)).totals.calls).toBe(0);
    expect((await bea.api.usage.overview.query({ ...day, requesterId: mia.participantId })).totals.calls).toBe(0);

    // The detail export: every dimension a column, names and ids.
    const csv = (await admin.api.usage.exportCsv.query({ ...day, requesterId: bea.participantId, view: "detail" }))
      .trim()
      .split("\n")
      .map((line) => line.replace(/"/g, ""));
    expect(csv[0]).toBe(
      "bucket,agent,agentId,ownedBy,ownerId,requestedBy,requesterId,room,roomId,taskId,model,costUsd,inputTokens,outputTokens,cachedTokens,calls,unpricedCalls",
    );
    const relayRow = csv.find((line) => line.includes(relay.id))!;
    expect(relayRow).toContain(
      `${today()},Relay-${dialect} (@relay-${dialect}),${relay.id},Mia (@mia),${mia.participantId},Bea-${dialect} (@bea-${dialect}),${bea.participantId},#asks-${dialect},${room.id},,gpt-5,0.25,`,
    );
    expect(csv).toHaveLength(4);
  });

  it("refuses reports from the future, and backdated out of the current period of a budget that applies", async () => {
    // Kim's own agents and budgets, so that no other test's budget applies.
    const kim = await signUpPerson(server, { handle: `kim-${dialect}`, inviteToken: (await admin.api.workspace.createInvite.mutate({})).token });
    const agent = await agentOf(kim, `dated-${dialect}`);
    const day = 24 * 60 * 60 * 1000;
    const report = (occurredAt: Date) =>
      agent.client.reportUsage({ model: "gpt-5", inputTokens: 1, outputTokens: 1, costUsd: 0.01, occurredAt: occurredAt.toISOString() });
    const startOfToday = new Date(`${today()}T00:00:00.000Z`);
    // Without a budget, earlier days may be reported; nothing from an hour ahead.
    expect((await report(new Date(Date.now() - 3 * day))).occurredAt.slice(0, 10)).toBe(new Date(Date.now() - 3 * day).toISOString().slice(0, 10));
    await expect(report(new Date(Date.now() + 60 * 60 * 1000))).rejects.toMatchObject({ code: "INVALID_PAYLOAD" });
    expect((await report(new Date(Date.now() + 60 * 1000))).costUsd).toBe(0.01); // clock skew

    // A daily budget on the agent: from the start of today (UTC) on.
    await admin.api.usage.setBudget.mutate({ subjectType: "agent", subjectId: agent.id, period: "day", unit: "usd", amount: 100 });
    await expect(report(new Date(startOfToday.getTime() - 1000))).rejects.toMatchObject({ code: "INVALID_PAYLOAD" });
    expect((await report(startOfToday)).occurredAt).toBe(startOfToday.toISOString());

    // Another agent of Kim's, under her monthly budget: from the first of the month on.
    const other = await agentOf(kim, `dated-monthly-${dialect}`);
    await admin.api.usage.setBudget.mutate({ subjectType: "person", subjectId: kim.participantId, period: "month", unit: "usd", amount: 1000 });
    const startOfMonth = new Date(`${today().slice(0, 7)}-01T00:00:00.000Z`);
    const reportOther = (at: Date) =>
      other.client.reportUsage({ model: "gpt-5", inputTokens: 1, outputTokens: 1, costUsd: 0.01, occurredAt: at.toISOString() });
    await expect(reportOther(new Date(startOfMonth.getTime() - 1000))).rejects.toMatchObject({ code: "INVALID_PAYLOAD" });
    expect((await reportOther(startOfMonth)).occurredAt).toBe(startOfMonth.toISOString());
  });

  it("warns at 80% and suspends at 100%, once each, even with reports racing across the threshold", async () => {
    const agent = await agentOf(mia, `budgeted-${dialect}`);
    const miaSocket = await mia.socket();
    const miaEvents = collect(miaSocket, "budget:updated");
    const miaUsage = collect(miaSocket, "usage:recorded");
    expect(await errorCode(mia.api.usage.setBudget.mutate({ subjectType: "agent", subjectId: agent.id, period: "day", unit: "usd", amount: 1 }))).toBe(
      "FORBIDDEN",
    );
    await admin.api.usage.setBudget.mutate({ subjectType: "agent", subjectId: agent.id, period: "day", unit: "usd", amount: 1 });
    await agent.client.reportUsage({ model: "gpt-5", inputTokens: 1, outputTokens: 1, costUsd: 0.5 });
    // Two reports race across 80%.
    await Promise.all([0.2, 0.2].map((costUsd) => agent.client.reportUsage({ model: "gpt-5", inputTokens: 1, outputTokens: 1, costUsd })));
    await waitFor(() => miaEvents.some((e) => e.transition === "warned"), 5000, "warning");
    expect((await mia.api.usage.budgets.query()).find((b) => b.subjectId === agent.id)).toMatchObject({ state: "warned", spent: 0.9 });
    expect((await mia.api.agents.get.query({ agentId: agent.id })).status).toBe("active");
    // Two more race across 100%.
    const crossing = await Promise.all(
      [0.1, 0.1].map((costUsd) => agent.client.reportUsage({ model: "gpt-5", inputTokens: 1, outputTokens: 1, costUsd }).catch(() => null)),
    );
    await budgetChecksDone(
      miaUsage,
      crossing.filter((r) => r !== null),
    ); // a second transition, if any, came before
    await waitFor(() => miaEvents.some((e) => e.transition === "exceeded"), 5000, "exceeded");
    const heard = miaEvents.filter((e) => e.budget.subjectId === agent.id);
    expect(heard.filter((e) => e.transition === "warned")).toHaveLength(1);
    expect(heard.filter((e) => e.transition === "exceeded")).toHaveLength(1);
    const audit = await admin.api.admin.audit.query({ subjectId: agent.id });
    expect(audit.filter((e) => e.action === "budget.warned")).toHaveLength(1);
    expect(audit.filter((e) => e.action === "budget.exceeded")).toHaveLength(1);
    expect(audit.find((e) => e.action === "agent.suspended")?.data).toMatchObject({ by: "budget" });
    expect((await mia.api.agents.get.query({ agentId: agent.id })).status).toBe("suspended");

    // An admin raises the budget and resumes the agent.
    const raised = await admin.api.usage.setBudget.mutate({ subjectType: "agent", subjectId: agent.id, period: "day", unit: "usd", amount: 5 });
    expect(raised.state).toBe("ok");
    await admin.api.agents.resume.mutate({ agentId: agent.id });
    expect((await mia.api.agents.get.query({ agentId: agent.id })).status).toBe("active");
  });

  it("keeps rollups equal to an independent ledger over days and months, for every breakdown, through idempotent and racing reports", async () => {
    const tag = dialect.slice(0, 2);
    const p1 = await signUpPerson(server, { handle: `ledgera${tag}`, inviteToken: (await admin.api.workspace.createInvite.mutate({})).token });
    const p2 = await signUpPerson(server, { handle: `ledgerb${tag}`, inviteToken: (await admin.api.workspace.createInvite.mutate({})).token });
    const x = await agentOf(p1, `ledger-x-${dialect}`);
    const y = await agentOf(p1, `ledger-y-${dialect}`);
    const z = await agentOf(p2, `ledger-z-${dialect}`);
    const r1 = await p1.api.rooms.createChannel.mutate({ name: `ledger-one-${dialect}`, visibility: "private", memberIds: [x.id, y.id] });
    const r2 = await p2.api.rooms.createChannel.mutate({ name: `ledger-two-${dialect}`, visibility: "private", memberIds: [z.id] });
    const models = { priced: `priced-${dialect}`, reported: `reported-${dialect}`, unpriced: `unpriced-${dialect}` };
    await admin.api.usage.setPrice.mutate({ model: models.priced, inputPerMTok: 2, outputPerMTok: 4, cachedPerMTok: 0.5 });
    const agents = [
      { agent: x, owner: p1, room: r1.id },
      { agent: y, owner: p1, room: r1.id },
      { agent: z, owner: p2, room: r2.id },
    ];
    // A stretch of last year nothing else in this file reports in: September's end, all of October,
    // November's start (month rows cover whole months; day rows the ends of a range).
    const days = ["2025-09-29", "2025-09-30", "2025-10-01", "2025-10-15", "2025-10-31", "2025-11-01", "2025-11-20"];
    const ledger: Entry[] = [];
    const report = async (who: (typeof agents)[number], day: string, n: number, reportId: string = randomUUID()) => {
      const model = [models.reported, models.priced, models.unpriced][n % 3];
      const input = 1000 + n * 37;
      const output = 100 + n * 11;
      const cached = n % 2 ? 50 : 0;
      const room = n % 4 === 0 ? who.room : undefined;
      const task = n % 5 === 0 ? `ledger-t1-${dialect}` : n % 5 === 1 ? `ledger-t2-${dialect}` : undefined;
      const cost = model === models.reported ? Math.round((0.01 + n / 997) * 1e6) / 1e6 : undefined;
      const usage = await who.agent.client.reportUsage({
        reportId,
        model,
        inputTokens: input,
        outputTokens: output,
        cachedTokens: cached,
        costUsd: cost,
        roomId: room,
        taskId: task,
        occurredAt: `${day}T${String(n % 24).padStart(2, "0")}:30:00Z`,
      });
      return {
        usage,
        entry: {
          agent: who.agent.id,
          owner: who.owner.participantId,
          room: room ?? null,
          task: task ?? null,
          model,
          day,
          cost: usage.costUsd,
          input,
          output,
          cached,
          unpriced: model === models.unpriced,
        },
      };
    };
    let n = 0;
    const sent: { who: (typeof agents)[number]; reportId: string }[] = [];
    for (const day of days) {
      for (const who of agents) {
        for (let i = 0; i < 2; i++) {
          const { usage, entry } = await report(who, day, n++);
          ledger.push(entry);
          sent.push({ who, reportId: usage.reportId });
        }
      }
    }
    // Re-reports of stored ids, with other numbers and days: the originals stand, nothing is added.
    for (const { who, reportId } of sent.slice(0, 4)) {
      await report(who, "2025-10-20", 500, reportId);
    }
    // Reports racing on the same rollup rows (one day, one model), and the same id racing itself.
    const racing = await Promise.all(agents.flatMap((who) => [0, 3, 6, 9].map((k) => report(who, "2025-10-15", 600 + k))));
    ledger.push(...racing.map((r) => r.entry));
    const twin = randomUUID();
    const twins = await Promise.all([report(agents[0], "2025-11-01", 700, twin), report(agents[0], "2025-11-01", 700, twin)]);
    expect(twins[0].usage.id).toBe(twins[1].usage.id);
    ledger.push(twins[0].entry);
    expect(ledger.filter((e) => e.unpriced).length).toBeGreaterThan(0);

    const within = (from: string, to: string) => ledger.filter((e) => e.day >= from && e.day <= to);
    const ranges = [
      { from: "2025-09-01", to: "2025-11-30" }, // whole months only
      { from: "2025-09-30", to: "2025-11-01" }, // a day, a month, a day
      { from: "2025-10-01", to: "2025-10-31" }, // one month
      { from: "2025-09-29", to: "2025-10-15" }, // no whole month
    ];
    for (const range of ranges) {
      for (const bucket of ["day", "week", "month"] as const) {
        expectOverview(
          await admin.api.usage.overview.query({ ...range, bucket }),
          within(range.from, range.to),
          bucket,
          `${range.from}..${range.to} by ${bucket}`,
        );
      }
    }
    // Filters, alone and together, read other grains; every breakdown still adds up.
    const cut = ranges[1];
    const filters: [Record<string, string>, (e: Entry) => boolean][] = [
      [{ agentId: x.id }, (e) => e.agent === x.id],
      [{ ownerId: p2.participantId }, (e) => e.owner === p2.participantId],
      [{ roomId: r1.id }, (e) => e.room === r1.id],
      [{ taskId: `ledger-t1-${dialect}` }, (e) => e.task === `ledger-t1-${dialect}`],
      [{ model: models.priced }, (e) => e.model === models.priced],
      [{ model: models.unpriced, agentId: y.id }, (e) => e.model === models.unpriced && e.agent === y.id],
      [{ roomId: r1.id, taskId: `ledger-t2-${dialect}` }, (e) => e.room === r1.id && e.task === `ledger-t2-${dialect}`],
    ];
    for (const [filter, keep] of filters) {
      expectOverview(
        await admin.api.usage.overview.query({ ...cut, bucket: "week", ...filter }),
        within(cut.from, cut.to).filter(keep),
        "week",
        JSON.stringify(filter),
      );
    }
    // A member sees their own agents only, whatever they ask for.
    const own = within(cut.from, cut.to).filter((e) => e.owner === p1.participantId);
    expectOverview(await p1.api.usage.overview.query({ ...cut, bucket: "month" }), own, "month", "member");
    expectOverview(await p1.api.usage.overview.query({ ...cut, bucket: "month", ownerId: p2.participantId }), own, "month", "member asking for another");
    // A room's and a task's detail read the same rollups.
    const roomView = await p1.api.usage.room.query({ roomId: r1.id, ...cut });
    expectSums(roomView.totals, sumOf(within(cut.from, cut.to).filter((e) => e.room === r1.id)), "room detail");
    expectRows(
      roomView.shares,
      groupedSums(
        within(cut.from, cut.to).filter((e) => e.room === r1.id),
        (e) => e.agent,
      ),
      "room shares",
    );
    const taskView = await admin.api.usage.task.query({ taskId: `ledger-t1-${dialect}`, ...ranges[0] });
    expectSums(taskView.totals, sumOf(ledger.filter((e) => e.task === `ledger-t1-${dialect}`)), "task detail");
    // CSV says what the screen says, unpriced calls included.
    const csv = (await admin.api.usage.exportCsv.query({ ...cut, bucket: "day", view: "byModel" })).trim().split("\n");
    expect(csv[0]).toBe("name,id,costUsd,inputTokens,outputTokens,cachedTokens,calls,unpricedCalls");
    const unpricedLine = csv
      .find((l) => l.includes(models.unpriced))!
      .split(",")
      .map((c) => c.replace(/"/g, ""));
    expect(Number(unpricedLine[7])).toBe(within(cut.from, cut.to).filter((e) => e.unpriced).length);

    // The rows the reports maintained are exactly the rows summed afresh from the records.
    const maintained = await queryDb<Row>(server, `SELECT * FROM "UsageRollup"`);
    const recomputed = await queryDb<Row>(server, rollupRowsFromRecordsSql(dialect));
    expect(maintained.length).toBeGreaterThan(0);
    expect(maintained.map(rowKey).sort()).toEqual(recomputed.map(rowKey).sort());
    const fresh = new Map(recomputed.map((r) => [rowKey(r), r]));
    for (const row of maintained) {
      const want = fresh.get(rowKey(row))!;
      expect(
        COUNTERS.map((c) => Number(row[c])),
        rowKey(row),
      ).toEqual(COUNTERS.map((c) => Number(want[c])));
      expect(Number(row.costUsd)).toBeCloseTo(Number(want.costUsd), 9);
    }
  });

  it("deletes a budget: owners and admins only, audited, heard live, and no longer enforced", async () => {
    const agent = await agentOf(mia, `unbudgeted-${dialect}`);
    const budget = await admin.api.usage.setBudget.mutate({ subjectType: "agent", subjectId: agent.id, period: "day", unit: "usd", amount: 1 });
    expect(await errorCode(mia.api.usage.deleteBudget.mutate({ budgetId: budget.id }))).toBe("FORBIDDEN");
    expect(await errorCode(admin.api.usage.deleteBudget.mutate({ budgetId: "no-such-budget" }))).toBe("NOT_FOUND");
    const miaSocket = await mia.socket();
    const heard = collect(miaSocket, "budget:updated");
    const usageHeard = collect(miaSocket, "usage:recorded");

    expect(await admin.api.usage.deleteBudget.mutate({ budgetId: budget.id })).toEqual({ id: budget.id });
    expect((await admin.api.usage.budgets.query()).some((b) => b.id === budget.id)).toBe(false);
    expect(await errorCode(admin.api.usage.deleteBudget.mutate({ budgetId: budget.id }))).toBe("NOT_FOUND");
    await waitFor(() => heard.some((e) => e.budget.id === budget.id && e.transition === "ok"), 5000, "budget:updated");
    const audit = await admin.api.admin.audit.query({ subjectId: agent.id });
    expect(audit.filter((e) => e.action === "budget.deleted").map((e) => e.data)).toMatchObject([
      { budgetId: budget.id, period: "day", unit: "usd", amount: 1 },
    ]);

    // No budget applies to the agent now: it may report a call of yesterday (the budgets that refuse
    // one are those a check settles), and spending past the old amount suspends nothing.
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
    expect((await agent.client.reportUsage({ model: "gpt-5", inputTokens: 1, outputTokens: 1, costUsd: 0.01, occurredAt: yesterday })).occurredAt).toBe(
      yesterday,
    );
    const past = await agent.client.reportUsage({ model: "gpt-5", inputTokens: 1, outputTokens: 1, costUsd: 3 });
    await budgetChecksDone(usageHeard, [past]);
    expect((await mia.api.agents.get.query({ agentId: agent.id })).status).toBe("active");
  });

  it("shows budget states to the budgeted person, the agent's owner and admins, and to no one else", async () => {
    const tag = dialect.slice(0, 2);
    const owner = await signUpPerson(server, { handle: `pillowner${tag}`, inviteToken: (await admin.api.workspace.createInvite.mutate({})).token });
    const stranger = await signUpPerson(server, { handle: `stranger${tag}`, inviteToken: (await admin.api.workspace.createInvite.mutate({})).token });
    const spender = await agentOf(owner, `spender-${dialect}`);
    const idle = await agentOf(owner, `idle-${dialect}`);
    const own = await admin.api.usage.setBudget.mutate({ subjectType: "agent", subjectId: spender.id, period: "day", unit: "usd", amount: 10 });
    const theirs = await admin.api.usage.setBudget.mutate({
      subjectType: "person",
      subjectId: owner.participantId,
      period: "month",
      unit: "tokens",
      amount: 100_000,
    });
    // 20% of the agent's $10 a day; 85% of its owner's 100k tokens a month.
    await spender.client.reportUsage({ model: "gpt-5", inputTokens: 50_000, outputTokens: 35_000, costUsd: 2 });
    const ids = [spender.id, idle.id, owner.participantId, stranger.participantId, admin.participantId];
    const shape = (states: Awaited<ReturnType<Person["api"]["usage"]["budgetStates"]["query"]>>) =>
      Object.fromEntries(states.map((s) => [s.participantId, { budget: s.budget.id, level: s.level, used: s.used, count: s.count }]));
    const expected = {
      // The pressing one of the two that apply: its owner's, at 85%.
      [spender.id]: { budget: theirs.id, level: "warned", used: 0.85, count: 2 },
      [idle.id]: { budget: theirs.id, level: "warned", used: 0.85, count: 1 },
      [owner.participantId]: { budget: theirs.id, level: "warned", used: 0.85, count: 1 },
    };
    expect(shape(await admin.api.usage.budgetStates.query({ participantIds: ids }))).toEqual(expected);
    expect(shape(await owner.api.usage.budgetStates.query({ participantIds: ids }))).toEqual(expected);
    expect(await stranger.api.usage.budgetStates.query({ participantIds: ids })).toEqual([]);
    expect(await mia.api.usage.budgetStates.query({ participantIds: ids })).toEqual([]);
    expect(await errorCode(admin.api.usage.budgetStates.query({ participantIds: Array.from({ length: 501 }, (_, i) => `p${i}`) }))).toBe("INVALID_PAYLOAD");

    // Past the agent's own $10: exceeded, and that one is now the pressing one.
    await spender.client.reportUsage({ model: "gpt-5", inputTokens: 1, outputTokens: 1, costUsd: 9 }).catch(() => null);
    const after = (await owner.api.usage.budgetStates.query({ participantIds: [spender.id] }))[0];
    expect(after).toMatchObject({ level: "exceeded", budget: { id: own.id, spent: 11 } });
    expect(after.used).toBeCloseTo(1.1, 4);
  });

  it("budgets a person's agents together, in tokens", async () => {
    const p = await signUpPerson(server, { handle: `pat${dialect.slice(0, 2)}`, inviteToken: (await admin.api.workspace.createInvite.mutate({})).token });
    const one = await agentOf(p, `one-${dialect}`);
    const two = await agentOf(p, `two-${dialect}`);
    await admin.api.usage.setBudget.mutate({ subjectType: "person", subjectId: p.participantId, period: "month", unit: "tokens", amount: 1000 });
    await one.client.reportUsage({ model: "gpt-5", inputTokens: 400, outputTokens: 100 });
    await two.client.reportUsage({ model: "gpt-5", inputTokens: 400, outputTokens: 100 });
    let statuses: string[] = [];
    await waitFor(
      () => statuses.join() === "suspended,suspended",
      5000,
      "both suspended",
      async () => {
        statuses = (await p.api.agents.mine.query()).map((a) => a.status).sort();
      },
    );
  });
});
