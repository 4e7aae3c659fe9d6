// An agent served over A2A, with a person in the loop: Alice turns A2A on for her agent in the browser;
// another framework's agent calls it with the official A2A SDK's client, naming the #releases room; Alice
// watches the request and the answer arrive live in the room, steps in when the agent asks her, and the
// A2A caller's stream ends with the agent's answer. Screenshots go to docs/screenshots/.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { TaskState, type Task } from "@a2a-js/sdk";
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { expect, test } from "./fixtures";
import { SwitchboardClient, type MessageView } from "@switchboard/sdk";
import type { RoomView } from "@switchboard/sdk/contract";
import { people, signUpFirstOrSignIn, trpc } from "./helpers";

const SHOTS = "docs/screenshots";
const run = Date.now().toString(36).slice(-5);

test("an agent served over A2A: turned on in the browser, called by another framework's agent, its owner steps in", async ({ browser, baseURL }) => {
  mkdirSync(SHOTS, { recursive: true });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 2 });
  const page = await ctx.newPage();
  await signUpFirstOrSignIn(page, people.alice);

  const handle = `scribe-${run}`;
  const scribe = await trpc<{ agent: { id: string }; apiKey: string }>(page, "agents.create", {
    handle,
    displayName: "Release Scribe",
    description: "Writes release notes from the merged pull requests.",
    framework: "langgraph",
    capabilities: ["release notes", "changelogs"],
  });
  const caller = await trpc<{ agent: { id: string }; apiKey: string }>(page, "agents.create", {
    handle: `planner-${run}`,
    displayName: "Planner",
    description: "Plans releases; speaks A2A.",
    framework: "script",
    capabilities: [],
  });
  const room = await trpc<RoomView>(page, "rooms.createChannel", {
    name: `releases-${run}`,
    visibility: "public",
    topic: "Release notes",
    memberIds: [scribe.agent.id, caller.agent.id],
  });

  // The served agent: an SDK client that asks its owner before it answers.
  const agent = new SwitchboardClient({ url: baseURL!, apiKey: scribe.apiKey });
  agent.onMessage(async (m: MessageView, mctx) => {
    if (m.author.id === scribe.agent.id || m.kind !== "text" || !mctx.addressed) return;
    const outcome = await mctx.ask(m.roomId, { prompt: "Include the **database migration** notes?", kind: "approval", audience: { type: "owner" } });
    const approved = (outcome.answer as { approved?: boolean } | null)?.approved;
    await agent.reply(
      m,
      approved
        ? "Release notes for v2.4: faster sync, new usage charts, and the migration steps for the audit table."
        : "Release notes for v2.4: faster sync and new usage charts.",
    );
  });
  await agent.connect();

  try {
    // ---- 1. Alice serves the agent over A2A from its card on My agents.
    await page.getByTestId("nav-agents").click();
    await expect(page.getByTestId("agents-page")).toBeVisible();
    const card = page.getByTestId("agent-card").filter({ hasText: `@${handle}` });
    await expect(card.getByTestId("a2a-served")).not.toBeChecked();
    // A click, then the box's state: it follows once the change is applied (check() wants it at once).
    await card.getByTestId("a2a-served").click();
    await expect(card.getByTestId("a2a-served")).toBeChecked();
    await expect(card.getByTestId("a2a-served-card-url")).toHaveText(`${baseURL}/a2a/${handle}/.well-known/agent-card.json`);
    await card.getByTestId("a2a-serving").scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await card.screenshot({ path: `${SHOTS}/a2a-serving.png` });

    // ---- 2. The planner, another framework's agent, calls it with the A2A SDK, in #releases.
    const authFetch: typeof fetch = (url, init) =>
      fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${caller.apiKey}` } });
    const client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: authFetch }),
    }).createFromUrl(`${baseURL}/a2a/${handle}/`);
    expect((await client.getAgentCard()).skills.map((s) => s.name)).toEqual(["release notes", "changelogs"]);
    const ask = (text: string) => ({
      tenant: "",
      message: {
        messageId: randomUUID(),
        contextId: "",
        taskId: "",
        role: 1,
        parts: [{ content: { $case: "text" as const, value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
        metadata: { roomId: room.id },
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: {},
    });

    // Without consent the call is refused; the planner asks to connect, and Alice accepts in her inbox.
    await expect(client.sendMessage(ask("Draft the release notes for v2.4"))).rejects.toThrow(/not connected/i);
    const planner = new SwitchboardClient({ url: baseURL!, apiKey: caller.apiKey });
    await planner.connect();
    await planner.requestConnection(scribe.agent.id, { message: "I call the scribe over A2A for release notes." });
    await page.getByTestId("nav-inbox").click();
    const request = page.locator(`[data-testid="request-card"][data-requester="planner-${run}"]`);
    await expect(request).toBeVisible();
    await request.getByTestId("accept-request").click();
    await expect(request).toBeHidden();
    await planner.close();
    const states: string[] = [];
    let final: Task | undefined;
    const streaming = (async () => {
      const stream = client.sendMessageStream(ask("Draft the release notes for v2.4"));
      for await (const event of stream) {
        const payload = (event as { payload?: { $case: string; value: unknown } }).payload;
        if (payload?.$case === "task") final = payload.value as Task;
        if (payload?.$case === "statusUpdate") states.push(TaskState[(payload.value as { status: { state: TaskState } }).status.state]);
      }
    })();

    // ---- 3. Alice sees the request and the agent's question live in #releases, and steps in.
    await page.goto(`/r/${room.id}`);
    await expect(page.getByTestId("room-title")).toHaveText(`releases-${run}`);
    const question = page.getByTestId("question-card").filter({ hasText: "database migration" });
    await expect(question).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("message-body").filter({ hasText: "Draft the release notes for v2.4" }).first()).toBeVisible();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SHOTS}/a2a-in-room.png` });
    await question.getByTestId("question-approve").click();

    await streaming;
    expect(states.at(-1)).toBe("TASK_STATE_COMPLETED");
    expect(states).toContain("TASK_STATE_WORKING");
    const task = await client.getTask({ tenant: "", id: final!.id, historyLength: undefined });
    expect(task.artifacts.map((a) => a.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join(""))).toEqual([
      "Release notes for v2.4: faster sync, new usage charts, and the migration steps for the audit table.",
    ]);
    // The answer is in the room's thread too, for everyone there.
    await expect(page.getByText("1 reply").or(page.getByText("2 replies")).first()).toBeVisible();
  } finally {
    await agent.close();
    await ctx.close();
  }
});
