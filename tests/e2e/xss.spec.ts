// An XSS corpus everywhere user text is shown: messages, a channel topic, agent display names,
// descriptions and capabilities, an agent author's name in the timeline, and a connection request.
// Chromium renders the room, the directory, the agents page, the inbox and the admin console; no
// payload may run (window.__xss stays undefined, no dialog opens) and the text reads literally.
import { expect, test, type Page } from "./fixtures";
import type { AgentView, RoomView } from "@switchboard/sdk";
import { SwitchboardClient } from "@switchboard/sdk";
import { messageBodies, people, send, signUpFirstOrSignIn, trpc } from "./helpers";

const run = Date.now().toString(36).slice(-6);

const IMG = `<img src=x onerror=window.__xss=1>`;
const SCRIPT = `<script>window.__xss=1</script>`;
const SVG = `<svg onload=window.__xss=1>`;
const IFRAME = `"><iframe src=javascript:window.__xss=1>`;
const DETAILS = `<details open ontoggle=window.__xss=1>`;
const ANCHOR = `<a href="javascript:window.__xss=1">anchor</a>`;
const MD_LINK = `[markdown link](javascript:window.__xss=1)`;
const MD_IMAGE = `![markdown image](javascript:window.__xss=1)`;
const MD_AUTOLINK = `<javascript:window.__xss=1>`;
const STYLE = `<style>body{display:none}</style><b onmouseover=window.__xss=1>bold</b>`;

/** Bodies rendered as their literal characters (raw HTML never becomes markup). */
const LITERAL = [IMG, SCRIPT, SVG, IFRAME, DETAILS, ANCHOR, STYLE];

async function expectInert(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  // Nothing the corpus asked for exists as markup.
  const injected = await page.evaluate(() => ({
    handlers: document.querySelectorAll("[onerror],[onload],[ontoggle],[onmouseover],[onclick]").length,
    iframes: document.querySelectorAll("iframe").length,
    styles: [...document.querySelectorAll("main style")].length,
    jsLinks: [...document.querySelectorAll("a[href], img[src], iframe[src]")].filter((el) =>
      /^\s*javascript:/i.test(el.getAttribute("href") ?? el.getAttribute("src") ?? ""),
    ).length,
    imgX: document.querySelectorAll('img[src="x"]').length,
    svgs: document.querySelectorAll("svg[onload]").length,
  }));
  expect(injected).toEqual({ handlers: 0, iframes: 0, styles: 0, jsLinks: 0, imgX: 0, svgs: 0 });
}

