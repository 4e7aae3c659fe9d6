// Accessibility: axe-core on every page of the app, on a desktop and on a phone (390×844), signed out
// (sign-in, sign-up, an invite) and signed in (a room with a thread open, search, inbox, needs you, work,
// agents, directory, usage, each admin tab, settings), plus the open quick switcher (Ctrl+K) and a
// dialog. No serious or critical violation anywhere; a failure lists each rule with the elements that
// break it, so the message says what to fix. The workspace is given something to show first (an agent
// that mentions, asks, reports usage and tasks; messages with a heading, code, a link, right-to-left text
// and a long body) so that pages are not only their empty states; how those messages render is checked
// on the way (headings at the body's size, safe links, mentions, direction, "Show more" by keyboard).
import { SwitchboardClient } from "@switchboard/sdk";
import type { MessageView, RoomView } from "@switchboard/sdk/contract";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "./fixtures";
import { people, signUpFirstOrSignIn, trpc } from "./helpers";

const run = Date.now().toString(36).slice(-6);

const viewports = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
};

interface Found {
  where: string;
  rule: string;
  impact: string;
  help: string;
  /** Each element that breaks the rule: its selector, and for contrast what it measured. */
  targets: string[];
}

/** "3.2:1, #a1a1aa on #ffffff" from a contrast failure's summary. */
function measured(summary: string | undefined): string {
  const ratio = /contrast of ([\d.]+)/.exec(summary ?? "")?.[1];
  const colors = /foreground color: (#\w+), background color: (#\w+)/.exec(summary ?? "");
  return ratio ? ` (${ratio}:1${colors ? `, ${colors[1]} on ${colors[2]}` : ""})` : "";
}

/**
 * The serious and critical violations on the page as it is now. The sidebar is the same on every page:
 * it is audited where `sidebar` says so (once per viewport), and left out elsewhere to keep the run short.
 */
async function audit(page: Page, where: string, { sidebar = false } = {}): Promise<Found[]> {
  // Only violations are collected: building the passes' results would take as long as the checks.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
  if (!sidebar) builder.exclude('[data-testid="sidebar"]');
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      where,
      rule: v.id,
      impact: v.impact!,
      help: v.help,
      targets: v.nodes.map((n) => `${n.target.join(" ")}${measured(n.failureSummary)}`),
    }));
}

/** One line per rule and element, with the views it was found on (the sidebar's would repeat on every page). */
function report(found: Found[]): string {
  const byTarget = new Map<string, string[]>();
  for (const f of found) {
    for (const target of f.targets) {
      const key = `${f.rule} (${f.impact}, ${f.help}): ${target}`;
      byTarget.set(key, [...(byTarget.get(key) ?? []), f.where]);
    }
  }
  return [...byTarget]
    .map(([key, where]) => `${key}\n    on ${where.length > 4 ? `${where.slice(0, 4).join(", ")} and ${where.length - 4} more` : where.join(", ")}`)
    .join("\n");
}

interface Setup {
  cookies: Awaited<ReturnType<ReturnType<Page["context"]>["cookies"]>>;
  room: RoomView;
  root: MessageView;
  reply: MessageView;
  rtl: MessageView;
  long: MessageView;
  agentHandle: string;
  inviteToken: string;
}

/** How messages render: headings at the body's size, links that open safely, mentions, direction, folding. */
async function checkRendering(page: Page, s: Setup) {
  const root = page.locator(`[data-message-id="${s.root.id}"] [data-testid="message-body"]`);
  const sizes = await root.evaluate((body) => [getComputedStyle(body).fontSize, getComputedStyle(body.querySelector("h2")!).fontSize]);
  expect(sizes[1]).toBe(sizes[0]);
  await expect(root.getByRole("link", { name: "the runbook" })).toHaveAttribute("target", "_blank");
  await expect(root.getByRole("link", { name: "the runbook" })).toHaveAttribute("rel", /noopener noreferrer/);
  // @lumen is mentioned (a member); `@import` names nobody and stays text.
  await expect(root.locator(".mention")).toHaveText([`@lumen-${run}`]);
  await expect(page.locator(`[data-message-id="${s.rtl.id}"] [data-testid="message-body"] p`)).toHaveAttribute("dir", "auto");
  // The long message is folded; "Show more" is reached by the keyboard and unfolds it.
  const long = page.locator(`[data-message-id="${s.long.id}"]`);
  const fold = long.getByTestId("message-fold");
  await expect(fold).toHaveText("Show more");
  const foldedHeight = (await long.getByTestId("message-body").boundingBox())!.height;
  await fold.focus();
  await page.keyboard.press("Enter");
  await expect(fold).toHaveText("Show less");
  await expect(fold).toHaveAttribute("aria-expanded", "true");
  expect((await long.getByTestId("message-body").boundingBox())!.height).toBeGreaterThan(foldedHeight * 1.4);
  await page.keyboard.press("Enter");
  await expect(fold).toHaveText("Show more");
}

