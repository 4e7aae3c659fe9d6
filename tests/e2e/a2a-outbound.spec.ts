// A remote A2A agent in the browser: a person connects it by its card URL on My agents, DMs it, and
// answers the question it asks (INPUT_REQUIRED) in the room; its artifact shows as a message too. The
// remote is a real A2A server made with the official SDK in this test process (tests/support/scripted-a2a.ts).
// Screenshots: docs/screenshots/a2a-remote-*.png.
import { expect, test } from "./fixtures";
import type { RoomView } from "@switchboard/sdk/contract";
import { startScriptedA2a, type ScriptedA2a } from "../support/scripted-a2a";
import { messageWithText, people, send, signUpFirstOrSignIn, trpc } from "./helpers";

const run = Date.now().toString(36).slice(-6);
let remote: ScriptedA2a;

test.beforeAll(async () => {
  remote = await startScriptedA2a({ painter: false });
});
test.afterAll(async () => {
  await remote?.close();
});

test("connect a remote A2A agent, and answer its question in the room", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpFirstOrSignIn(page, people.alice);

  await page.goto("/agents");
  await page.getByTestId("open-connect-a2a").click();
  await page.getByTestId("a2a-card-url").fill(remote.cardUrl("painter"));
  await page.getByTestId("a2a-handle").fill(`painter-${run}`);
  await page.getByTestId("connect-a2a-submit").click();
  await expect(page.getByTestId("connect-a2a-dialog")).toContainText(`@painter-${run} is connected`);
  await page.getByTestId("connect-a2a-done").click();
  const card = page.locator(`[data-testid="agent-card"][data-handle="painter-${run}"]`);
  await expect(card.getByTestId("a2a-remote-state")).toHaveText("Connected", { timeout: 20_000 });
  await expect(card.getByTestId("a2a-remote-panel")).toContainText(remote.cardUrl("painter"));
  await card.screenshot({ path: "docs/screenshots/a2a-remote-card.png" });

  const remotes = await trpc<{ agent: { id: string; handle: string } }[]>(page, "a2a.remotes", { scope: "mine" }, "query");
  const painter = remotes.find((r) => r.agent.handle === `painter-${run}`)!;
  const dm = await trpc<RoomView>(page, "rooms.openDirect", { participantIds: [painter.agent.id] });
  await page.goto(`/r/${dm.id}`);

  await send(page, "ask me about the wall");
  await expect(messageWithText(page, "Which colour?")).toBeVisible({ timeout: 20_000 });
  await send(page, "blue");
  await expect(messageWithText(page, "noted: blue")).toBeVisible({ timeout: 20_000 });
  const answer = remote.received.at(-1)!;
  expect(answer.text).toBe(`@${people.alice.handle}: blue`);
  expect(answer.continuesTask).toBe(true);

  await send(page, "report on the wall");
  await expect(page.getByTestId("timeline")).toContainText("report.md", { timeout: 20_000 });
  await expect(page.getByTestId("timeline")).toContainText("All green.");
  await page.screenshot({ path: "docs/screenshots/a2a-remote-room.png" });
});
