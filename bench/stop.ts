// `npm run bench:stop`: from a person's Stop (tRPC turns.stop) to the turn's end as the room sees it
// (`turn:activity` with state "stopped" on the person's socket), per adapter, with the SDK's Agent
// running each turn in this process against the server (SQLite). Each turn is stopped while its
// framework is busy: the generic adapter waits on its signal; the Claude Agent SDK (its real CLI) has
// called a platform tool and waits for the model's next answer; Codex (its real CLI) waits for the
// model's answer; LangGraph (the real package, in this process, a scripted chat model) runs a tool
// call that takes its time. The CLIs' models are scripted endpoints on loopback that hold that answer
// back. Target: under 1 s each.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { Agent, type RuntimeAdapter } from "@switchboard/sdk";
import { claudeAgentSdk } from "@switchboard/sdk/adapters/claude-agent-sdk";
import { codex } from "@switchboard/sdk/adapters/codex";
import { generic } from "@switchboard/sdk/adapters/generic";
import { langGraph } from "@switchboard/sdk/adapters/langgraph";
import { tool } from "@langchain/core/tools";
import { toolLoopGraph } from "../tests/integration/fixtures/tool-loop-graph";
import { z } from "zod";
import type { TurnView } from "@switchboard/sdk/turns";
import { startScriptedAnthropic, text, toolUse } from "../tests/support/scripted-anthropic";
import { say, startScriptedOpenAI } from "../tests/support/scripted-openai";
import { closeSockets, collect, createAgent, signUpPerson, startTestServer, waitFor } from "../tests/integration/harness";
import { callTools, ToolCallingChatModel } from "../tests/integration/fixtures/tool-calling-chat-model";
import { recordSection } from "./sections";
import { BENCH_SERVER_ENV } from "./switchboard";