/** A page and when it is ready to audit (its content drawn, its data loaded). */
const signedInPages = (s: Setup): { path: string; ready: (page: Page) => Promise<void> }[] => {
  const shown = (testId: string, loaded?: string) => async (page: Page) => {
    await expect(page.getByRole("main").getByTestId(testId)).toBeVisible();
    if (loaded) await expect(page.getByRole("main").locator(loaded).first()).toBeVisible();
  };
  return [
    {
      path: `/r/${s.room.id}`,
      ready: async (page) => {
        await expect(page.getByTestId("room-title")).toHaveText(s.room.title);
        await expect(page.locator(`[data-message-id="${s.root.id}"]`)).toBeVisible();
        await expect(page.getByTestId("mention-badge").first()).toBeAttached(); // the sidebar's rooms, read
      },
    },
    {
      path: `/r/${s.room.id}?message=${s.reply.id}&thread=${s.root.id}`,
      ready: async (page) => {
        await expect(page.getByTestId("thread-panel").locator(`[data-message-id="${s.reply.id}"]`)).toBeVisible();
      },
    },
    {
      path: `/search?q=rollout${run}`,
      ready: async (page) => {
        await expect(page.getByTestId("search-hit").first()).toBeVisible();
      },
    },
    { path: "/inbox", ready: shown("inbox-page") },
    { path: "/needs-you", ready: shown("needs-you-page", '[data-testid="question-card"]') },
    { path: "/work", ready: shown("work-page", '[data-testid="agent-work"]') },
    { path: "/work/involvement", ready: shown("involvement-page") },
    { path: "/work/timeline", ready: shown("timeline-page") },
    { path: "/agents", ready: shown("agents-page", '[data-testid="agent-card"]') },
    { path: "/directory", ready: shown("directory-page", `[data-handle="${s.agentHandle}"]`) },
    { path: "/usage", ready: shown("usage-page", '[data-testid="usage-dashboard"]') },
    ...Object.entries({
      members: '[data-testid="member-row"]',
      invites: "tr[data-state]",
      agents: '[data-testid="admin-agent-row"]',
      settings: '[data-testid="save-limits"]',
      audit: '[data-testid="audit-row"]',
    }).map(([tab, loaded]) => ({
      path: `/admin#${tab}`,
      ready: async (page: Page) => {
        await expect(page.getByRole("tab", { selected: true })).toHaveAttribute("id", new RegExp(`${tab}$`));
        await expect(page.getByTestId(`panel-${tab}`).locator(loaded).first()).toBeVisible();
      },
    })),
    { path: "/settings", ready: shown("settings-page") },
    { path: "/settings/tokens", ready: shown("tokens-page") },
  ];
};

/** Loads a page and audits it once its data is shown. */
async function visit(page: Page, where: string, path: string, ready: (page: Page) => Promise<void>, sidebar = false): Promise<Found[]> {
  await page.goto(path, { waitUntil: "domcontentloaded" });
  await ready(page);
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0); // nothing still loading
  return audit(page, where, { sidebar });
}

