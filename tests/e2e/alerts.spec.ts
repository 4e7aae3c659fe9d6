// Alerts where people are: with Alice reading a room, her agent's budget crossing 80% and then running
// out, another agent of hers suspended, and a person accepting her connection request each reach her
// as a toast in that room, linking to the page that says more. The exceeded budget's suspension is
// said once. On the page that shows it live (Usage), the toast stays away. The Inbox lists them after.
import { randomUUID } from "node:crypto";
import { SwitchboardClient } from "@switchboard/sdk";
import type { RoomView } from "@switchboard/sdk/contract";
import { expect, test } from "./fixtures";
import { people, signUpFirstOrSignIn, signUpWithInvite, trpc, type Person } from "./helpers";

const run = randomUUID().slice(0, 6);

test("budget warnings, suspensions and decided connection requests reach the person on any page", async ({ page, browser, baseURL }) => {
  await signUpFirstOrSignIn(page, people.alice);
  const createAgent = (handle: string) =>
    trpc<{ agent: { id: string; handle: string }; apiKey: string }>(page, "agents.create", {
      handle,
      displayName: handle,
      description: "",
      framework: "script",
      capabilities: [],
    });
  const spender = await createAgent(`spender-${run}`);
  const other = await createAgent(`other-${run}`);
  const room = await trpc<RoomView>(page, "rooms.createChannel", { name: `alerts-${run}`, visibility: "public", memberIds: [] });
  await page.goto(`/r/${room.id}`);
  await expect(page.getByTestId("room-title")).toHaveText(`alerts-${run}`);
  const toast = (text: string) => page.getByTestId("toast").filter({ hasText: text });

  // A daily budget of $1: 90 cents warns, 20 more runs it out (and suspends the agent: said once).
  await trpc(page, "usage.setBudget", { subjectType: "agent", subjectId: spender.agent.id, period: "day", unit: "usd", amount: 1 });
  const client = new SwitchboardClient({ url: baseURL!, apiKey: spender.apiKey });
  await client.connect();
  try {
    await client.reportUsage({ model: "claude-sonnet-4.5", inputTokens: 1000, outputTokens: 100, costUsd: 0.9 });
    await expect(toast(`@spender-${run} reached 80% of its daily budget`)).toHaveAttribute("data-tone", "warning");
    await client.reportUsage({ model: "claude-sonnet-4.5", inputTokens: 1000, outputTokens: 100, costUsd: 0.2 });
    await expect(toast(`@spender-${run} reached its daily budget`)).toContainText("was suspended");
  } finally {
    await client.close();
  }
  await expect(page.getByTestId("toast").filter({ hasText: `@spender-${run} was suspended:` })).toHaveCount(0);

  // Another agent suspended (here by Alice over the API, as an admin's kill switch would): the toast
  // links to the Agents page.
  await trpc(page, "agents.suspend", { agentId: other.agent.id, reason: "alerts test" });
  const suspended = toast(`@other-${run} was suspended`);
  await expect(suspended).toBeVisible();
  await suspended.getByRole("link", { name: "Open Agents" }).click();
  await expect(page).toHaveURL(/\/agents$/);

  // A person of the workspace owns an agent; Alice asks to connect with it; its owner accepts.
  const omar: Person = { name: `Omar ${run}`, handle: `omar-${run}`, email: `omar-${run}@example.com`, password: "omar-password-12" };
  const { token } = await trpc<{ token: string }>(page, "workspace.createInvite", { role: "member", expiresInDays: 1 });
  const omarContext = await browser.newContext();
  const omarPage = await omarContext.newPage();
  await signUpWithInvite(omarPage, `/invite/${token}`, omar, people.alice.name);
  const helper = await trpc<{ agent: { id: string } }>(omarPage, "agents.create", {
    handle: `helper-${run}`,
    displayName: "Helper",
    description: "",
    framework: "script",
    capabilities: [],
  });
  // Alice is still on Agents (a client-side navigation: her connection stayed up all along).
  const request = await trpc<{ id: string }>(page, "connections.request", { participantId: helper.agent.id, message: "Can we work together?" });
  await trpc(omarPage, "connections.respond", { connectionId: request.id, decision: "accept" });
  const accepted = toast(`Omar ${run} accepted your request to connect with @helper-${run}.`);
  await expect(accepted).toHaveAttribute("data-tone", "success");
  await expect(accepted.getByRole("link", { name: "Open inbox" })).toHaveAttribute("href", /^\/w\/[^/]+\/inbox$/);

  // The Inbox keeps them, newest first, for when the toast is gone.
  await accepted.getByRole("link", { name: "Open inbox" }).click();
  await page.getByTestId("tab-alerts").click();
  await expect(page.getByTestId("alert-row")).toHaveText([
    new RegExp(`@omar-${run} accepted your request to connect with @helper-${run}\\.`),
    new RegExp(`@other-${run} was suspended by you: alerts test`),
    new RegExp(`@spender-${run} reached its daily budget \\(\\$1\\.10 of \\$1\\.00\\) and was suspended`),
    new RegExp(`@spender-${run} reached 80% of its daily budget`),
  ]);
});
