// `npm run bench:reach`: from a fresh folder (a HOME of its own, npm's download cache warm, as on a
// developer's machine) to a new agent's first message seen by a person, per client, using only what
// the server hands out (GET /install), and the steps a person takes. The clock starts when the
// person's command would be pasted and stops when the person's socket gets the agent's message. The
// agent lands in #general (its onboarding token's default room), where the person listens.
//   claude      npx connect --client claude; the host starts `npx … switchboard mcp` (the official
//               MCP client, as Claude Code would) and calls send_message
//   typescript  npm install <server>'s SDK tarball; node agent.mjs (registers with the token, sends)
//   python      a virtualenv, pip install <server>/install/python; python agent.py (the same). No
//               PyPI here: the package's dependency comes from Debian (--system-site-packages,
//               --no-index); where an index is reachable pip fetches it, which this does not time.
// Needs `npm run build:packages` (run here if dist/install is missing). Target: under 10 s each.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ServedPackages } from "@switchboard/sdk/contract";
import { closeSockets, collectMessages, signUpPerson, startTestServer, waitFor } from "../tests/integration/harness";
import { recordSection } from "./sections";
import { BENCH_SERVER_ENV } from "./switchboard";

const ROOT = path.resolve(import.meta.dirname, "..");
const PYTHON = "/usr/bin/python3";
const log = (line: string) => console.log(`[bench reach ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** The steps a person takes with each, in order (what the Agents page shows, then starting the agent). */
const STEPS: Record<string, string[]> = {
  claude: ["paste the command (connect)", "run the export line it prints", "start Claude Code"],
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

if (!existsSync(path.join(ROOT, "dist/install/cli.tgz"))) execFileSync(process.execPath, [path.join(ROOT, "scripts/build-packages.mjs")], { stdio: "inherit" });
const server = await startTestServer("sqlite", BENCH_SERVER_ENV);
const results: Record<string, { ms: number; steps: string[] }> = {};
try {
  const dana = await signUpPerson(server, { handle: "dana" });
  const general = (await dana.api.rooms.mine.query()).find((r) => r.name === "general")!;
  const seen = collectMessages(await dana.socket());
  const served = ((await (await fetch(`${server.url}/install`)).json()) as { data: ServedPackages }).data;
  const token = async () => (await dana.api.agents.createOnboardingToken.mutate({ label: "reach bench", expiresInDays: 1, maxUses: 1 })).token;
  const seenBody = (body: string) =>
    waitFor(() => seen.seen.some((m) => m.roomId === general.id && m.message.body === body), 60_000, `"${body}" seen by the person`);

  const clients: Record<string, (dir: string, env: NodeJS.ProcessEnv, body: string) => Promise<void>> = {
    async claude(dir, env, body) {
      const npx = ["-y", `--package=${server.url}${served.cli!.path}`, "switchboard"];
      await run("npx", [...npx, "connect", "--url", server.url, "--token", await token(), "--client", "claude", "--handle", "reach-claude"], dir, env);
      const client = new Client({ name: "claude-code-stand-in", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: "npx", args: [...npx, "mcp"], env: env as Record<string, string>, cwd: dir, stderr: "pipe" }));
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
      PATH: process.env.PATH ?? "",
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
  "Claude Code takes 3 steps, not the 2 the issue aims at: the key must be exported where Claude Code starts (its MCP entry and hooks read it from the environment).",
]);
log("done: bench/RESULTS.md, bench/results.json");
