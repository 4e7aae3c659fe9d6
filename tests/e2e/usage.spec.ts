// The usage dashboard, live: a person opens /usage while two agents (driven by the SDK) report model
// calls; the totals and the chart move without a reload; the CSV export adds up to what the screen
// says; a room's detail shows each agent's share and how much people took part; a member's request to
// another person's agent shows as requested by her and owned by the agent's owner, filters to her cost,
// and exports as a column of the detail CSV; a budget crossing 80% and then 100% raises a banner, and
// shows as a pill on the agent's card and in the room's member list, live; an unpriced call is flagged
// as understating the spend; a budget is deleted; a price is added and removed; a member sees only
// their agents, or switches to what her requests cost.
import { mkdirSync, readFileSync } from "node:fs";
import { expect, test, type Page } from "./fixtures";
import { SwitchboardClient } from "@switchboard/sdk";
import type { RoomView, UsageView } from "@switchboard/sdk/contract";
import { addDays, formatUsd, todayUtc } from "../../components/usage/format";
import { people, signUpFirstOrSignIn, signUpWithInvite, trpc, type Person } from "./helpers";

const run = Date.now().toString(36).slice(-6);
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

interface Totals {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  calls: number;
}

/** What the dashboard's default view (last 30 days, UTC) adds up to right now, straight from the API. */
async function apiTotals(page: Page, from = addDays(todayUtc(), -29), to = todayUtc()): Promise<Totals> {
  const overview = await trpc<{ totals: Totals }>(page, "usage.overview", { from, to, bucket: "day" }, "query");
  return overview.totals;
}

async function createAgent(page: Page, handle: string, displayName: string) {
  return trpc<{ agent: { id: string; handle: string }; apiKey: string }>(page, "agents.create", {
    handle,
    displayName,
    description: `${displayName} for the usage dashboard test`,
    framework: "claude-code",
    capabilities: [],
  });
}

/** Splits one CSV line of quoted cells ("a","b",...). */
const cells = (line: string) => line.split(",").map((c) => c.replace(/^"|"$/g, "").replace(/""/g, '"'));

