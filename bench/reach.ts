// `npm run bench:reach`: from a fresh folder (a HOME of its own, npm's download cache warm, as on a
// developer's machine) to a new agent's first message seen by a person, per client, using only what
// the server hands out (GET /install), and the steps a person takes. The clock starts when the
// person's command would be pasted and stops when the person's socket gets the agent's message. The
// agent lands in #general (its onboarding token's default room), where the person listens.
//   claude      npx connect --client claude, with Claude Code's `claude` on PATH (the host CLIs
//               scripts/test.sh installs); then the official MCP client connects as Claude Code would
//               from what connect put in Claude Code's local scope (its URL, and the headers its
//               headersHelper prints), and calls send_message
//   codex       npx connect --client codex; the official MCP client starts the stdio server Codex's
//               config.toml now names, as Codex would, and calls send_message
//   typescript  npm install <server>'s SDK tarball; node agent.mjs (registers with the token, sends)
//   python      a virtualenv, pip install <server>/install/python; python agent.py (the same). No
//               PyPI here: the package's dependency comes from Debian (--system-site-packages,
//               --no-index); where an index is reachable pip fetches it, which this does not time.
// Needs `npm run build:packages` (run here if dist/install is missing). Target: under 10 s each.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { parse } from "smol-toml";
import type { ServedPackages } from "@switchboard/sdk/contract";
import { closeSockets, collectMessages, signUpPerson, startTestServer, waitFor } from "../tests/integration/harness";
import { recordSection } from "./sections";
import { BENCH_SERVER_ENV } from "./switchboard";

const ROOT = path.resolve(import.meta.dirname, "..");
const PYTHON = "/usr/bin/python3";
/** Where scripts/test.sh installs the hosts' own CLIs. */
const HOST_CLIS = path.join(process.env.SWITCHBOARD_HOST_CLIS ?? path.join(homedir(), ".cache", "switchboard", "host-clis"), "node_modules", ".bin");
const log = (line: string) => console.log(`[bench reach ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** The steps a person takes with each, in order (what the Agents page shows, then starting the agent). */
const STEPS: Record<string, string[]> = {
  claude: ["paste the command (connect)", "start Claude Code"],
  codex: ["paste the command (connect)", "start Codex"],
  typescript: ["paste the install command", "save the script the page shows", "run it with node"],
  python: ["paste the install command", "save the script the page shows", "run it with python"],
};

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${out}`))));
  });
}

if (!existsSync(path.join(HOST_CLIS, "claude")))
  throw new Error(`Claude Code's claude is not in ${HOST_CLIS}: run npm test once (scripts/test.sh installs it), or set SWITCHBOARD_HOST_CLIS`);
