// An agent asks a person and waits: the real SDK (`SwitchboardClient.ask`) from this process, the
// person in the browser. The Needs-you badge and page, the card in the room for each kind of control
// (a choice, an approval with a comment, a form with a validation error, a cancel), and the answer
// arriving in the agent's `ask()`. Screenshots of the card and the page go to docs/screenshots/.
import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "./fixtures";
import { SwitchboardClient } from "@switchboard/sdk";
import type { RoomView } from "@switchboard/sdk/contract";
import { createInviteLink, people, signUpFirstOrSignIn, signUpWithInvite, trpc } from "./helpers";

const SHOTS = "docs/screenshots";

/** An agent of the signed-in person, connected with the SDK, in a new channel with `memberIds`. */
async function agentIn(page: Page, url: string, handle: string, displayName: string, roomName: string, memberIds: string[] = []) {
  const { agent, apiKey } = await trpc<{ agent: { id: string }; apiKey: string }>(page, "agents.create", {
    handle,
    displayName,
    description: "Ships releases when a person says so.",
    framework: "claude-code",
    capabilities: ["deploys"],
  });
  const room = await trpc<RoomView>(page, "rooms.createChannel", {
    name: roomName,
    visibility: "public",
    topic: "Releases and rollbacks",
    memberIds: [agent.id, ...memberIds],
  });
  const client = new SwitchboardClient({ url, apiKey });
  await client.connect();
  return { client, room };
}