test("usage dashboard moves live with SDK reports, exports CSV that matches, and explains a room's cost", async ({ browser, baseURL }) => {
  test.setTimeout(360_000);
  mkdirSync("artifacts", { recursive: true });
  const clients: SwitchboardClient[] = [];
  const ctx = await browser.newContext({ acceptDownloads: true });
  const page = await ctx.newPage();
  const memberCtx = await browser.newContext({ acceptDownloads: true });
  const today = todayUtc();

  try {
    // ---- Setup: Alice (owner), two agents she owns, a channel with both in it.
    await signUpFirstOrSignIn(page, people.alice);
    const scout = await createAgent(page, `scout-${run}`, "Scout");
    const writer = await createAgent(page, `writer-${run}`, "Writer");
    const room = await trpc<RoomView>(page, "rooms.createChannel", {
      name: `launch-${run}`,
      visibility: "public",
      topic: "Shipping the launch",
      memberIds: [scout.agent.id, writer.agent.id],
    });
    const base = await apiTotals(page);
    const baseToday = await apiTotals(page, today, today);

    // ---- The dashboard is open before any of these reports.
    await page.goto("/usage");
    // In main: while React streams the page in, its server-rendered copy waits in a hidden div outside it.
    // Once that copy is gone, every test id below names one element.
    await expect(page.getByRole("main").getByTestId("usage-page")).toBeVisible();
    await expect(page.getByTestId("usage-page")).toHaveCount(1);
    await expect(page.getByTestId("usage-live")).toHaveAttribute("data-status", "live");
    if (base.calls === 0) {
      await expect(page.getByTestId("usage-empty")).toBeVisible();
      await expect(page.getByTestId("usage-snippet")).toContainText("reportUsage");
    } else {
      await expect(page.getByTestId("total-spend")).toHaveText(formatUsd(base.costUsd));
    }

    const scoutClient = new SwitchboardClient({ url: baseURL!, apiKey: scout.apiKey });
    const writerClient = new SwitchboardClient({ url: baseURL!, apiKey: writer.apiKey });
    clients.push(scoutClient, writerClient);
    await Promise.all([scoutClient.connect(), writerClient.connect()]);

    // ---- 1. One report moves the total and puts today's point on the chart, without a reload.
    const r1 = await scoutClient.reportUsage({
      model: "claude-sonnet-4.5",
      inputTokens: 12_000,
      outputTokens: 1_800,
      cachedTokens: 4_000,
      costUsd: 1.25,
      roomId: room.id,
      taskId: `launch-plan-${run}`,
    });
    expect(r1.costSource).toBe("reported");
    let expected = round6(base.costUsd + 1.25);
    await expect(page.getByTestId("total-spend")).toHaveText(formatUsd(expected));
    await expect(page.getByTestId("usage-dashboard")).toBeVisible();
    const todayRow = page.locator(`[data-testid="series-row"][data-bucket="${today}"]`);
    await expect(todayRow).toHaveCount(1);
    await expect.poll(async () => Number(await todayRow.getAttribute("data-cost"))).toBeCloseTo(baseToday.costUsd + 1.25, 6);
    await expect(page.locator(`[data-testid="chart-point"][data-bucket="${today}"]`)).toHaveCount(1);

    // ---- 2. More reports: one priced by the server, two on earlier days (new points on the chart).
    const pointsBefore = Number(await page.getByTestId("usage-chart").getAttribute("data-points"));
    const r2 = await writerClient.reportUsage({
      model: "claude-opus-4.1",
      inputTokens: 20_000,
      outputTokens: 4_000,
      cachedTokens: 8_000,
      roomId: room.id,
      taskId: `launch-plan-${run}`,
    });
    expect(r2.costSource).toBe("priced");
    const threeDaysAgo = addDays(today, -3);
    const sixDaysAgo = addDays(today, -6);
    const r3 = await scoutClient.reportUsage({
      model: "gpt-5",
      inputTokens: 30_000,
      outputTokens: 6_000,
      costUsd: 0.8,
      occurredAt: `${threeDaysAgo}T10:00:00.000Z`,
      taskId: `research-${run}`,
    });
    const r4 = await writerClient.reportUsage({
      model: "claude-haiku-4.5",
      inputTokens: 9_000,
      outputTokens: 2_500,
      costUsd: 0.35,
      roomId: room.id,
      occurredAt: `${sixDaysAgo}T15:30:00.000Z`,
    });
    expected = round6(expected + r2.costUsd + r3.costUsd + r4.costUsd);
    await expect(page.getByTestId("total-spend")).toHaveText(formatUsd(expected));
    await expect(page.locator(`[data-testid="chart-point"][data-bucket="${threeDaysAgo}"]`)).toHaveCount(1);
    await expect(page.locator(`[data-testid="chart-point"][data-bucket="${sixDaysAgo}"]`)).toHaveCount(1);
    await expect
      .poll(async () => Number(await page.getByTestId("usage-chart").getAttribute("data-points")))
      .toBeGreaterThanOrEqual(Math.min(pointsBefore + 2, 30));
    await expect(page.getByTestId("total-calls")).toHaveAttribute("data-value", String(base.calls + 4));
    await expect(page.getByTestId("tokens-input")).toHaveAttribute("data-value", String(base.inputTokens + 12_000 + 20_000 + 30_000 + 9_000));
    await expect(page.getByTestId("tokens-cached")).toHaveAttribute("data-value", String(base.cachedTokens + 4_000 + 8_000));
    await expect(page.getByTestId("top-agents").getByTestId("spender").first()).toBeVisible();

    // People and agents talk in the room: 3 messages by Alice, 5 by the agents.
    for (const body of ["Kicking off the launch plan", "Scout, can you check the competitors?", "Writer, draft the announcement"]) {
      await trpc(page, "messages.send", { roomId: room.id, body, clientMsgId: `alice-${run}-${body.length}-${body.slice(0, 6)}` });
    }
    await scoutClient.send(room.id, "Competitor scan done: three launches this month.");
    await scoutClient.send(room.id, "Pricing pages summarised in the doc.");
    await writerClient.send(room.id, "Draft one of the announcement is ready.");
    await writerClient.send(room.id, "Tightened the intro.");
    await writerClient.send(room.id, "Added the changelog link.");

    // ---- 3. CSV export of the view: a file whose totals equal the on-screen totals.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
    expect(download.suggestedFilename()).toMatch(/^usage-over-time-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), "utf8")
      .trim()
      .split("\n");
    expect(csv[0]).toBe("bucket,costUsd,inputTokens,outputTokens,cachedTokens,calls,unpricedCalls");
    const rows = csv.slice(1).map(cells);
    const sum = (i: number) => rows.reduce((s, r) => s + Number(r[i]), 0);
    expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining([today, threeDaysAgo, sixDaysAgo]));
    const screen = {
      spend: Number(await page.getByTestId("total-spend").getAttribute("data-value")),
      input: Number(await page.getByTestId("tokens-input").getAttribute("data-value")),
      output: Number(await page.getByTestId("tokens-output").getAttribute("data-value")),
      cached: Number(await page.getByTestId("tokens-cached").getAttribute("data-value")),
      calls: Number(await page.getByTestId("total-calls").getAttribute("data-value")),
    };
    expect(sum(1)).toBeCloseTo(screen.spend, 6);
    expect(formatUsd(round6(sum(1)))).toBe(await page.getByTestId("total-spend").innerText());
    expect(sum(2)).toBe(screen.input);
    expect(sum(3)).toBe(screen.output);
    expect(sum(4)).toBe(screen.cached);
    expect(sum(5)).toBe(screen.calls);

    // A breakdown's export too (by agent), same total.
    await page.getByTestId("breakdown-tab-agent").click();
    const [byAgent] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-breakdown").click()]);
    expect(byAgent.suggestedFilename()).toMatch(/^usage-by-agent-/);
    const agentRows = readFileSync(await byAgent.path(), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map(cells);
    expect(agentRows.reduce((s, r) => s + Number(r[2]), 0)).toBeCloseTo(screen.spend, 6);
    expect(agentRows.map((r) => r[1])).toEqual(expect.arrayContaining([scout.agent.id, writer.agent.id]));

    // ---- 4. A filter applies to every widget: only Scout's spend.
    await page.getByTestId("filter-agent").selectOption(scout.agent.id);
    await expect(page).toHaveURL(new RegExp(`agent=${scout.agent.id}`));
    await expect(page.getByTestId("total-spend")).toHaveText(formatUsd(1.25 + 0.8));
    await expect(page.getByTestId("total-calls")).toHaveText("2");
    await page.getByTestId("clear-filters").click();
    await expect(page.getByTestId("total-spend")).toHaveText(formatUsd(expected));

    // ---- 5. The room's detail: its cost, each agent's share, and the people share of messages.
    await page.getByTestId("breakdown-tab-room").click();
    const roomRow = page.locator(`[data-testid="breakdown-row"][data-kind="room"][data-id="${room.id}"]`);
    await expect(roomRow).toContainText(`launch-${run}`);
    await roomRow.getByTestId("breakdown-open").click();
    const detail = page.getByTestId("usage-detail");
    await expect(detail).toBeVisible();
    const roomCost = round6(1.25 + r2.costUsd + 0.35);
    await expect(detail.getByTestId("detail-cost")).toHaveText(formatUsd(roomCost));
    await expect(detail.getByTestId("detail-share")).toHaveCount(2);
    await expect(detail.getByTestId("people-messages")).toHaveText("3");
    await expect(detail.getByTestId("agent-messages")).toHaveText("5");
    await expect(detail.getByTestId("people-share")).toHaveText("38%");
    await expect(detail.getByTestId("involvement-verdict")).toHaveText("People took part");
    await detail.screenshot({ path: "artifacts/usage-room-detail.png" });
    await detail.getByRole("button", { name: "Close", exact: true }).last().click();
    await expect(detail).toBeHidden();

    // ---- 5b. Requested by: Bea, a member, asks Writer (Alice's agent); the call Writer reports while
    // handling her message is owned by Alice and requested by Bea.
    const aliceId = (await trpc<{ me: { id: string } }>(page, "workspace.me", undefined, "query")).me.id;
    const { token } = await trpc<{ token: string }>(page, "workspace.createInvite", {});
    const bea = await memberCtx.newPage();
    const beaPerson: Person = { name: "Bea Lindqvist", handle: `bea-${run}`, email: `bea-${run}@example.com`, password: "bea-password-123" };
    await signUpWithInvite(bea, `/invite/${token}`, beaPerson, people.alice.name);
    const beaId = (await trpc<{ me: { id: string } }>(bea, "workspace.me", undefined, "query")).me.id;
    const asking = await trpc<{ id: string }>(bea, "connections.request", { participantId: writer.agent.id, message: "questions about the launch" });
    await trpc(page, "connections.respond", { connectionId: asking.id, decision: "accept" });
    const asks = await trpc<RoomView>(page, "rooms.createChannel", { name: `asks-${run}`, visibility: "public", memberIds: [writer.agent.id, beaId] });
    const beaCall = new Promise<UsageView>((resolve) => {
      writerClient.onMessage(async (m, handling) => {
        if (m.author.id === beaId) resolve(await handling.reportUsage({ model: "claude-sonnet-4.5", inputTokens: 5_000, outputTokens: 600, costUsd: 0.6 }));
      });
    });
    await trpc(bea, "messages.send", { roomId: asks.id, body: `@writer-${run} what will the launch cost?`, clientMsgId: `bea-${run}` });
    expect(await beaCall).toMatchObject({ ownerId: aliceId, requesterId: beaId });
    expected = round6(expected + 0.6);
    await expect(page.getByTestId("total-spend")).toHaveText(formatUsd(expected));
    await expect(page.locator(`[data-testid="top-requesters"] [data-testid="spender"][data-id="${beaId}"]`)).toHaveAttribute("data-cost", "0.6");
    await expect(page.locator(`[data-testid="top-people"] [data-testid="spender"][data-id="${beaId}"]`)).toHaveCount(0);
    await page.getByTestId("breakdown-tab-person").click();
    await expect(page.locator(`[data-testid="breakdown-row"][data-kind="person"][data-id="${aliceId}"]`)).toBeVisible();
    await page.getByTestId("breakdown-tab-requester").click();
    await expect(page.locator(`[data-testid="breakdown-row"][data-kind="requester"][data-id="${beaId}"] [data-testid="breakdown-cost"]`)).toHaveAttribute(
      "data-value",
      "0.6",
    );
    await page.getByTestId("top-spenders").screenshot({ path: "docs/screenshots/usage-requested-by.png" });

    // A manager reads what Bea's requests cost: totals, by agent, by model; and every dimension as CSV.
    await page.getByTestId("filter-requester").selectOption(beaId);
    await expect(page).toHaveURL(new RegExp(`requester=${beaId}`));
    await expect(page.getByTestId("total-spend")).toHaveText(formatUsd(0.6));
    await page.getByTestId("breakdown-tab-agent").click();
    await expect(page.locator('[data-testid="breakdown-row"][data-kind="agent"]')).toHaveAttribute("data-id", writer.agent.id);
    await page.getByTestId("breakdown-tab-model").click();
    await expect(page.locator('[data-testid="breakdown-row"][data-kind="model"]')).toHaveAttribute("data-id", "claude-sonnet-4.5");
    const [detailCsv] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-detail").click()]);
    expect(detailCsv.suggestedFilename()).toMatch(/^usage-all-dimensions-/);
    const [head, ...detailRows] = readFileSync(await detailCsv.path(), "utf8")
      .trim()
      .split("\n")
      .map(cells);
    const column = (row: string[], name: string) => row[head.indexOf(name)];
    expect(head).toEqual(expect.arrayContaining(["agentId", "ownedBy", "ownerId", "requestedBy", "requesterId", "costUsd"]));
    expect(detailRows).toHaveLength(1);
    expect(column(detailRows[0], "requestedBy")).toBe(`Bea Lindqvist (@bea-${run})`);
    expect([
      column(detailRows[0], "requesterId"),
      column(detailRows[0], "ownerId"),
      column(detailRows[0], "agentId"),
      Number(column(detailRows[0], "costUsd")),
    ]).toEqual([beaId, aliceId, writer.agent.id, 0.6]);
    await page.getByTestId("clear-filters").click();
    await expect(page.getByTestId("total-spend")).toHaveText(formatUsd(expected));

    // ---- 6. Budgets: Writer gets a comfortable monthly budget; Scout a daily one already past 80%,
    // which raises a live banner; one more call past 100% suspends Scout and says so.
    await setBudget(page, writer.agent.id, { period: "month", unit: "usd", amount: "50" });
    await expect(page.locator(`[data-testid="budget-row"][data-subject="${writer.agent.id}"]`)).toHaveAttribute("data-state", "ok");
    await setBudget(page, scout.agent.id, { period: "day", unit: "usd", amount: "1.5" });
    const scoutBudget = page.locator(`[data-testid="budget-row"][data-subject="${scout.agent.id}"]`);
    await expect(scoutBudget).toHaveAttribute("data-state", "warned");
    await expect(page.getByTestId("budget-alert").filter({ hasText: `@scout-${run} reached 80% of its daily budget` })).toBeVisible();

    const r5 = await scoutClient.reportUsage({ model: "claude-sonnet-4.5", inputTokens: 8_000, outputTokens: 900, costUsd: 0.4, roomId: room.id });
    expected = round6(expected + r5.costUsd);
    await expect(page.getByTestId("total-spend")).toHaveText(formatUsd(expected));
    await expect(scoutBudget).toHaveAttribute("data-state", "exceeded");
    await expect(page.getByTestId("budget-alert").filter({ hasText: `@scout-${run} reached its daily budget` })).toContainText("suspended");
    await expect(page.locator(`[data-testid="top-agents"] [data-testid="spender"][data-id="${scout.agent.id}"]`).getByTestId("agent-suspended")).toBeVisible();

    // ---- 6b. A call with no price and no cost counts as $0, and the dashboard says the spend is understated.
    const unpricedBefore = Number(
      (await page
        .getByTestId("unpriced-notice")
        .getAttribute("data-calls", { timeout: 1000 })
        .catch(() => null)) ?? 0,
    );
    await writerClient.reportUsage({ model: `mystery-model-${run}`, inputTokens: 3_000, outputTokens: 700, roomId: room.id });
    await expect(page.getByTestId("unpriced-notice")).toHaveAttribute("data-calls", String(unpricedBefore + 1));
    await expect(page.getByTestId("unpriced-notice")).toContainText(`mystery-model-${run}`);
    await expect(page.getByTestId("total-spend")).toHaveText(formatUsd(expected));
    await expect(page.getByTestId("unpriced-models")).toContainText(`mystery-model-${run}`);

    // ---- 6c. Budget state beside the agents: on their cards (/agents) and in the room's member list.
    const agentsPage = await ctx.newPage();
    await agentsPage.goto("/agents");
    const pill = (handle: string) => agentsPage.locator(`[data-testid="agent-card"][data-handle="${handle}"] [data-testid="budget-pill"]`);
    await expect(pill(`scout-${run}`)).toHaveAttribute("data-level", "exceeded");
    await expect(pill(`scout-${run}`)).toContainText(/budget 1\d\d% of \$1\.50\/day/);
    await expect(pill(`writer-${run}`)).toHaveAttribute("data-level", "ok");
    await expect(pill(`writer-${run}`)).toContainText("of $50/month");
    await agentsPage.goto(`/r/${room.id}`);
    await agentsPage.getByTestId("toggle-members").click();
    const memberPill = agentsPage.locator(`[data-testid="member"][data-handle="scout-${run}"] [data-testid="budget-pill"]`);
    await expect(memberPill).toHaveAttribute("data-level", "exceeded");
    await agentsPage.getByTestId("members-panel").screenshot({ path: "artifacts/usage-members-budget.png" });
    // Live: Writer spends toward its monthly budget and its pill follows without a reload.
    const writerPill = agentsPage.locator(`[data-testid="member"][data-handle="writer-${run}"] [data-testid="budget-pill"]`);
    const usedBefore = Number(await writerPill.getAttribute("data-used"));
    await writerClient.reportUsage({ model: "claude-haiku-4.5", inputTokens: 1_000, outputTokens: 100, costUsd: 5, roomId: room.id });
    expected = round6(expected + 5);
    await expect.poll(async () => Number(await writerPill.getAttribute("data-used"))).toBeCloseTo(usedBefore + 0.1, 3);
    // And in the admin page's table of every agent, beside the kill switch.
    await agentsPage.goto("/admin");
    await agentsPage.getByTestId("tab-agents").click();
    const adminPill = agentsPage.locator(`[data-testid="admin-agent-row"][data-handle="scout-${run}"] [data-testid="budget-pill"]`);
    await expect(adminPill).toHaveAttribute("data-level", "exceeded");
    await agentsPage.close();

    // Screenshot of the whole dashboard: a viewport as tall as the page (it scrolls inside its frame).
    await expect(page.getByTestId("toast")).toHaveCount(0);
    const height = await page
      .getByRole("main")
      .getByTestId("usage-page")
      .evaluate((el) => 56 + (el.querySelector(".overflow-y-auto")?.scrollHeight ?? 2000));
    await page.setViewportSize({ width: 1440, height: Math.min(4000, height) });
    await page.getByTestId("breakdown-tab-room").click();
    await expect(page.locator('[data-testid="chart-point"]').first()).toBeVisible();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: "artifacts/usage-dashboard.png" });
    await page.setViewportSize({ width: 1440, height: 900 });

    // ---- 6d. An admin deletes Writer's budget: it leaves the list.
    const writerBudget = page.locator(`[data-testid="budget-row"][data-subject="${writer.agent.id}"]`);
    await writerBudget.getByTestId("delete-budget").click();
    await writerBudget.getByTestId("delete-budget-confirm").click();
    await expect(writerBudget).toHaveCount(0);
    await expect(page.locator(`[data-testid="budget-row"][data-subject="${scout.agent.id}"]`)).toHaveCount(1);

    // ---- 7. Prices: an admin adds a model's price and removes it again.
    const model = `house-model-${run}`;
    await page.getByTestId("add-price").click();
    await page.getByTestId("price-model").fill(model);
    await page.getByTestId("price-inputPerMTok").fill("2");
    await page.getByTestId("price-outputPerMTok").fill("8");
    await page.getByTestId("price-cachedPerMTok").fill("0.2");
    await page.getByTestId("price-save").click();
    const priceRow = page.locator(`[data-testid="price-row"][data-model="${model}"]`);
    await expect(priceRow).toContainText("$2.00");
    await expect(priceRow).toContainText("$8.00");

    await priceRow.getByTestId("price-delete").click();
    await priceRow.getByTestId("price-delete-confirm").click();
    await expect(priceRow).toHaveCount(0);

    // ---- 8. A member sees only their own agents' usage (Bea owns none), and the page says so; her
    // requests are a switch away: what Writer cost handling them, owned by Alice.
    await bea.goto("/usage");
    await expect(bea.getByTestId("member-scope")).toContainText("agents you own");
    await expect(bea.getByTestId("usage-empty")).toBeVisible();
    await expect(bea.getByTestId("filter-person")).toHaveCount(0);
    await expect(bea.getByTestId("open-budget-form")).toHaveCount(0);
    await expect(bea.getByTestId("add-price")).toHaveCount(0);
    await bea.getByTestId("usage-view-requests").click();
    await expect(bea).toHaveURL(new RegExp(`requester=${beaId}`));
    await expect(bea.getByTestId("member-scope")).toContainText("what your requests cost");
    await expect(bea.getByTestId("total-spend")).toHaveText(formatUsd(0.6));
    await expect(bea.locator(`[data-testid="top-agents"] [data-testid="spender"][data-id="${writer.agent.id}"]`)).toBeVisible();
    await expect(bea.locator(`[data-testid="top-people"] [data-testid="spender"][data-id="${aliceId}"]`)).toBeVisible();
    await expect(bea.getByTestId("filter-requester")).toHaveCount(0);
    // Back with the keyboard.
    await bea.getByTestId("usage-view-requests").press("ArrowLeft");
    await expect(bea.getByTestId("usage-empty")).toBeVisible();
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await memberCtx.close();
    await ctx.close();
  }
});

async function setBudget(page: Page, agentId: string, b: { period: "day" | "month"; unit: "usd" | "tokens"; amount: string }) {
  await page.getByTestId("open-budget-form").click();
  const dialog = page.getByTestId("budget-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("budget-subject-type-agent").click();
  await dialog.getByTestId("budget-subject").selectOption(agentId);
  await dialog.getByTestId(`budget-period-${b.period}`).click();
  await dialog.getByTestId(`budget-unit-${b.unit}`).click();
  await dialog.getByTestId("budget-amount").fill(b.amount);
  await dialog.getByTestId("budget-submit").click();
  await expect(dialog).toBeHidden();
}
