import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { closeAgentClients, closeSockets, collect, connectedAgent, dialects, errorCode, queryDb, signUpPerson, startTestServer, waitFor, type Person, type TestServer } from "./harness";

const DAYS = ["2026-11-20", "2026-11-21", "2026-11-23", "2026-11-28"];
const today = () => new Date().toISOString().slice(0, 10);

describe.each(dialects)("usage and cost on %s", (dialect) => {
  let server: TestServer;
  let admin: Person;
  let mia: Person;

  const agentOf = (owner: Person, handle: string) => connectedAgent(server, owner, handle);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await signUpPerson(server, { handle: "ada" });
    mia = await signUpPerson(server, { handle: "mia", inviteToken: (await admin.api.workspace.createInvite.mutate({})).token });
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
          await agent.client.reportUsage({ model: i % 2 ? "gpt-5" : "claude-sonnet-4.5", inputTokens: input, outputTokens: output, costUsd: cost, taskId: task, roomId: inRoom, occurredAt: `${day}T1${i}:00:00Z` });
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
    const csvTotal = csv.trim().split("\n").slice(1).reduce((s, line) => s + Number(line.split(",")[2].replace(/"/g, "")), 0);
    expect(csvTotal).toBeCloseTo(overview.totals.costUsd, 6);
  });

  it("is idempotent per reportId, prices from the table, and lets the message carry its usage", async () => {
    const agent = await agentOf(admin, `pricey-${dialect}`);
    const reportId = randomUUID();
    const first = await agent.client.reportUsage({ reportId, model: "claude-sonnet-4.5", inputTokens: 1_000_000, outputTokens: 100_000, cachedTokens: 200_000 });
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

    const room = await admin.api.rooms.createChannel.mutate({ name: `carry-${dialect}`, visibility: "private", memberIds: [agent.id] });
    const watcher = collect(await admin.socket(), "message:updated");
    const live = collect(await admin.socket(), "usage:recorded");
    const said = await agent.client.send(room.id, "here is my answer");
    await agent.client.reportUsage({ model: "gpt-5", inputTokens: 100, outputTokens: 50, costUsd: 0.25, messageId: said.id });
    await waitFor(() => watcher.some((e) => e.message.id === said.id), 5000, "message update");
    expect((watcher.find((e) => e.message.id === said.id)!.message.data as { usage: unknown }).usage).toEqual({ inputTokens: 100, outputTokens: 50, costUsd: 0.25 });
    await waitFor(() => live.some((e) => e.usage.messageId === said.id), 5000, "live usage");
    const roomView = await admin.api.usage.room.query({ roomId: room.id, from: today(), to: today() });
    expect(roomView.totals.costUsd).toBeCloseTo(0.25, 9);
    expect(roomView.shares).toMatchObject([{ id: agent.id, share: 1 }]);
    expect(roomView.involvement).toMatchObject({ agents: 1, people: 0 });
  });

  it("warns at 80% and suspends at 100%, once each, even with reports racing across the threshold", async () => {
    const agent = await agentOf(mia, `budgeted-${dialect}`);
    const miaEvents = collect(await mia.socket(), "budget:updated");
    expect(await errorCode(mia.api.usage.setBudget.mutate({ subjectType: "agent", subjectId: agent.id, period: "day", unit: "usd", amount: 1 }))).toBe("FORBIDDEN");
    await admin.api.usage.setBudget.mutate({ subjectType: "agent", subjectId: agent.id, period: "day", unit: "usd", amount: 1 });
    await agent.client.reportUsage({ model: "gpt-5", inputTokens: 1, outputTokens: 1, costUsd: 0.5 });
    // Two reports race across 80%.
    await Promise.all([0.2, 0.2].map((costUsd) => agent.client.reportUsage({ model: "gpt-5", inputTokens: 1, outputTokens: 1, costUsd })));
    await waitFor(() => miaEvents.some((e) => e.transition === "warned"), 5000, "warning");
    expect((await mia.api.usage.budgets.query()).find((b) => b.subjectId === agent.id)).toMatchObject({ state: "warned", spent: 0.9 });
    expect((await mia.api.agents.get.query({ agentId: agent.id })).status).toBe("active");
    // Two more race across 100%.
    await Promise.all([0.1, 0.1].map((costUsd) => agent.client.reportUsage({ model: "gpt-5", inputTokens: 1, outputTokens: 1, costUsd }).catch(() => null)));
    await waitFor(() => miaEvents.some((e) => e.transition === "exceeded"), 5000, "exceeded");
    await new Promise((r) => setTimeout(r, 300)); // a second transition, if any, would arrive now
    expect(miaEvents.filter((e) => e.transition === "warned")).toHaveLength(1);
    expect(miaEvents.filter((e) => e.transition === "exceeded")).toHaveLength(1);
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

  it("budgets a person's agents together, in tokens", async () => {
    const p = await signUpPerson(server, { handle: `pat${dialect.slice(0, 2)}`, inviteToken: (await admin.api.workspace.createInvite.mutate({})).token });
    const one = await agentOf(p, `one-${dialect}`);
    const two = await agentOf(p, `two-${dialect}`);
    await admin.api.usage.setBudget.mutate({ subjectType: "person", subjectId: p.participantId, period: "month", unit: "tokens", amount: 1000 });
    await one.client.reportUsage({ model: "gpt-5", inputTokens: 400, outputTokens: 100 });
    await two.client.reportUsage({ model: "gpt-5", inputTokens: 400, outputTokens: 100 });
    let statuses: string[] = [];
    await waitFor(() => statuses.join() === "suspended,suspended", 5000, "both suspended", async () => {
      statuses = (await p.api.agents.mine.query()).map((a) => a.status).sort();
    });
  });
});
