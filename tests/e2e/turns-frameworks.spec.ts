// Watch and steer, with the real frameworks. Three agents of Dana's run in this process as the SDK's
// Agent, each with its real adapter and a scripted model on loopback (as the adapter tests run them):
// the Claude Agent SDK (its bundled CLI, tests/support/scripted-anthropic.ts), Codex (its CLI,
// tests/support/scripted-openai.ts, Switchboard's tools through the MCP server) and a LangGraph graph
// (tests/integration/fixtures/tool-calling-chat-model.ts). Dana mentions each; Alice watches. In both
// browsers each block shows its tool call live while the turn is in its tool loop (Claude's and Codex's
// next model answer held back, LangGraph's tool blocking); Dana presses Stop on each: stopped by @dana,
// the receipt says so. Alice goes offline; Dana's next mentions are answered by the same sessions (the
// bindings' external ids, and what each model is handed); back online, Alice's room shows the turns she
// missed, steps included (turns.forRoom again). turns.spec.ts covers the rest (plan, fold, pause) with
// the generic adapter. Nothing here reports work: work.spec.ts, on the same server, expects an empty board.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { tool } from "@langchain/core/tools";
import { toolLoopGraph } from "../integration/fixtures/tool-loop-graph";
import { Agent } from "@switchboard/sdk";
import { claudeAgentSdk } from "@switchboard/sdk/adapters/claude-agent-sdk";
import { codex } from "@switchboard/sdk/adapters/codex";
import { langGraph } from "@switchboard/sdk/adapters/langgraph";
import type { BindingView } from "@switchboard/sdk/bindings";
import type { RoomView } from "@switchboard/sdk/contract";
import { startScriptedAnthropic, text, toolUse } from "../support/scripted-anthropic";
import { describeItem, say as codexSays, startScriptedOpenAI } from "../support/scripted-openai";
import { callTools, say as graphSays, ToolCallingChatModel } from "../integration/fixtures/tool-calling-chat-model";
import { expect, test, type Page } from "./fixtures";
import { createInviteLink, messageWithText, people, send, signUpFirstOrSignIn, signUpWithInvite, trpc, type Person } from "./helpers";

const run = Date.now().toString(36).slice(-6);
const dana: Person = { name: "Dana Okoro", handle: `dana-f-${run}`, email: `dana-f-${run}@example.com`, password: "dana-password-123" };
const handles = { claude: `claude-${run}`, codex: `codex-${run}`, graph: `graph-${run}` };
type Framework = keyof typeof handles;
const FRAMEWORKS = Object.keys(handles) as Framework[];
const RUNTIME: Record<Framework, string> = { claude: "claude-agent-sdk", codex: "codex", graph: "langgraph" };

/** A promise the test opens: a model's answer, or a tool, waits on it; `reached` once something waits. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const g = { reached: false, open, wait: () => ((g.reached = true), opened) };
  return g;
}

/** The blocks of an agent's turns in the room, oldest first. */
const turns = (page: Page, framework: Framework) => page.locator(`[data-testid="turn-block"][aria-label="@${handles[framework]}'s turn"]`);
const toolStep = (block: ReturnType<typeof turns>, title: string) => block.locator('[data-testid="turn-step"][data-kind="tool"]').filter({ hasText: title });