const ROUNDS = 5;
const log = (line: string) => console.log(`[bench stop ${new Date().toISOString().slice(11, 19)}] ${line}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const HELD_MS = 60_000;
const held = () => new Promise((resolve) => setTimeout(resolve, HELD_MS).unref());

const root = mkdtempSync(path.join(tmpdir(), "switchboard-bench-stop-"));
const [server, anthropic, openai] = await Promise.all([startTestServer("sqlite", BENCH_SERVER_ENV), startScriptedAnthropic(), startScriptedOpenAI()]);
const results: Record<string, { medianMs: number; ms: number[] }> = {};
try {
  const dana = await signUpPerson(server, { handle: "dana" });
  const events = collect(await dana.socket(), "turn:activity");
  const latest = (messageId: string): TurnView | undefined => events.filter((e) => e.turn.messageId === messageId).at(-1)?.turn;

  const claudeHome = path.join(root, "claude");
  mkdirSync(path.join(claudeHome, "tmp"), { recursive: true });
  const codexHome = path.join(root, "codex");
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(path.join(codexHome, "config.toml"), "[analytics]\nenabled = false\n\n[features]\nplugins = false\n");

  // LangGraph's model asks for a tool that takes its time; the run is busy once the tool has started.
  const graphModel = new ToolCallingChatModel();
  let checksStarted = 0;
  const runChecks = tool(
    async () => {
      checksStarted += 1;
      await held();
      return "too late";
    },
    { name: "run_checks", description: "Runs the test suite", schema: z.object({ command: z.string() }) },
  );

  /** Per adapter: the adapter, what its model answers this round, and when its framework is busy (the held answer asked for). */
  const adapters: Record<string, { make: () => RuntimeAdapter; busy: () => void; isBusy: () => boolean }> = {
    generic: {
      make: () =>
        generic((input) => new Promise((_, reject) => input.signal.addEventListener("abort", () => reject(input.signal.reason as Error), { once: true }))),
      busy: () => undefined,
      isBusy: () => true,
    },
    "claude-agent-sdk": {
      make: () =>
        claudeAgentSdk({
          model: "claude-sonnet-4-5",
          cwd: claudeHome,
          env: {
            HOME: claudeHome,
            TMPDIR: path.join(claudeHome, "tmp"),
            CLAUDE_CONFIG_DIR: path.join(claudeHome, "config"),
            ANTHROPIC_BASE_URL: anthropic.url,
            ANTHROPIC_API_KEY: "sk-ant-bench",
            HTTPS_PROXY: anthropic.url,
            HTTP_PROXY: anthropic.url,
            NO_PROXY: "127.0.0.1",
          },
        }),
      busy: () => anthropic.script([() => toolUse("mcp__switchboard__whoami", {}), async () => (await held(), text("too late"))]),
      isBusy: () => anthropic.pending() === 0,
    },
    codex: {
      make: () =>
        codex({
          model: "gpt-5.5",
          baseUrl: openai.baseUrl,
          apiKey: "sk-scripted",
          codexHome,
          workingDirectory: codexHome,
          skipGitRepoCheck: true,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: codexHome },
        }),
      busy: () => openai.script(async (request) => (await held(), say("too late")(request))),
      isBusy: () => openai.pending() === 0,
    },
    langgraph: {
      make: () =>
        langGraph({
          model: "scripted-tools-1",
          graph: (tools) => toolLoopGraph(graphModel, [...tools, runChecks]),
        }),
      busy: () => {
        checksStarted = 0;
        graphModel.script(callTools("", [{ name: "run_checks", args: { command: "npm test" } }]));
      },
      isBusy: () => checksStarted === 1,
    },
  };

  for (const [name, { make, busy, isBusy }] of Object.entries(adapters)) {
    const handle = `stop-${name.replace(/[^a-z]/g, "")}`;
    const made = await createAgent(dana, handle);
    const room = await dana.api.rooms.createChannel.mutate({ name: `stop-${name.replace(/[^a-z]/g, "")}`, visibility: "private", memberIds: [made.id] });
    const agent = Agent.create({ url: server.url, apiKey: made.apiKey, handleSignals: false, log: () => undefined, adapter: make() });
    await agent.start();
    const ms: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      busy();
      const asked = await dana.api.messages.send.mutate({ roomId: room.id, body: `@${handle} work on round ${round}`, clientMsgId: randomUUID() });
      await waitFor(() => latest(asked.id)?.state === "running", 30_000, `${name}'s turn running`);
      await waitFor(isBusy, 30_000, `${name} busy`);
      const t0 = performance.now();
      await dana.api.turns.stop.mutate({ turnId: latest(asked.id)!.id });
      await waitFor(() => latest(asked.id)?.state === "stopped", 30_000, `${name}'s turn stopped`);
      ms.push(Math.round(performance.now() - t0));
    }
    await agent.stop({ abandonTurns: true });
    results[name] = { medianMs: median(ms), ms };
    log(`${name}: Stop to the turn's end ${median(ms)} ms (median of ${ROUNDS}: ${ms.join(", ")})`);
  }
} finally {
  closeSockets();
  await Promise.all([server.dispose(), anthropic.close(), openai.close()]);
  rmSync(root, { recursive: true, force: true });
}

const at = new Date().toISOString();
recordSection("stop", { at, results }, "stop", [
  "## From Stop to the turn's end, per adapter (`npm run bench:stop`)",
  "",
  `Run ${at} on this machine against the server (SQLite): a person presses Stop (tRPC \`turns.stop\`) on a turn the SDK's Agent runs, while its framework is busy (the CLIs waiting for a scripted model's held-back answer, the Claude Agent SDK after a platform tool call, LangGraph in a slow tool call); the clock stops when the person's socket gets the turn as stopped. Median of ${ROUNDS}. Target: under 1 s each.`,
  "",
  "| adapter | Stop to the end, median ms | each round, ms |",
  "|---|---:|---|",
  ...Object.entries(results).map(([name, r]) => `| ${name} | ${r.medianMs} | ${r.ms.join(", ")} |`),
]);
log("done: bench/RESULTS.md, bench/results.json");
