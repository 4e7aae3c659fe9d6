// On a phone (390×844, touch): no page scrolls sideways or clips a long unbroken string (an agent named,
// described and reporting in 80-character words), on Work, Agents, Usage, each Admin tab, Needs you and
// a room; a table wider than the screen scrolls inside itself and says so; the Usage filters fold behind
// a button; the kill switch stops an agent. Screenshots: docs/screenshots/phone-work.png, phone-usage.png.
import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "./fixtures";
import { SwitchboardClient } from "@switchboard/sdk";
import type { RoomView } from "@switchboard/sdk/contract";
import { people, signUpFirstOrSignIn, trpc } from "./helpers";

const SHOTS = "docs/screenshots";
const run = Date.now().toString(36).slice(-6);
const WORD = `Unbroken${"x".repeat(60)}End${run}`; // longer than a phone is wide, with no place to break
const handle = `phone-${run}-${"y".repeat(39 - 7 - run.length)}`; // the longest handle there is

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/**
 * What overflows sideways: the page itself, and any element whose content is wider than its box and is
 * neither meant to scroll (a table's scroller, a tab list, code) nor cut off with an ellipsis.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate((debug) => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth) found.push(`the page (${document.documentElement.scrollWidth} px wide)`);
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      if (el.scrollWidth <= el.clientWidth + 1 || el.clientWidth <= 1) continue; // (1 px: for screen readers only)
      const style = getComputedStyle(el);
      if (style.overflowX === "visible" || style.textOverflow === "ellipsis") continue;
      // Made to scroll sideways (a table's own scroller): nothing is lost, the page stays put.
      if (el.classList.contains("overflow-x-auto") || el.closest('[data-scrolls], [role="tablist"], pre, code, select, input, textarea, [aria-hidden="true"]'))
        continue;
      if (el.closest("[inert], [hidden], .sr-only") || style.visibility === "hidden") continue;
      const name = `${el.tagName.toLowerCase()}${el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : ""}.${String(el.className).split(" ").slice(0, 4).join(".")}`;
      // The innermost elements past its right edge: what made it wide.
      const edge = el.getBoundingClientRect().right;
      const past = Array.from(el.querySelectorAll<HTMLElement>("*")).filter((c) => c.getBoundingClientRect().right > edge + 1);
      const culprits = past.filter((c) => !c.closest(".sr-only") && !past.some((d) => d !== c && c.contains(d))).slice(0, 3);
      if (debug)
        for (const c of culprits) {
          const chain: string[] = [];
          for (let p: HTMLElement | null = c; p && p !== el; p = p.parentElement)
            chain.push(`${p.tagName}.${String(p.className).slice(0, 60)}=${Math.round(p.getBoundingClientRect().width)}`);
          found.push(chain.join(" < "));
        }
      const names = culprits.map(
        (c) => `${c.tagName.toLowerCase()}${c.dataset.testid ? `[${c.dataset.testid}]` : ""}.${String(c.className).split(" ").slice(0, 3).join(".")}`,
      );
      found.push(`${name}: ${el.scrollWidth} px in ${el.clientWidth} px, past it: ${names.join(", ")}`);
    }
    return found;
  }, Boolean(process.env.PHONE_DEBUG));
}

async function expectNoOverflow(page: Page, where: string) {
  // Soft: one run names every page that overflows.
  expect.soft(await overflowing(page), `sideways overflow on ${where}`).toEqual([]);
}

test("a phone shows every page within its width; usage filters fold; the kill switch stops an agent", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  await signUpFirstOrSignIn(page, people.alice);
  const { agent, apiKey } = await trpc<{ agent: { id: string }; apiKey: string }>(page, "agents.create", {
    handle,
    displayName: WORD.slice(0, 80),
    description: `${WORD} ${WORD}`,
    framework: "codex",
    capabilities: [WORD.slice(0, 40)],
  });
  const room = await trpc<RoomView>(page, "rooms.createChannel", { name: `phone-${run}`, visibility: "public", memberIds: [agent.id] });

  // The agent works, reports, asks and spends, every string one long word.
  const client = new SwitchboardClient({ url: baseURL!, apiKey });
  try {
    await client.connect();
    await client.setWorkStatus({ state: "working", text: WORD });
    await client.reportTasks({ sessionId: `phone-${run}`, roomId: room.id, tasks: [{ key: "t", title: WORD, status: "in_progress" }] });
    await client.reportFiles({ sessionId: `phone-${run}`, roomId: room.id, files: [{ path: `src/${WORD}/${WORD}.ts`, operation: "edit", linesAdded: 3 }] });
    await client.reportUsage({ model: WORD.slice(0, 60), inputTokens: 1_000, outputTokens: 100, costUsd: 0.5, roomId: room.id, taskId: WORD.slice(0, 60) });
    const asked = client.ask(room.id, { prompt: `Ship ${WORD}?`, kind: "approval", audience: { type: "owner" } });
    asked.catch(() => {}); // awaited below; a step failing before that must not leave it unhandled
    await client.send(room.id, `A message with ${WORD} in it, and **Markdown**.`);

    // ---- A room.
    await page.goto(`/r/${room.id}`);
    await expect(page.getByTestId("message-body").filter({ hasText: WORD }).first()).toBeVisible();
    await expectNoOverflow(page, "a room");

    // ---- Work: the agent's card, its long status, task and file inside it.
    await page.goto("/work");
    const card = page.locator(`[data-testid="agent-work"][data-handle="${handle}"]`);
    await expect(card.getByTestId("status-text")).toHaveText(WORD);
    await expect(card.getByTestId("file").first()).toBeVisible();
    await expectNoOverflow(page, "Work");
    mkdirSync(SHOTS, { recursive: true });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/phone-work.png` });

    // ---- Needs you.
    await page.goto("/needs-you");
    const item = page.getByTestId("needs-you-item").filter({ hasText: WORD });
    await expect(item).toBeVisible();
    await expectNoOverflow(page, "Needs you");
    // Answered by touch: the agent has its answer.
    await item.getByTestId("question-approve").tap();
    expect(await asked).toMatchObject({ status: "answered", answer: { approved: true } });

    // ---- My agents.
    await page.goto("/agents");
    await expect(page.locator(`[data-testid="agent-card"][data-handle="${handle}"]`)).toBeVisible();
    await expectNoOverflow(page, "Agents");

    // ---- Usage: the filters fold behind a button, and open from it.
    await page.goto("/usage");
    await expect(page.getByTestId("usage-dashboard")).toBeVisible();
    const filters = page.getByTestId("usage-filters");
    await expect(filters).toBeHidden();
    await page.getByTestId("toggle-filters").tap();
    await expect(filters).toBeVisible();
    await expect(page.getByTestId("filter-agent")).toBeVisible();
    await page.getByTestId("toggle-filters").tap();
    await expect(filters).toBeHidden();
    await expectNoOverflow(page, "Usage");
    await page.screenshot({ path: `${SHOTS}/phone-usage.png` });

    // ---- Admin, each tab; a table wider than the phone scrolls in place, with a cue.
    await page.goto("/admin");
    // Once hydrated, one console (under load, a streamed copy of the page may linger a moment).
    await expect(page.getByRole("tablist", { name: "Admin sections" })).toHaveCount(1);
    for (const tab of ["members", "invites", "connections", "agents", "settings", "audit"]) {
      await page.locator(`#admin-${tab}`).tap();
      await expect(page.locator(`#admin-${tab}`)).toHaveAttribute("aria-selected", "true");
      await expect(page.getByRole("tabpanel")).not.toBeEmpty();
      if (tab === "members") await expect(page.getByTestId("members-table")).toBeVisible();
      if (tab === "audit") await expect(page.getByTestId("audit-row").first()).toBeVisible();
      await expectNoOverflow(page, `Admin → ${tab}`);
    }
    await expect(page.getByTestId("audit-scroll")).toHaveAttribute("data-scrolls", "true");
    await expect(page.getByTestId("audit-scroll").getByTestId("scroll-cue")).toBeVisible();
    // The log names who and what, says its details in words, and filters by subject and action.
    await page.getByTestId("audit-subject").selectOption({ label: `@${handle}` });
    await page.getByTestId("audit-action").fill("agent.created");
    const created = page.locator('[data-testid="audit-row"][data-action="agent.created"]');
    await expect(page.getByTestId("audit-row")).toHaveCount(1);
    await expect(created.getByTestId("audit-actor-cell")).toContainText(`@${people.alice.handle}`);
    await expect(created.getByTestId("audit-subject-cell")).toHaveText(`@${handle}`);
    await expect(created.getByTestId("audit-details")).toContainText(`Handle${handle}`);

    // ---- The kill switch, by touch: the agent is suspended, and its socket refused.
    await page.locator("#admin-agents").tap();
    const row = page.locator(`[data-testid="admin-agent-row"][data-handle="${handle}"]`);
    const stop = row.getByTestId("suspend-agent");
    await stop.scrollIntoViewIfNeeded();
    await expect(stop).toBeInViewport({ ratio: 1 }); // the column stays in view while the table scrolls
    await stop.tap();
    await page.getByTestId("confirm-suspend").tap();
    await expect(row).toHaveAttribute("data-status", "suspended");
    await expect(row.getByTestId("resume-agent")).toBeVisible();
    await expect(row.getByTestId("agent-status")).toHaveText("Suspended");
    await trpc(page, "agents.resume", { agentId: agent.id });

    // ---- Signed out, "Create an account" says how to join, and takes the invite link someone sent.
    const { id: inviteId, token } = await trpc<{ id: string; token: string }>(page, "workspace.createInvite", { maxUses: 10 });
    const visitor = await page
      .context()
      .browser()!
      .newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await visitor.goto("/signup");
    // This server lets anyone create a workspace (playwright.config.ts): the page offers that, and takes
    // an invite link all the same (invite-only, it says how to get one: auth.spec.ts).
    await expect(visitor.getByTestId("invite-link-join")).toBeVisible();
    await visitor.getByTestId("invite-link-paste").fill(`${baseURL}/invite/${token}`);
    await visitor.getByTestId("invite-link-open").tap();
    await expect(visitor.getByTestId("invite-details")).toBeVisible();
    await expect(visitor.getByTestId("signup-form")).toBeVisible();
    await expectNoOverflow(visitor, "sign-up by invite");
    const joiner = `pat-${run}`;
    await visitor.getByTestId("signup-name").fill("Pat Phone");
    await visitor.getByTestId("signup-handle").fill(joiner);
    await visitor.getByTestId("signup-email").fill(`${joiner}@example.com`);
    await visitor.getByTestId("signup-password").fill("pat-password-123");
    await visitor.getByTestId("signup-submit").tap();
    await visitor.waitForURL(/\/r\/[^/]+$/);
    // The admin sees who joined through the link.
    await page.goto("/admin#invites");
    await page.reload(); // the same page: its lists were read before the link existed
    await expect(page.locator(`[data-testid="invite-links-row"][data-id="${inviteId}"]`).getByTestId("invite-joined")).toContainText(`@${joiner}`);
  } finally {
    await client.close();
  }
});