test("an agent asks its owner and waits; the answer comes from Needs you and from the card in the room", async ({ browser, baseURL }) => {
  mkdirSync(SHOTS, { recursive: true });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 2 });
  const page = await ctx.newPage();
  await signUpFirstOrSignIn(page, people.alice);
  const { client: agent, room } = await agentIn(page, baseURL!, "deploy-bot", "Deploy Bot", "deploys");

  try {
    await expect(page.getByTestId("nav-needs-you")).toBeVisible();
    await expect(page.getByTestId("needs-you-badge")).toHaveCount(0);

    // ---- 1. A single choice, answered from Needs you.
    const asked = agent.ask(room.id, {
      prompt: "Which region should I deploy **v2.4.0** to first?",
      kind: "single",
      options: [
        { value: "eu", label: "Europe (eu-west-1)" },
        { value: "us", label: "US (us-east-1)" },
        { value: "ap", label: "Asia Pacific" },
      ],
      audience: { type: "owner" },
    });
    await expect(page.getByTestId("needs-you-badge")).toHaveText("1");
    await page.getByTestId("nav-needs-you").click();
    await page.waitForURL(/\/needs-you$/);
    const item = page.getByTestId("needs-you-item");
    await expect(item).toHaveCount(1);
    await expect(item.getByTestId("question-prompt")).toContainText("Which region should I deploy v2.4.0 to first?");
    await expect(item.getByTestId("question-audience")).toHaveText("for you");
    await expect(item.getByTestId("question-room-link")).toHaveText("#deploys");
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SHOTS}/needs-you.png` });

    await item.locator('[data-testid="question-option"][data-value="us"]').click();
    const outcome = await asked;
    expect(outcome).toMatchObject({ status: "answered", answer: { choice: "us" }, answeredBy: { handle: "alice" } });
    await expect(page.getByTestId("needs-you-badge")).toHaveCount(0);
    const done = page.getByTestId("needs-you-done").getByTestId("question-outcome");
    await expect(done).toContainText("Answered by you");
    await expect(done).toContainText("US (us-east-1)");
    await expect(page.getByTestId("needs-you-empty")).toContainText("Nothing needs you right now");

    // The card in the room shows the outcome; the outcome event is one line that leads back to it.
    await page.getByTestId("needs-you-done").getByTestId("question-room-link").click();
    await page.waitForURL(new RegExp(`/r/${room.id}$`));
    const card = page.locator(`[data-testid="question-card"][data-question-id="${outcome.question.id}"]`);
    await expect(card).toHaveAttribute("data-status", "answered");
    await expect(card.getByTestId("question-outcome-headline")).toHaveText("Answered by you");
    const line = page.locator('[data-testid="question-outcome-line"][data-outcome="question.answered"]');
    await expect(line).toContainText("Alice Moreau answered Deploy Bot's question: US (us-east-1)");

    // ---- 2. An approval, answered with a comment from the card in the room, with its countdown.
    const approval = agent.ask(room.id, {
      prompt: "CI is green on `main`. Deploy **v2.4.0** to production?",
      kind: "approval",
      audience: { type: "owner" },
      expiresInSeconds: 600,
    });
    await expect(page.getByTestId("needs-you-badge")).toHaveText("1");
    const open = page.locator('[data-testid="question-card"][data-kind="approval"]');
    await expect(open).toHaveAttribute("data-can-answer", "true");
    await expect(open.getByTestId("question-countdown")).toHaveText(/declines in (10|9) min/);
    await page.mouse.move(0, 0);
    await open.screenshot({ path: `${SHOTS}/question-card-open.png` });
    await open.getByTestId("question-comment").fill("ship it");
    await open.getByTestId("question-approve").click();
    expect(await approval).toMatchObject({ status: "answered", answer: { approved: true, comment: "ship it" } });
    await expect(open.getByTestId("question-outcome-headline")).toHaveText("Approved by you");
    await expect(open.getByTestId("question-outcome-detail")).toHaveText("ship it");
    await expect(open.getByTestId("question-countdown")).toHaveCount(0);
    await expect(page.getByTestId("needs-you-badge")).toHaveCount(0);
    await open.screenshot({ path: `${SHOTS}/question-card-answered.png` });
    // "View question" brings the card back into view.
    await page.locator('[data-testid="question-outcome-line"][data-outcome="question.answered"]').last().getByTestId("question-outcome-jump").click();
    await expect(open).toBeInViewport();

    // ---- 3. A form: a value out of bounds is refused on its field, then fixed.
    const form = agent.ask(room.id, {
      prompt: "Canary settings for the rollout:",
      kind: "form",
      fields: [
        { name: "version", label: "Version", type: "string", required: true, minLength: 3 },
        { name: "canary", label: "Canary share (%)", type: "integer", required: true, min: 0, max: 100 },
        {
          name: "channel",
          label: "Channel",
          type: "enum",
          options: [
            { value: "beta", label: "Beta" },
            { value: "stable", label: "Stable" },
          ],
        },
        { name: "notify", label: "Tell the team when done", type: "boolean" },
      ],
      audience: { type: "owner" },
    });
    const formCard = page.locator('[data-testid="question-card"][data-kind="form"]');
    await expect(formCard).toHaveAttribute("data-can-answer", "true");
    await formCard.locator('[data-field="version"][data-testid="question-field"]').fill("2.4.0");
    const canary = formCard.locator('[data-field="canary"][data-testid="question-field"]');
    await canary.fill("150");
    await formCard.locator('[data-field="channel"][data-testid="question-field"]').selectOption("beta");
    await formCard.locator('[data-field="notify"][data-testid="question-field"]').check();
    await canary.press("Enter");
    await expect(formCard.locator('[data-testid="question-field-error"][data-field="canary"]')).toHaveText("at most 100");
    await expect(canary).toBeFocused();
    await expect(formCard).toHaveAttribute("data-status", "open");
    await canary.fill("10");
    await expect(formCard.getByTestId("question-field-error")).toHaveCount(0);
    await canary.press("Enter");
    expect(await form).toMatchObject({ status: "answered", answer: { values: { version: "2.4.0", canary: 10, channel: "beta", notify: true } } });
    const values = formCard.getByTestId("question-outcome-values");
    await expect(values.locator('[data-field="canary"]')).toHaveText("10");
    await expect(values.locator('[data-field="channel"]')).toHaveText("Beta");
    await expect(values.locator('[data-field="notify"]')).toHaveText("Yes");

    // ---- 4. The owner may take a question back: Cancel on the card.
    const text = agent.ask(room.id, { prompt: "Anything I should say in the release notes?", kind: "text", audience: { type: "owner" } });
    const textCard = page.locator('[data-testid="question-card"][data-kind="text"]');
    await expect(textCard.getByTestId("question-text")).toBeVisible();
    await textCard.getByTestId("question-cancel").click();
    expect(await text).toMatchObject({ status: "cancelled", answer: null });
    await expect(textCard.getByTestId("question-outcome-headline")).toHaveText("Cancelled");
    await expect(page.locator('[data-testid="question-outcome-line"][data-outcome="question.cancelled"]')).toContainText("Deploy Bot's question was cancelled");
    await expect(page.getByTestId("needs-you-badge")).toHaveCount(0);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SHOTS}/questions-in-room.png` });
  } finally {
    await agent.close();
    await ctx.close();
  }
});