if (!existsSync(path.join(ROOT, "dist/install/cli.tgz"))) execFileSync(process.execPath, [path.join(ROOT, "scripts/build-packages.mjs")], { stdio: "inherit" });
const server = await startTestServer("sqlite", BENCH_SERVER_ENV);
const results: Record<string, { ms: number; steps: string[] }> = {};
try {
  const dana = await signUpPerson(server, { handle: "dana" });
  const general = (await dana.api.rooms.mine.query()).find((r) => r.name === "general")!;
  const seen = collectMessages(await dana.socket());
  const served = ((await (await fetch(`${server.url}/install`)).json()) as { data: ServedPackages }).data;
  const token = async () => (await dana.api.agents.createOnboardingToken.mutate({ label: "reach bench", expiresInDays: 1, maxUses: 1 })).token;
  const npx = () => ["-y", `--package=${server.url}${served.cli!.path}`, "switchboard"];
  const seenBody = (body: string) =>
    waitFor(() => seen.seen.some((m) => m.roomId === general.id && m.message.body === body), 60_000, `"${body}" seen by the person`);

  const clients: Record<string, (dir: string, env: NodeJS.ProcessEnv, body: string) => Promise<void>> = {
    async claude(dir, env, body) {
      await run("npx", [...npx(), "connect", "--url", server.url, "--token", await token(), "--client", "claude", "--handle", "reach-claude"], dir, env);
      // What Claude Code reads at its start: its local scope for the project, the headers from its helper.
      const claudeJson = JSON.parse(readFileSync(path.join(env.HOME!, ".claude.json"), "utf8")) as {
        projects: Record<string, { mcpServers: Record<string, { url: string; headersHelper: string }> }>;
      };
      const entry = claudeJson.projects[dir].mcpServers.switchboard;
      const headers = JSON.parse(await run("/bin/sh", ["-c", entry.headersHelper], dir, env)) as Record<string, string>;
      const client = new Client({ name: "claude-code-stand-in", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } }));
      await client.callTool({ name: "send_message", arguments: { room: "#general", body } });
      await seenBody(body);
      await client.close();
    },
    async codex(dir, env, body) {
      await run("npx", [...npx(), "connect", "--url", server.url, "--token", await token(), "--client", "codex", "--handle", "reach-codex"], dir, env);
      // What Codex starts: the stdio server its config.toml names, with that environment (and nothing of ours).
      const toml = parse(readFileSync(path.join(env.HOME!, ".codex", "config.toml"), "utf8")) as {
        mcp_servers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
      };
      const { command, args, env: vars } = toml.mcp_servers.switchboard;
      const client = new Client({ name: "codex-stand-in", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command, args, env: { PATH: env.PATH!, HOME: env.HOME!, ...vars }, cwd: dir, stderr: "pipe" }));
      await client.callTool({ name: "send_message", arguments: { room: "#general", body } });
      await seenBody(body);
      await client.close();
    },
    async typescript(dir, env, body) {
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "agent", private: true, type: "module" }));
      await run("npm", ["install", "--no-audit", "--no-fund", `${server.url}${served.sdk!.path}`], dir, env);
      writeFileSync(
        path.join(dir, "agent.mjs"),
        `import { SwitchboardClient } from "@switchboard/sdk";
const { apiKey, room } = await SwitchboardClient.register(${JSON.stringify(server.url)}, { onboardingToken: ${JSON.stringify(await token())}, handle: "reach-ts", displayName: "Reach TS" });
const client = new SwitchboardClient({ url: ${JSON.stringify(server.url)}, apiKey });
await client.connect();
await client.send(room.id, ${JSON.stringify(body)});
await client.close();
`,
      );
      await run("node", ["agent.mjs"], dir, env);
      await seenBody(body);
    },
    async python(dir, env, body) {
      await run(PYTHON, ["-m", "venv", "--system-site-packages", "venv"], dir, env);
      await run(path.join(dir, "venv/bin/pip"), ["install", "--no-deps", "--no-index", `${server.url}${served.python!.path}`], dir, env);
      writeFileSync(
        path.join(dir, "agent.py"),
        `import asyncio
from switchboard import SwitchboardClient

async def main():
    registered = await SwitchboardClient.register(${JSON.stringify(server.url)}, ${JSON.stringify(await token())}, "reach-py", "Reach Py")
    client = SwitchboardClient(${JSON.stringify(server.url)}, registered["apiKey"])
    await client.connect()
    await client.send(registered["room"]["id"], ${JSON.stringify(body)})
    await client.close()

asyncio.run(main())
`,
      );
      await run(path.join(dir, "venv/bin/python"), ["agent.py"], dir, env);
      await seenBody(body);
    },
  };

  for (const [name, start] of Object.entries(clients)) {
    const home = mkdtempSync(path.join(tmpdir(), `switchboard-reach-${name}-`));
    const dir = path.join(home, "project");
    mkdirSync(dir);
    const env = {
      // Claude Code's `claude` on PATH, as on a machine that has it (connect then uses its local scope).
      PATH: [HOST_CLIS, process.env.PATH ?? ""].join(path.delimiter),
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, ".config"),
      npm_config_cache: process.env.npm_config_cache ?? path.join(homedir(), ".npm"),
      npm_config_update_notifier: "false",
      PIP_DISABLE_PIP_VERSION_CHECK: "1",
    } as unknown as NodeJS.ProcessEnv;
    const t0 = performance.now();
    await start(dir, env, `hello from ${name}`);
    results[name] = { ms: Math.round(performance.now() - t0), steps: STEPS[name] };
    log(`${name}: ${results[name].ms} ms, ${STEPS[name].length} steps`);
    rmSync(home, { recursive: true, force: true });
  }
} finally {
  closeSockets();
  await server.dispose();
}

const at = new Date().toISOString();
recordSection("reach", { at, results }, "reach", [
  "## From a fresh folder to an agent's first message, per client (`npm run bench:reach`)",
  "",
  `Run ${at} against the server (SQLite) on this machine: each client from a folder with a HOME of its own and npm's download cache warm, using only what the server hands out (\`GET /install\`); the clock runs from the first command to the person's socket getting the new agent's message in #general (where the onboarding token puts it). Python's dependency comes from Debian here (no PyPI): pip installs the package alone. Target: under 10 s each; the steps are the person's.`,
  "",
  "| client | machine time, ms | the person's steps |",
  "|---|---:|---|",
  ...Object.entries(results).map(([name, r]) => `| ${name} | ${r.ms} | ${r.steps.length}: ${r.steps.join("; ")} |`),
  "",
  "Claude Code and Codex take the 2 steps the issue aims at: nothing to export (the key is read from the CLI's config dir) and nothing to approve. A script takes 3, the middle one being the agent itself (the page shows a starting point).",
]);
log("done: bench/RESULTS.md, bench/results.json");
