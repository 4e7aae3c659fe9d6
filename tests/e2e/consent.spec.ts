// The talk's first demo, automated: people in Chromium, agents on the SDK, in one run.
// A creates a personal assistant in /agents; B joins by invite and onboards a Codex-style and a
// LangGraph-style agent with an onboarding token; the agents find each other in the directory; the
// Codex agent asks to connect, A accepts in the inbox and watches the agents work in a room; without
// consent (declined, then revoked) the same invites and DMs are refused with NOT_CONNECTED.
import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "./fixtures";
import { SwitchboardClient, SwitchboardError } from "@switchboard/sdk";
import { messageBodies, people, signUpFirstOrSignIn, signUpWithInvite, type Person } from "./helpers";

const run = Date.now().toString(36).slice(-6);

const rui: Person = { name: "Rui Santos", handle: `rui-${run}`, email: `rui-${run}@example.com`, password: "rui-password-123" };

/** A participant the agents refer to. */
interface Who {
  id: string;
  handle: string;
}

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof SwitchboardError) return error.code;
    throw error;
  }
  return "ALLOWED";
}

async function inviteFromAdmin(page: Page): Promise<string> {
  await page.getByTestId("nav-admin").click();
  await expect(page.getByTestId("admin-page")).toBeVisible();
  await page.getByTestId("tab-invites").click();
  await page.getByTestId("admin-invite-max-uses").fill("1");
  await page.getByTestId("admin-create-invite").click();
  const field = page.getByTestId("admin-invite-link");
  await expect(field).toHaveValue(/\/invite\/.+/);
  await expect(page.getByTestId("secret-warning")).toContainText("won't see this link again");
  return field.inputValue();
}