test("script and HTML in messages, topics, agent profiles and requests render as inert text", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const clients: SwitchboardClient[] = [];
  try {
    await signUpFirstOrSignIn(page, people.alice);

    // A channel whose topic is a payload (names are restricted to [a-z0-9_-]).
    const topic = `${IMG} ${IFRAME}`;
    const room = await trpc<RoomView>(page, "rooms.createChannel", { name: `xss-${run}`, visibility: "public", topic, memberIds: [] });

    // An agent created in the agents UI with payloads for its name, description and a capability.
    await page.goto("/agents");
    await expect(page.getByTestId("agents-page")).toBeVisible();
    await page.getByTestId("open-create-agent").click();
    const dialog = page.getByTestId("create-agent-dialog");
    await dialog.getByTestId("agent-display-name").fill(IMG);
    await dialog.getByTestId("agent-handle").fill(`xss-ui-${run}`);
    await dialog.getByTestId("agent-description").fill(SCRIPT);
    await dialog.getByTestId("agent-capabilities").fill(SVG);
    await dialog.getByTestId("agent-capabilities").press("Enter");
    await expect(dialog.getByTestId("tag-chip")).toHaveCount(1);
    await dialog.getByTestId("create-agent-submit").click();
    // The key, or the server's refusal in words (so that a failure here says why).
    await expect(dialog.getByTestId("agent-api-key").or(dialog.getByTestId("form-error"))).toBeVisible();
    await expect(dialog.getByTestId("form-error")).toHaveCount(0);
    await expect(dialog.getByTestId("agent-api-key")).toHaveValue(/^sb_/);
    const uiKey = await dialog.getByTestId("agent-api-key").inputValue();
    await dialog.getByTestId("create-agent-done").click();
    await expect(dialog).toBeHidden();

    // And one through tRPC with the others.
    const viaApi = await trpc<{ agent: AgentView; apiKey: string }>(page, "agents.create", {
      handle: `xss-api-${run}`,
      displayName: IFRAME,
      description: `${MD_LINK} ${DETAILS}`,
      framework: `<b onmouseover=window.__xss=1>fw</b>`,
      capabilities: [IMG, MD_AUTOLINK],
    });

    // Messages: the corpus, posted in the composer.
    await page.goto(`/r/${room.id}`);
    await expect(page.getByTestId("room-title")).toHaveText(`xss-${run}`);
    for (const body of [...LITERAL, MD_LINK, MD_IMAGE, MD_AUTOLINK]) await send(page, body);
    await expect(messageBodies(page)).toHaveCount(LITERAL.length + 3);
    await expect(page.getByTestId("pending-message")).toHaveCount(0);

    // The agents join the room (their owner needs no connection) and speak under their payload names;
    // the first asks the second to connect, with a payload message, so the request lands in the inbox.
    const uiAgent = new SwitchboardClient({ url: baseURL!, apiKey: uiKey });
    const apiAgent = new SwitchboardClient({ url: baseURL!, apiKey: viaApi.apiKey });
    clients.push(uiAgent, apiAgent);
    const uiMe = await uiAgent.connect();
    await apiAgent.connect();
    await trpc(page, "rooms.invite", { roomId: room.id, participantIds: [uiMe.id, viaApi.agent.id] });
    await expect.poll(async () => (await uiAgent.listRooms()).some((m) => m.room.id === room.id)).toBe(true);
    await uiAgent.send(room.id, `from an agent: ${SVG}`);
    await apiAgent.send(room.id, `also from an agent: ${IFRAME}`);
    await uiAgent.requestConnection(viaApi.agent.id, { message: `${SCRIPT} ${IMG}`, scope: { purposes: [SVG] } });

    // ---- the room
    await page.reload();
    await expect(page.getByTestId("room-topic")).toHaveText(topic);
    const bodies = messageBodies(page);
    await expect(bodies).toHaveCount(LITERAL.length + 5);
    for (const body of LITERAL) await expect(bodies.filter({ hasText: body }).first()).toHaveText(body);
    await expect(bodies.filter({ hasText: "markdown link" })).toHaveText("markdown link");
    await expect(bodies.filter({ hasText: "markdown image" })).toHaveCount(1);
    await expect(bodies.filter({ hasText: `from an agent: ${SVG}` })).toHaveCount(1);
    await expect(page.getByTestId("message-author").filter({ hasText: IMG }).first()).toHaveText(IMG);
    await expect(page.getByTestId("message-author").filter({ hasText: IFRAME }).first()).toHaveText(IFRAME);
    await expectInert(page);

    // ---- the directory
    await page.goto("/directory");
    await page.getByTestId("directory-search").fill(`xss-`);
    const uiEntry = page.locator(`[data-testid="directory-entry"][data-handle="xss-ui-${run}"]`);
    const apiEntry = page.locator(`[data-testid="directory-entry"][data-handle="xss-api-${run}"]`);
    await expect(uiEntry.getByTestId("entry-name")).toHaveText(IMG);
    await expect(uiEntry.getByTestId("entry-description")).toHaveText(SCRIPT);
    await expect(uiEntry.getByTestId("tag")).toHaveText([SVG]);
    await expect(apiEntry.getByTestId("entry-name")).toHaveText(IFRAME);
    await expect(apiEntry.getByTestId("entry-description")).toHaveText(`${MD_LINK} ${DETAILS}`);
    await expect(apiEntry.getByTestId("entry-framework")).toHaveText(`<b onmouseover=window.__xss=1>fw</b>`);
    await expect(apiEntry.getByTestId("tag")).toHaveText([IMG, MD_AUTOLINK]);
    await expectInert(page);

    // ---- the agents page
    await page.goto("/agents");
    const uiCard = page.locator(`[data-testid="agent-card"][data-handle="xss-ui-${run}"]`);
    await expect(uiCard.getByTestId("agent-name")).toHaveText(IMG);
    await expect(uiCard.getByTestId("agent-description-text")).toHaveText(SCRIPT);
    await expect(page.locator(`[data-testid="agent-card"][data-handle="xss-api-${run}"]`).getByTestId("agent-name")).toHaveText(IFRAME);
    await expectInert(page);

    // ---- the inbox (a request between the two agents waits for their owner)
    await page.goto("/inbox");
    const request = page.locator(`[data-testid="request-card"][data-requester="xss-ui-${run}"]`);
    await expect(request.getByTestId("requester-name")).toHaveText(IMG);
    await expect(request.getByTestId("request-message")).toHaveText(`${SCRIPT} ${IMG}`);
    await expect(request).toContainText(IFRAME);
    await expectInert(page);

    // ---- the admin console's agents tab
    await page.goto("/admin#agents");
    await expect(page.locator(`[data-testid="admin-agent-row"][data-handle="xss-api-${run}"]`)).toContainText(IFRAME);
    await expectInert(page);

    expect(dialogs).toEqual([]);
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
  }
});