test("a question for anyone in the room: the first person answers, everyone else's card and badge follow live", async ({ browser, baseURL }) => {
  const ctxA = await browser.newContext();
  const ctxM = await browser.newContext();
  const a = await ctxA.newPage();
  const m = await ctxM.newPage();
  await signUpFirstOrSignIn(a, people.alice);
  await signUpWithInvite(m, await createInviteLink(a), people.nina, people.alice.name);
  const participants = await trpc<{ id: string; handle: string }[]>(a, "workspace.participants", undefined, "query");
  const nina = participants.find((p) => p.handle === "nina")!;
  const { client: bot, room } = await agentIn(a, baseURL!, "triage-bot", "Triage Bot", "incidents", [nina.id]);
  try {
    await a.goto(`/r/${room.id}`);
    await m.goto(`/r/${room.id}`);
    const asked = bot.ask(room.id, {
      prompt: "Pager fired for `checkout-api`. Who takes it?",
      kind: "single",
      options: [
        { value: "me", label: "I'll take it" },
        { value: "later", label: "After standup" },
      ],
      audience: { type: "room" },
    });
    for (const page of [a, m]) {
      await expect(page.getByTestId("needs-you-badge")).toHaveText("1");
      const card = page.locator('[data-testid="question-card"][data-kind="single"]');
      await expect(card.getByTestId("question-audience")).toHaveText("for anyone here");
      await expect(card).toHaveAttribute("data-can-answer", "true");
    }
    // Nina answers with the keyboard: Tab reaches the options, Enter picks one.
    const mine = m.locator('[data-testid="question-card"][data-kind="single"]');
    await mine.locator('[data-testid="question-option"][data-value="me"]').focus();
    await m.keyboard.press("Enter");
    expect(await asked).toMatchObject({ status: "answered", answer: { choice: "me" }, answeredBy: { handle: "nina" } });
    await expect(mine.getByTestId("question-outcome-headline")).toHaveText("Answered by you");
    // Alice did nothing: her card and badge follow.
    const hers = a.locator('[data-testid="question-card"][data-kind="single"]');
    await expect(hers.getByTestId("question-outcome-headline")).toHaveText("Answered by @nina");
    await expect(hers.getByTestId("question-outcome-detail")).toHaveText("I'll take it");
    await expect(hers.getByTestId("question-options")).toHaveCount(0);
    await expect(a.getByTestId("needs-you-badge")).toHaveCount(0);
    await expect(m.getByTestId("needs-you-badge")).toHaveCount(0);
  } finally {
    await bot.close();
    await Promise.all([ctxA.close(), ctxM.close()]);
  }
});

test("an owner makes an agent ask first: ticked on the Agents page, the agent's request waits until it is approved from Needs you", async ({
  browser,
  baseURL,
}) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await signUpFirstOrSignIn(page, people.alice);
  const { client: agent } = await agentIn(page, baseURL!, "outreach-bot", "Outreach Bot", "outreach");
  const { agent: peer } = await trpc<{ agent: { id: string } }>(page, "agents.create", {
    handle: "peer-bot",
    displayName: "Peer Bot",
    description: "",
    framework: "script",
    capabilities: [],
  });
  try {
    await page.goto("/agents");
    const card = page.locator('[data-testid="agent-card"][data-handle="outreach-bot"]');
    const ask = card.getByTestId("approval-connection.request");
    await ask.click(); // a controlled checkbox: checked once the change is applied (optimistically), so poll
    await expect(ask).toBeChecked();
    await expect(page.getByText("@outreach-bot: approvals saved")).toBeVisible();
    await page.reload();
    await expect(card.getByTestId("approval-connection.request")).toBeChecked(); // stored, not only shown

    const requested = agent.requestConnection(peer.id, { message: "let's review together" });
    await expect(page.getByTestId("needs-you-badge")).toHaveText("1");
    await page.getByTestId("nav-needs-you").click();
    const item = page.getByTestId("needs-you-item").filter({ hasText: "May I ask @peer-bot to connect" });
    await item.getByTestId("question-approve").click();
    expect(await requested).toMatchObject({ status: "pending", addressee: { handle: "peer-bot" } });
    await expect(page.getByTestId("needs-you-badge")).toHaveCount(0);
  } finally {
    await agent.close();
    await ctx.close();
  }
});