test("consent first: agents find each other, ask, a person decides in the inbox, and nothing reaches anyone without consent", async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  const url = baseURL!;
  mkdirSync("artifacts", { recursive: true });
  const clients: SwitchboardClient[] = [];
  const ctxA = await browser.newContext();
  const ctxB = await browser.newContext();
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();

  try {
    // ---- 1. A signs up (the first person creates the workspace) and creates a personal assistant.
    await signUpFirstOrSignIn(a, people.alice);
    const invite = await inviteFromAdmin(a);

    await a.getByTestId("nav-agents").click();
    await expect(a.getByTestId("agents-page")).toBeVisible();
    await a.getByTestId("open-create-agent").click();
    const dialog = a.getByTestId("create-agent-dialog");
    await dialog.getByTestId("agent-display-name").fill("Alice's Assistant");
    const assistantHandle = `assistant-${run}`;
    await dialog.getByTestId("agent-handle").fill(assistantHandle);
    await dialog.getByTestId("agent-description").fill("Keeps Alice's calendar and writes her status reports.");
    await dialog.getByTestId("agent-framework").selectOption("claude-code");
    for (const capability of ["scheduling", "status-reports", "email"]) {
      await dialog.getByTestId("agent-capabilities").fill(capability);
      await dialog.getByTestId("agent-capabilities").press("Enter");
    }
    await expect(dialog.getByTestId("tag-chip")).toHaveCount(3);
    await dialog.getByTestId("create-agent-submit").click();
    const keyField = dialog.getByTestId("agent-api-key");
    await expect(keyField).toHaveValue(/^sb_/);
    const assistantKey = await keyField.inputValue();
    await expect(dialog.getByTestId("secret-warning")).toContainText("you won't see this again");
    // What to run with it, from the SDK this server hands out: nothing needs a clone.
    await expect(dialog.getByTestId("agent-install")).toContainText(`npm install ${url}/install/switchboard-sdk-`);
    await expect(dialog.getByTestId("agent-snippet")).toContainText(`SWITCHBOARD_URL=${url} SWITCHBOARD_API_KEY=${assistantKey} node agent.mjs`);
    await dialog.getByRole("tab", { name: "Python" }).click();
    await expect(dialog.getByTestId("agent-install")).toContainText(`pip install ${url}/install/python`);
    await expect(dialog.getByTestId("agent-snippet")).toContainText(`SWITCHBOARD_API_KEY=${assistantKey} python agent.py`);
    await dialog.getByTestId("create-agent-done").click();
    await expect(dialog).toBeHidden();
    const assistantCard = a.locator(`[data-testid="agent-card"][data-handle="${assistantHandle}"]`);
    await expect(assistantCard).toBeVisible();
    await expect(assistantCard.getByTestId("key-row")).toHaveCount(1);
    await expect(assistantCard.getByTestId("consent-policy")).toHaveValue("ask");

    // B joins by invite and has no agents.
    await signUpWithInvite(b, invite, rui, people.alice.name);
    await b.getByTestId("nav-agents").click();
    await expect(b.getByTestId("agents-empty")).toBeVisible();

    // ---- 2. B creates an onboarding token in the UI; two agents register with it programmatically.
    await b.getByTestId("open-onboarding").click();
    await b.getByTestId("onboarding-label").fill("demo agents");
    await b.getByTestId("onboarding-max-uses").fill("2");
    await b.getByTestId("create-onboarding-token").click();
    const tokenField = b.getByTestId("onboarding-token");
    await expect(tokenField).toHaveValue(/^sbo_/);
    const onboardingToken = await tokenField.inputValue();
    // The one command for each client, naming this server's own CLI and the token; where agents land.
    await expect(b.getByTestId("onboarding-room-note")).toContainText("#general");
    const command = b.getByTestId("onboarding-command");
    await expect(command).toContainText(new RegExp(`npx -y --package=${url}/install/switchboard-cli-[\\d.]+-[0-9a-f]{12}\\.tgz switchboard connect`));
    await expect(command).toContainText(`--url ${url} --token ${onboardingToken} --client claude`);
    await b.getByTestId("tab-codex").click();
    await expect(command).toContainText("--client codex");
    await b.getByTestId("tab-codex").press("ArrowRight"); // keyboard: the next client, Cursor
    await expect(command).toContainText("--client cursor");
    await b.getByTestId("tab-typescript").click();
    await expect(b.getByTestId("onboarding-sdk-install")).toContainText(new RegExp(`npm install ${url}/install/switchboard-sdk-`));
    await expect(b.getByTestId("onboarding-sdk")).toContainText("SwitchboardClient.register");
    await b.getByTestId("tab-python").click();
    await expect(b.getByTestId("onboarding-python-install")).toContainText(`pip install ${url}/install/python`);
    await expect(b.getByTestId("onboarding-python")).toContainText(onboardingToken);
    await b.getByTestId("tab-curl").click();
    await expect(b.getByTestId("onboarding-curl")).toContainText(`${url}/api/v1/agents/register`);
    await expect(b.getByTestId("onboarding-curl")).toContainText(onboardingToken);
    await b.getByTestId("onboarding-done").click();

    const codexHandle = `codex-${run}`;
    const graphHandle = `langgraph-${run}`;
    const codexReg = await SwitchboardClient.register(url, {
      onboardingToken,
      handle: codexHandle,
      displayName: "Codex Builder",
      description: "Writes and ships code changes.",
      framework: "codex",
      capabilities: ["code", "tests", "release"],
    });
    const graphReg = await SwitchboardClient.register(url, {
      onboardingToken,
      handle: graphHandle,
      displayName: "LangGraph Researcher",
      description: "Researches and summarises.",
      framework: "langgraph",
      capabilities: ["research", "summaries"],
    });
    expect(codexReg.agent.owner?.handle).toBe(rui.handle);
    // The token allowed two agents: a third registration is refused.
    await expect(SwitchboardClient.register(url, { onboardingToken, handle: `extra-${run}`, displayName: "Extra" })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });

    const codex = new SwitchboardClient({ url, apiKey: codexReg.apiKey });
    const graph = new SwitchboardClient({ url, apiKey: graphReg.apiKey });
    const assistant = new SwitchboardClient({ url, apiKey: assistantKey });
    clients.push(codex, graph, assistant);
    const assistantMe = await assistant.connect();
    expect(assistantMe.handle).toBe(assistantHandle);
    // The assistant answers tasks addressed to it with a report, in the room (not a thread).
    assistant.onMessage(async (message, { addressed }) => {
      if (!addressed || message.kind !== "text") return;
      await assistant.send(message.roomId, `Status report for @${message.author.handle}: 14 PRs merged, 2 blockers (flaky e2e, docs), release on Friday.`);
    });
    await Promise.all([codex.connect(), graph.connect()]);

    // They show in B's directory, as B's.
    await b.getByTestId("nav-directory").click();
    await b.getByTestId("directory-search").fill(run);
    const bCodex = b.locator(`[data-testid="directory-entry"][data-handle="${codexHandle}"]`);
    await expect(bCodex).toBeVisible();
    await expect(b.locator(`[data-testid="directory-entry"][data-handle="${graphHandle}"]`)).toBeVisible();
    await expect(bCodex.getByTestId("entry-owner")).toHaveText("Yours");
    await expect(bCodex.getByTestId("entry-framework")).toHaveText("Codex");
    await expect(b.locator(`[data-testid="directory-entry"][data-handle="${assistantHandle}"]`)).toHaveAttribute("data-standing", "none");
    // The capability filter narrows it to the assistant.
    await b.getByTestId("directory-search").fill("");
    await b.getByTestId("directory-capability").fill("scheduling");
    await expect(b.getByTestId("directory-entry")).toHaveCount(1);
    await expect(b.getByTestId("directory-entry")).toHaveAttribute("data-handle", assistantHandle);
    await b.getByTestId("directory-capability").fill("");
    await expect(bCodex).toBeVisible();
    await expect(b.getByTestId("toast")).toHaveCount(0);
    await b.screenshot({ path: "artifacts/directory.png" });

    // The agents find each other, the assistant and A through the SDK.
    const byCapability = await codex.findParticipants({ capability: "status-reports" });
    expect(byCapability.map((p) => p.handle)).toEqual([assistantHandle]);
    const assistantEntry = byCapability[0];
    expect(assistantEntry.owner?.handle).toBe(people.alice.handle);
    expect(assistantEntry.connection).toBe("none");
    const research = await codex.findParticipants({ capability: "research", kind: "agent" });
    expect(research.map((p) => p.handle)).toContain(graphHandle);
    const codexSeen = await graph.findParticipants({ text: codexHandle });
    expect(codexSeen.map((p) => p.handle)).toEqual([codexHandle]);
    expect((await graph.findParticipants({ capability: "scheduling" })).map((p) => p.handle)).toEqual([assistantHandle]);
    const alice: Who = (await codex.findParticipants({ kind: "human", text: people.alice.handle })).find((p) => p.handle === people.alice.handle)!;
    expect(alice).toBeTruthy();
    const assistantWho: Who = { id: assistantEntry.id, handle: assistantEntry.handle };

    // ---- 3. The Codex agent asks to connect with the assistant; A sees it (badge, inbox) and accepts.
    await a.goto("/agents");
    await expect(a.getByTestId("agents-page")).toBeVisible();
    await expect(a.getByTestId("connection-status")).toHaveAttribute("data-status", "connected");
    await expect(a.getByTestId("inbox-badge")).toHaveCount(0);
    const asked = await codex.requestConnection(assistantWho.id, {
      message: "I'm shipping release 1.4 and need a status report from your assistant.",
      scope: { purposes: ["release reports"] },
      expiresInDays: 30,
    });
    expect(asked.status).toBe("pending");
    await expect(a.getByTestId("inbox-badge")).toHaveText("1");
    await a.getByTestId("nav-inbox").click();
    const request = a.locator(`[data-testid="request-card"][data-requester="${codexHandle}"]`);
    await expect(request).toBeVisible();
    await expect(request.getByTestId("requester-name")).toHaveText("Codex Builder");
    await expect(request.getByTestId("requester-owner")).toContainText(`owned by ${rui.name}`);
    await expect(request.getByTestId("requester-owner")).toContainText("Codex agent");
    await expect(request.getByTestId("request-message")).toHaveText("I'm shipping release 1.4 and need a status report from your assistant.");
    await expect(request).toContainText("your agent Alice's Assistant");
    await expect(request).toContainText("release reports");
    await expect(request).toContainText("Expires in 30 days");
    await expect(request.getByTestId("tag")).toHaveText(["code", "tests", "release", "release reports"]);
    await expect(a.getByTestId("toast")).toHaveCount(0);
    await a.screenshot({ path: "artifacts/inbox.png" });

    // While it waits, the Codex agent cannot invite the assistant anywhere.
    const early = await codex.createRoom(`early-${run}`);
    expect(await refusal(codex.invite(early.id, [assistantWho.id]))).toBe("NOT_CONNECTED");

    await request.getByTestId("accept-request").click();
    await expect(request).toBeHidden();
    await expect(a.getByTestId("inbox-badge")).toHaveCount(0);
    await expect.poll(async () => (await codex.listConnections("accepted")).some((c) => c.addressee.id === assistantWho.id)).toBe(true);

    // People need a connection with agents too: the Codex agent asks A, A accepts live in the inbox.
    await codex.requestConnection(alice.id, { message: "May I add you to the release room so you can follow along?" });
    const toAlice = a.locator(`[data-testid="request-card"][data-requester="${codexHandle}"][data-addressee="${people.alice.handle}"]`);
    await expect(toAlice).toBeVisible();
    await expect(toAlice).toContainText("asks to connect with you");
    await expect(a.getByTestId("inbox-badge")).toHaveText("1");
    await toAlice.getByTestId("accept-request").click();
    await expect(toAlice).toBeHidden();
    await expect(a.getByTestId("requests-empty")).toBeVisible();

    // ---- 4. The Codex agent opens a room, invites the assistant and A, and hands over the task.
    const room = await codex.createRoom(`release-${run}`, { topic: "Release 1.4: status and blockers" });
    await codex.invite(room.id, [assistantWho.id]);
    await codex.invite(room.id, [alice.id]);
    const roomLink = a.locator(`[data-testid="sidebar-room"][data-room-id="${room.id}"]`);
    await expect(roomLink).toBeVisible(); // live: room:added
    await roomLink.click();
    await expect(a.getByTestId("room-title")).toHaveText(`release-${run}`);
    await expect(a.getByTestId("member-count")).toHaveText("3");

    const task = `@${assistantHandle} please compile the status report for release 1.4`;
    await codex.send(room.id, task);
    await expect(messageBodies(a)).toHaveText([task, `Status report for @${codexHandle}: 14 PRs merged, 2 blockers (flaky e2e, docs), release on Friday.`]);

    // ---- 5. Without consent nothing gets through. The LangGraph agent asks; A declines in the inbox.
    await graph.requestConnection(assistantWho.id, { message: "Can your assistant share Alice's calendar?" });
    await expect(a.getByTestId("inbox-badge")).toHaveText("1");
    await a.getByTestId("nav-inbox").click();
    const graphRequest = a.locator(`[data-testid="request-card"][data-requester="${graphHandle}"]`);
    await graphRequest.getByTestId("decline-request").click();
    await expect(graphRequest).toBeHidden();
    await expect.poll(async () => (await graph.listConnections("history")).find((c) => c.addressee.id === assistantWho.id)?.status).toBe("declined");
    const graphRoom = await graph.createRoom(`research-${run}`);
    expect(await refusal(graph.invite(graphRoom.id, [assistantWho.id]))).toBe("NOT_CONNECTED");
    expect(await refusal(graph.openDirect([assistantWho.id]))).toBe("NOT_CONNECTED");

    // The Codex agent may DM the assistant while connected; A revokes that in History, and it may not.
    const dm = await codex.openDirect([assistantWho.id]);
    expect(dm.kind).toBe("dm");
    await a.getByTestId("tab-history").click();
    const accepted = a.locator(`[data-testid="history-row"][data-requester="${codexHandle}"][data-addressee="${assistantHandle}"]`);
    await expect(accepted).toHaveAttribute("data-status", "accepted");
    await expect(accepted).toContainText("Accepted by you");
    await expect(a.locator(`[data-testid="history-row"][data-requester="${graphHandle}"]`)).toHaveAttribute("data-status", "declined");
    await accepted.getByTestId("revoke-connection").click();
    await a.getByTestId("confirm-revoke-connection").click();
    await expect(accepted).toHaveAttribute("data-status", "revoked");
    expect(await refusal(codex.openDirect([assistantWho.id]))).toBe("NOT_CONNECTED");
    const later = await codex.createRoom(`later-${run}`);
    expect(await refusal(codex.invite(later.id, [assistantWho.id]))).toBe("NOT_CONNECTED");

    // A block is the blocker's to lift: the assistant blocks the LangGraph agent; B, whose agent is
    // blocked, sees it in History with no way to lift it, and A lifts it there.
    const block = await assistant.block(graphReg.agent.id);
    await b.getByTestId("nav-inbox").click();
    await b.getByTestId("tab-history").click();
    const blockedForB = b.locator(`[data-testid="history-row"][data-connection-id="${block.id}"]`);
    await expect(blockedForB).toHaveAttribute("data-status", "blocked");
    await expect(blockedForB.getByTestId("revoke-connection")).toHaveCount(0);
    const blockedForA = a.locator(`[data-testid="history-row"][data-connection-id="${block.id}"]`);
    await expect(blockedForA.getByTestId("revoke-connection")).toHaveText("Unblock");
    await a.screenshot({ path: "artifacts/inbox-blocked.png" });
    await blockedForA.getByTestId("revoke-connection").click();
    await a.getByTestId("confirm-revoke-connection").click();
    await expect(blockedForA).toHaveAttribute("data-status", "revoked");
    await expect(blockedForB).toHaveAttribute("data-status", "revoked");

    // A's agents page shows the assistant's key in use; the admin audit log has the whole story.
    await a.getByTestId("nav-agents").click();
    await expect(assistantCard.getByTestId("key-row")).toHaveCount(1);
    await expect(assistantCard.getByTestId("key-row")).not.toContainText("never");
    await expect(a.getByTestId("toast")).toHaveCount(0);
    await a.screenshot({ path: "artifacts/agents.png" });

    // The kill switch in the admin console stops the assistant everywhere; resume brings it back.
    await a.getByTestId("nav-admin").click();
    await a.getByTestId("tab-agents").click();
    const adminRow = a.locator(`[data-testid="admin-agent-row"][data-handle="${assistantHandle}"]`);
    await adminRow.getByTestId("suspend-agent").click();
    await a.getByTestId("suspend-reason").fill("Demo: stop everything");
    await a.getByTestId("confirm-suspend").click();
    await expect(adminRow).toHaveAttribute("data-status", "suspended");
    await expect.poll(async () => (await codex.findParticipants({ text: assistantHandle }))[0]?.status).toBe("suspended");
    await adminRow.getByTestId("resume-agent").click();
    await expect(adminRow).toHaveAttribute("data-status", "active");

    // Rotating shows a new key once and revokes the old; a single key can be revoked too.
    await a.getByTestId("nav-agents").click();
    await assistantCard.getByTestId("rotate-key").click();
    await a.getByTestId("confirm-rotate").click();
    const rotated = a.getByTestId("rotate-dialog").getByTestId("agent-api-key");
    await expect(rotated).toHaveValue(/^sb_/);
    expect(await rotated.inputValue()).not.toBe(assistantKey);
    await a.getByTestId("rotate-done").click();
    await expect(assistantCard.locator('[data-testid="key-row"][data-revoked="true"]')).toHaveCount(1);
    await assistantCard.locator('[data-testid="key-row"][data-revoked="false"]').getByTestId("revoke-key").click();
    await a.getByTestId("confirm-revoke-key").click();
    await expect(assistantCard.locator('[data-testid="key-row"][data-revoked="false"]')).toHaveCount(0);
    await expect(assistantCard.getByTestId("key-row")).toHaveCount(2);

    await a.getByTestId("nav-admin").click();
    await a.getByTestId("tab-audit").click();
    await expect(a.locator('[data-testid="audit-row"][data-action="connection.revoked"]').first()).toBeVisible();
    await a.getByTestId("audit-action").fill("connection.");
    await expect(a.getByTestId("audit-row").first()).toHaveAttribute("data-action", /^connection\./);
    await expect(a.locator('[data-testid="audit-row"]:not([data-action^="connection."])')).toHaveCount(0);
    await expect(a.locator('[data-testid="audit-row"][data-action="agent.suspended"]')).toHaveCount(0);
    await a.getByTestId("audit-action").fill("agent.");
    await expect(a.locator('[data-testid="audit-row"][data-action="agent.suspended"]')).toHaveCount(1);
    await a.getByTestId("verify-chain").click();
    await expect(a.getByTestId("chain-result")).toHaveAttribute("data-ok", "true");
    await expect(a.getByTestId("chain-result")).toContainText("The chain is intact");
    const download = a.waitForEvent("download");
    await a.getByTestId("export-csv").click();
    const csv = await download;
    expect(csv.suggestedFilename()).toMatch(/^audit-.*\.csv$/);
    await a.getByTestId("audit-action").fill("");
    await expect(a.locator('[data-testid="audit-row"][data-action="agent.created"]').first()).toBeVisible();
    await expect(a.getByTestId("toast")).toHaveCount(0);
    await a.screenshot({ path: "artifacts/admin-audit.png" });
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await Promise.all([ctxA.close(), ctxB.close()]);
  }
});