async function auditViewport(browser: Browser, name: keyof typeof viewports, s: Setup): Promise<Found[]> {
  const context = await browser.newContext({ viewport: viewports[name], hasTouch: name === "phone", isMobile: name === "phone" });
  const page = await context.newPage();
  const found: Found[] = [];

  // Signed out first.
  found.push(...(await visit(page, `${name} /signin`, "/signin", (p) => expect(p.getByTestId("signin-form")).toBeVisible())));
  found.push(...(await visit(page, `${name} /signup`, "/signup", (p) => expect(p.getByRole("heading").first()).toBeVisible())));
  found.push(...(await visit(page, `${name} /invite`, `/invite/${s.inviteToken}`, (p) => expect(p.getByTestId("signup-form")).toBeVisible())));

  await context.addCookies(s.cookies);
  // The sidebar with the first page on a desktop; on a phone it is off screen until opened (below).
  for (const [i, { path, ready }] of signedInPages(s).entries())
    found.push(...(await visit(page, `${name} ${path}`, path, ready, i === 0 && name === "desktop")));

  // The quick switcher, open over a room, with something typed (rooms and people listed).
  await page.goto(`/r/${s.room.id}`);
  await expect(page.locator(`[data-message-id="${s.long.id}"]`)).toBeVisible();
  await checkRendering(page, s);
  await page.keyboard.press("Control+K");
  await expect(page.getByTestId("switcher-input")).toBeFocused();
  await page.keyboard.type("a");
  await expect(page.getByTestId("quick-switcher").getByRole("option").first()).toBeVisible();
  found.push(...(await audit(page, `${name} quick switcher`)));
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("quick-switcher")).toBeHidden();

  // A dialog: inviting people, from the sidebar (opened first on a phone, and audited open).
  if (name === "phone") {
    await page.getByRole("button", { name: "Open navigation" }).click();
    await expect(page.getByTestId("invite-people")).toBeInViewport();
    found.push(...(await audit(page, `${name} navigation`, { sidebar: true })));
  }
  await page.getByTestId("invite-people").click();
  await expect(page.getByTestId("invite-dialog")).toBeVisible();
  found.push(...(await audit(page, `${name} invite dialog`)));
  await page.keyboard.press("Escape");

  await context.close();
  return found;
}

test("every page has no serious or critical accessibility violation, on a desktop and on a phone", async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  await signUpFirstOrSignIn(page, people.alice);

  // Something on every page: an agent in a room that mentions Alice, asks her, reports usage and tasks.
  const { agent, apiKey } = await trpc<{ agent: { id: string; handle: string }; apiKey: string }>(page, "agents.create", {
    handle: `lumen-${run}`,
    displayName: "Lumen",
    description: "Checks what the accessibility test shows",
    framework: "claude-code",
    capabilities: ["review"],
  });
  const room = await trpc<RoomView>(page, "rooms.createChannel", {
    name: `a11y-${run}`,
    visibility: "public",
    topic: "Reading every page",
    memberIds: [agent.id],
  });
  const other = await trpc<RoomView>(page, "rooms.createChannel", { name: `a11y-side-${run}`, visibility: "public", memberIds: [agent.id] });
  const say = (body: string, threadRootId?: string) =>
    trpc<MessageView>(page, "messages.send", {
      roomId: room.id,
      body,
      clientMsgId: `a11y-${run}-${body.length}-${Math.random()}`,
      ...(threadRootId ? { threadRootId } : {}),
    });
  const rtl = await say("שלום, זה מבחן של טקסט מימין לשמאל");
  const long = await say(Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long report`).join("\n"));
  const root = await say(
    `## The rollout${run} plan\nSee [the runbook](https://example.com/runbook) and \`deploy.sh\`, then @import the styles, @${agent.handle}.`,
  );
  const reply = await say(`Starting the rollout${run} now`, root.id);
  const invite = await trpc<{ token: string }>(page, "workspace.createInvite", { role: "member" });

  const client = new SwitchboardClient({ url: baseURL!, apiKey });
  try {
    await client.connect();
    await client.send(room.id, `@${people.alice.handle} the rollout is half done`);
    await client.send(other.id, `@${people.alice.handle} a mention in another room, for the sidebar's badge`);
    await client.reportUsage({ model: "claude-sonnet-4.5", inputTokens: 12_000, outputTokens: 1_800, cachedTokens: 4_000, costUsd: 1.25, roomId: room.id });
    await client.reportTasks({
      sessionId: `a11y-${run}`,
      roomId: room.id,
      tasks: [
        { key: "plan", title: "Plan the rollout", status: "completed" },
        { key: "ship", title: "Ship it", status: "in_progress" },
      ],
    });
    await client.postQuestion(room.id, { prompt: "Deploy to production?", kind: "approval", audience: { type: "owner" }, expiresInSeconds: 600 });

    const setup: Setup = { cookies: await page.context().cookies(), room, root, reply, rtl, long, agentHandle: agent.handle, inviteToken: invite.token };
    const started = Date.now();
    const found = (await Promise.all([auditViewport(browser, "desktop", setup), auditViewport(browser, "phone", setup)])).flat();
    console.log(`axe on ${2 * (signedInPages(setup).length + 5) + 1} views in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(found.length, `Serious or critical accessibility violations:\n${report(found)}`).toBe(0);
  } finally {
    await client.close();
  }
});