test("Claude Agent SDK, Codex and LangGraph turns: watched live in two browsers, stopped mid-loop from the browser, resumed, replayed after a reconnect", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const root = mkdtempSync(path.join(os.tmpdir(), "e2e-frameworks-"));
  const anthropic = await startScriptedAnthropic();
  const openai = await startScriptedOpenAI();
  const graphModel = new ToolCallingChatModel();
  const held = { claude: gate(), codex: gate(), graph: gate() };
  const agents: Agent[] = [];
  try {
    const ctxA = await browser.newContext();
    const ctxD = await browser.newContext();
    const a = await ctxA.newPage();
    await signUpFirstOrSignIn(a, people.alice);
    const invite = await createInviteLink(a);
    const d = await ctxD.newPage();
    await signUpWithInvite(d, invite, dana, people.alice.name);
    const made = {} as Record<Framework, { agent: { id: string }; apiKey: string }>;
    for (const f of FRAMEWORKS) {
      made[f] = await trpc(d, "agents.create", {
        handle: handles[f],
        displayName: f,
        description: `Runs on ${RUNTIME[f]}.`,
        framework: RUNTIME[f],
        capabilities: [],
      });
    }
    const room = await trpc<RoomView>(d, "rooms.createChannel", {
      name: `frameworks-${run}`,
      visibility: "public",
      memberIds: FRAMEWORKS.map((f) => made[f].agent.id),
    });
    await trpc(a, "rooms.join", { roomId: room.id });

    // Everything each CLI writes (home, config, sessions, temp files) under `root`.
    const dir = (name: string) => {
      const p = path.join(root, name);
      mkdirSync(p, { recursive: true });
      return p;
    };
    const codexHome = dir("codex-home");
    // Nothing but the scripted model is reached: no plugin sync, no analytics.
    writeFileSync(path.join(codexHome, "config.toml"), "[analytics]\nenabled = false\n\n[features]\nplugins = false\n");
    // An agent author's own tool in the graph, beside the platform tools: it runs as long as its command's gate stays shut.
    const checks = { "npm run e2e": held.graph, "npm run lint": gate() };
    checks["npm run lint"].open();
    const runChecks = tool(
      async ({ command }: { command: string }) => {
        await checks[command as keyof typeof checks]?.wait();
        return `${command}: 42 passed`;
      },
      { name: "run_checks", description: "Runs a test command", schema: z.object({ command: z.string() }) },
    );
    const adapters = {
      claude: claudeAgentSdk({
        model: "claude-sonnet-5",
        cwd: dir("claude-work"),
        env: {
          HOME: root,
          TMPDIR: dir("tmp"),
          CLAUDE_CONFIG_DIR: dir("claude-config"),
          ANTHROPIC_BASE_URL: anthropic.url,
          ANTHROPIC_API_KEY: "sk-ant-test-key",
          // Anything else the CLI tried to reach would go through the scripted server's refusing proxy.
          HTTPS_PROXY: anthropic.url,
          HTTP_PROXY: anthropic.url,
          NO_PROXY: "127.0.0.1",
        },
      }),
      codex: codex({
        model: "gpt-5.5",
        baseUrl: openai.baseUrl,
        apiKey: "sk-scripted",
        codexHome,
        workingDirectory: dir("codex-work"),
        skipGitRepoCheck: true,
        switchboardUrl: baseURL,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: codexHome, SWITCHBOARD_API_KEY: made.codex.apiKey },
      }),
      graph: langGraph({
        model: "scripted-tools-1",
        graph: (tools) => toolLoopGraph(graphModel, [...tools, runChecks]),
      }),
    };
    for (const f of FRAMEWORKS) {
      const agent = Agent.create({ url: baseURL!, apiKey: made[f].apiKey, handleSignals: false, log: () => undefined, adapter: adapters[f] });
      agents.push(agent);
      await agent.start();
    }

    // Each model calls a tool; then Claude's and Codex's next answer is held back, and LangGraph's tool blocks.
    anthropic.script([
      () => toolUse("mcp__switchboard__lookup_peers", { text: "reviewer" }),
      async () => (await held.claude.wait(), toolUse("mcp__switchboard__whoami", {})),
    ]);
    openai.script(
      () => ({ call: { namespace: "mcp__switchboard", name: "whoami", args: {} } }),
      async (request) => (await held.codex.wait(), codexSays("too late")(request)),
    );
    graphModel.script(callTools("Running the end-to-end suite.", [{ name: "run_checks", args: { command: "npm run e2e" } }]));
    const asks: Record<Framework, string> = {
      claude: `@${handles.claude} find a reviewer for the login fix`,
      codex: `@${handles.codex} who are you here?`,
      graph: `@${handles.graph} run the end-to-end suite`,
    };
    await d.goto(`/r/${room.id}`);
    await a.goto(`/r/${room.id}`);
    for (const f of FRAMEWORKS) await send(d, asks[f]);

    // Live in both browsers: each turn running, in its tool loop.
    const tools: Record<Framework, [title: string, status: string]> = {
      claude: ["lookup_peers reviewer", "done"],
      codex: ["whoami", "done"],
      graph: ["run_checks npm run e2e", "running"],
    };
    for (const page of [d, a]) {
      for (const f of FRAMEWORKS) {
        // (Each CLI starts its first turn: slow on a busy machine.)
        await expect(toolStep(turns(page, f).first(), tools[f][0])).toHaveAttribute("data-status", tools[f][1], { timeout: 30_000 });
        await expect(turns(page, f).first()).toHaveAttribute("data-state", "running");
      }
    }
    await expect.poll(() => FRAMEWORKS.every((f) => held[f].reached)).toBe(true);
    const bindings = async () => {
      const all = await trpc<BindingView[]>(d, "bindings.ofRoom", { roomId: room.id }, "query");
      return Object.fromEntries(FRAMEWORKS.map((f) => [f, all.find((b) => b.runtime === RUNTIME[f])])) as Record<Framework, BindingView | undefined>;
    };
    await expect.poll(async () => Object.values(await bindings()).every((b) => !!b?.externalId)).toBe(true);
    const sessions = await bindings();

    // Dana stops each from her browser, where each waits.
    for (const f of FRAMEWORKS) await turns(d, f).first().getByTestId("turn-stop").click();
    for (const page of [d, a]) {
      for (const f of FRAMEWORKS) {
        await expect(turns(page, f).first()).toHaveAttribute("data-state", "stopped");
        await expect(turns(page, f).first().getByTestId("turn-summary")).toContainText(`was stopped by @${dana.handle}`);
      }
    }
    for (const f of FRAMEWORKS) await expect(messageWithText(d, asks[f]).getByTestId("receipts")).toContainText(`stopped by @${dana.handle}`);

    // Alice goes offline; Dana's next mentions are answered by the same sessions.
    await ctxA.setOffline(true);
    await expect(a.getByTestId("connection-status")).toHaveAttribute("data-status", "reconnecting");
    anthropic.script([() => text("Back. No reviewer found yet.")]);
    openai.script(codexSays("Back on it."));
    graphModel.script(callTools("", [{ name: "run_checks", args: { command: "npm run lint" } }]), graphSays("Lint passed: 42 checks."));
    const replies: Record<Framework, string> = { claude: "Back. No reviewer found yet.", codex: "Back on it.", graph: "Lint passed: 42 checks." };
    for (const f of FRAMEWORKS) await send(d, `@${handles[f]} and now?`);
    for (const f of FRAMEWORKS) {
      await expect(messageWithText(d, replies[f])).toBeVisible({ timeout: 30_000 });
      await expect(turns(d, f).nth(1)).toHaveAttribute("data-state", "done");
      await expect(turns(a, f)).toHaveCount(1); // offline: Alice has not seen it
    }
    const resumed = await bindings();
    for (const f of FRAMEWORKS) expect(resumed[f], f).toMatchObject({ id: sessions[f]!.id, externalId: sessions[f]!.externalId, status: "idle" });
    // Each model was handed the stopped turn's conversation, then the new mention.
    const handed: Record<Framework, string> = {
      claude: JSON.stringify(anthropic.calls.at(-1)!.messages),
      codex: openai.responses().at(-1)!.input.map(describeItem).join("\n"),
      graph: graphModel.calls
        .at(-1)!
        .map((m) => String(m.content))
        .join("\n"),
    };
    for (const f of FRAMEWORKS) {
      expect(handed[f], f).toContain(asks[f]);
      expect(handed[f], f).toContain(`@${handles[f]} and now?`);
    }

    // Back online: what Alice missed is fetched again, the turns with their steps.
    await ctxA.setOffline(false);
    await expect(a.getByTestId("connection-status")).toHaveAttribute("data-status", "connected");
    for (const f of FRAMEWORKS) {
      await expect(messageWithText(a, replies[f])).toBeVisible();
      await expect(turns(a, f).nth(1)).toHaveAttribute("data-state", "done");
    }
    await turns(a, "graph").nth(1).getByTestId("turn-toggle").click();
    await expect(toolStep(turns(a, "graph").nth(1), "run_checks npm run lint")).toHaveAttribute("data-status", "done");

    // Nothing left working or reported for the Work page (work.spec.ts expects it empty).
    await expect
      .poll(async () => {
        const board = await trpc<{ agents: { agent: { id: string }; status: { state: string }; tasks: unknown[]; files: unknown[] }[] }>(
          d,
          "work.board",
          {},
          "query",
        );
        const mine = board.agents.filter((w) => FRAMEWORKS.some((f) => made[f].agent.id === w.agent.id));
        return mine.map((w) => `${w.status.state} ${w.tasks.length} ${w.files.length}`);
      })
      .toEqual(["idle 0 0", "idle 0 0", "idle 0 0"]);
    expect(anthropic.problems).toEqual([]);
    expect(anthropic.tunnels).toEqual([]);
    expect(graphModel.pending() + anthropic.pending() + openai.pending()).toBe(0);
  } finally {
    await Promise.all(agents.map((agent) => agent.stop({ abandonTurns: true })));
    for (const g of Object.values(held)) g.open();
    await Promise.all([anthropic.close(), openai.close()]);
    rmSync(root, { recursive: true, force: true });
  }
});
