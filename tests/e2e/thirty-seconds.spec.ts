// "Any coding agent joins in 30 seconds", end to end: from a person's onboarding token, `switchboard
// connect`, run by `npx` from the server's own tarball (/install/cli.tgz) in a folder outside the
// repository with a HOME of its own, registers an agent and wires Claude Code in; `switchboard mcp` is
// started as a host starts it and driven with the official MCP client; the person's browser sees the agent's message, and the
// agent receives the person's reply. The machine's share of the time (everything but the person's
// typing) is written to artifacts/thirty-seconds.json; bench/RESULTS.md records a run of it.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "./fixtures";
import { messageWithText, people, send, signUpFirstOrSignIn, trpc } from "./helpers";

const run = Date.now().toString(36).slice(-5);

/** The CLI as the server hands it out: `npx` and its tarball, under the versioned name GET /install gives. */
async function npxCli(baseURL: string): Promise<string[]> {
  const served = (await (await fetch(`${baseURL}/install`)).json()) as { data: { cli: { path: string } } };
  return ["-y", `--package=${baseURL}${served.data.cli.path}`, "switchboard"];
}

function cli(
  npx: string[],
  args: string[],
  opts: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", [...npx, ...args], { cwd: opts.cwd, env: opts.env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

async function tool<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

test("from an onboarding token to a conversation: connect, the MCP server over stdio, the browser and back", async ({ page, baseURL }) => {
  mkdirSync("artifacts", { recursive: true });
  await signUpFirstOrSignIn(page, people.alice);
  const { token } = await trpc<{ token: string }>(page, "agents.createOnboardingToken", { label: "30 seconds", maxUses: 1 });

  const home = mkdtempSync(path.join(tmpdir(), "switchboard-30s-"));
  const project = path.join(home, "project");
  mkdirSync(project);
  // npm's download cache stays where it is (a warm cache); nothing else of this machine's user is read.
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    CODEX_HOME: path.join(home, ".codex"),
    npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), ".npm"),
    npm_config_update_notifier: "false",
  };
  const handle = `claude-${run}`;

  // 1. One command.
  const t0 = performance.now();
  const npx = await npxCli(baseURL!);
  const connected = await cli(npx, ["connect", "--url", baseURL!, "--token", token, "--client", "claude", "--handle", handle], { cwd: project, env });
  const connectMs = performance.now() - t0;
  expect(connected.code, connected.stderr).toBe(0);
  const mcpJson = JSON.parse(readFileSync(path.join(project, ".mcp.json"), "utf8")) as { mcpServers: { switchboard: { url: string } } };
  expect(mcpJson.mcpServers.switchboard.url).toBe(`${baseURL}/api/mcp`);

  // 2. The host starts the MCP server and the agent speaks.
  const t1 = performance.now();
  const client = new Client({ name: "claude-code-stand-in", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: "npx", args: [...npx, "mcp"], env, cwd: project, stderr: "pipe" }));
  try {
    await tool(client, "join_room", { room: "#general" });
    const hello = `Hi, I'm @${handle}: connected in one command (${run})`;
    await tool(client, "send_message", { room: "#general", body: hello, client_id: `hello-${run}` });
    await expect(messageWithText(page, hello)).toBeVisible();
    const agentSpokeMs = performance.now() - t1;

    // 3. The person answers (their typing is theirs); the agent hears it.
    const reply = `@${handle} welcome! run the tests please (${run})`;
    await send(page, reply);
    const t2 = performance.now();
    const waited = await tool<{ messages: { text: string; from: string }[]; acknowledge: { room_id: string; through_seq: number }[] }>(
      client,
      "wait_for_messages",
      { timeout_seconds: 30 },
    );
    const heardMs = performance.now() - t2;
    expect(waited.messages).toEqual([expect.objectContaining({ text: reply, from: `@${people.alice.handle}` })]);
    await tool(client, "acknowledge", { room: waited.acknowledge[0].room_id, seq: waited.acknowledge[0].through_seq });

    const figures = {
      at: new Date().toISOString(),
      connectMs: Math.round(connectMs),
      mcpStartJoinSendSeenMs: Math.round(agentSpokeMs),
      replyHeardMs: Math.round(heardMs),
      machineMs: Math.round(connectMs + agentSpokeMs + heardMs),
    };
    writeFileSync("artifacts/thirty-seconds.json", `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`30 seconds: ${JSON.stringify(figures)}`);
  } finally {
    await client.close();
  }
});
