// Reach: the clients the server hands out (server/http/install.ts), installed as a person would, from a
// folder outside the repository with a HOME of its own, using only what the server serves: `npx` runs
// the CLI from the server's tarball, `npm install` takes the SDK from it, and a TypeScript-free agent
// runs on plain `node`. npm keeps its download cache where it usually is (a warm cache, as on a
// developer's machine); nothing else of this machine's user is read.
import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedPackage } from "@switchboard/sdk/contract";
import { dialects, runProcess, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";
import { TS_AGENT } from "../../components/agents/agent-snippets";

/** npm's cache: the test runner's own (npm's default place), else a warm one given by the environment. */
const NPM_CACHE = process.env.npm_config_cache ?? path.join(homedir(), ".npm");

describe.each([dialects[0]])("the server's own clients, installed from it (%s)", (dialect) => {
  let server: TestServer;
  let ana: Person;
  let home: string;
  let project: string;
  /** A person's shell in a folder outside the repository: a HOME of its own, npm's cache warm. */
  const env = () => ({
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    npm_config_cache: NPM_CACHE,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  });
  /** The CLI as the server hands it out: npx, and the versioned tarball GET /install names. */
  const npx = async (args: string[], cwd = project) =>
    runProcess("npx", ["-y", `--package=${server.url}${(await served()).cli.path}`, "switchboard", ...args], { cwd, env: env() });
  const served = async () => ((await (await fetch(`${server.url}/install`)).json()) as { data: Record<"cli" | "sdk", ServedPackage> }).data;
  const newToken = async () => (await ana.api.agents.createOnboardingToken.mutate({ label: "install", expiresInDays: 1 })).token;

  beforeAll(async () => {
    ({
      server,
      people: { ana },
    } = await startWorkspace(dialect, { people: { ana: "owner" } }));
    home = mkdtempSync(path.join(tmpdir(), "switchboard-install-"));
    project = path.join(home, "project");
    mkdirSync(project);
  });
  afterAll(async () => {
    await server.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it("lists what it serves; serves each package under its plain and its versioned name, as npm tarballs of its version; and a clear 404 for anything else", async () => {
    const version = (JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8")) as { version: string }).version;
    const listed = (await (await fetch(`${server.url}/install`)).json()) as { ok: true; data: Record<"cli" | "sdk", ServedPackage> };
    for (const [key, name] of [
      ["cli", "@switchboard/cli"],
      ["sdk", "@switchboard/sdk"],
    ] as const) {
      const served = listed.data[key];
      expect(served.path).toBe(`/install/switchboard-${key}-${version}-${served.sha256.slice(0, 12)}.tgz`);
      const plain = await fetch(`${server.url}/install/${key}.tgz`);
      expect([plain.status, plain.headers.get("content-type"), plain.headers.get("cache-control")]).toEqual([200, "application/gzip", "no-cache"]);
      const body = Buffer.from(await plain.arrayBuffer());
      expect(createHash("sha256").update(body).digest("hex")).toBe(served.sha256);
      expect(Number(plain.headers.get("content-length"))).toBe(body.length);
      const versioned = await fetch(`${server.url}${served.path}`);
      expect([versioned.status, versioned.headers.get("cache-control")]).toEqual([200, "public, max-age=31536000, immutable"]);
      expect(Buffer.from(await versioned.arrayBuffer()).equals(body)).toBe(true);
      const again = await fetch(`${server.url}${served.path}`, { headers: { "If-None-Match": versioned.headers.get("etag")! } });
      expect(again.status).toBe(304);
      const head = await fetch(`${server.url}/install/${key}.tgz`, { method: "HEAD" });
      expect([head.status, head.headers.get("content-length")]).toEqual([200, String(body.length)]);
      // An npm tarball of this version.
      const tgz = path.join(home, `${key}.tgz`);
      writeFileSync(tgz, body);
      const manifest = await runProcess("tar", ["-xzOf", tgz, "package/package.json"], { cwd: home, env: env() });
      expect(JSON.parse(manifest.stdout)).toMatchObject({ name, version, type: "module" });
      // Another build's name: not this one.
      const stale = await fetch(`${server.url}/install/switchboard-${key}-${version}-000000000000.tgz`);
      expect([stale.status, ((await stale.json()) as { error: { message: string } }).error.message]).toEqual([404, expect.stringContaining(served.path)]);
    }
    for (const url of ["/install/other.tgz", "/install/..%2Fpackage.json", "/install/cli.tgz/x"]) {
      const res = await fetch(`${server.url}${url}`);
      expect(res.status, url).toBe(404);
      expect(await res.json()).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    }
    const post = await fetch(`${server.url}/install/cli.tgz`, { method: "POST" });
    expect([post.status, ((await post.json()) as { error: { message: string } }).error.message]).toEqual([404, "Use GET"]);
  });

  it("npx runs the CLI from the server's tarball: connect registers an agent and keeps its key in the HOME's config, 0600", async () => {
    const connected = await npx(["connect", "--url", server.url, "--token", await newToken(), "--client", "generic", "--handle", "from-npx"]);
    expect(connected.code, connected.stderr).toBe(0);
    expect(connected.stdout).toContain("Registered @from-npx");
    const configFile = path.join(home, ".config", "switchboard", "config.json");
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(configFile, "utf8")).toContain("from-npx");
    const key = await npx(["key"]);
    expect(key.code, key.stderr).toBe(0);
    expect(key.stdout.trim()).toMatch(/^sb_/);
    const whoami = await npx(["whoami", "--json"]);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ participant: { handle: "from-npx", kind: "agent" }, url: server.url });
  });

  it("an agent written against the SDK installed from the server runs on plain node (no tsx, no TypeScript) and answers a mention", async () => {
    const token = await newToken();
    const connected = await npx(["connect", "--url", server.url, "--token", token, "--client", "generic", "--handle", "sdk-echo"]);
    expect(connected.code, connected.stderr).toBe(0);
    const apiKey = (await npx(["key", "--profile", "sdk-echo"])).stdout.trim();
    const agentId = (await ana.api.agents.mine.query()).find((a) => a.handle === "sdk-echo")!.id;
    const roomId = (await ana.api.rooms.createChannel.mutate({ name: `sdk-${randomUUID().slice(0, 8)}`, visibility: "private", memberIds: [agentId] })).id;

    const app = path.join(home, "sdk-agent");
    mkdirSync(app);
    writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "sdk-agent", private: true, type: "module" }));
    const sdk = `${server.url}${(await served()).sdk.path}`;
    const installed = await runProcess("npm", ["install", "--no-audit", "--no-fund", sdk], { cwd: app, env: env() });
    expect(installed.code, installed.stderr).toBe(0);
    const deps = (JSON.parse(readFileSync(path.join(app, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies;
    expect(deps["@switchboard/sdk"]).toBe(sdk);
    // The agent the browser shows beside a new key, as it is shown.
    writeFileSync(path.join(app, "agent.mjs"), TS_AGENT);
    const child = spawn("node", ["agent.mjs"], {
      cwd: app,
      env: { ...env(), SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: apiKey } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    try {
      await waitFor(() => output.includes("@sdk-echo is listening"), 20_000, `the agent to start (output: ${output})`);
      const asked = await ana.api.messages.send.mutate({ roomId, body: "@sdk-echo are you there?", clientMsgId: randomUUID() });
      let replies: string[] = [];
      await waitFor(
        () => replies.length > 0,
        20_000,
        `the agent's reply (output: ${output})`,
        async () => {
          replies = (await ana.api.messages.thread.query({ messageId: asked.id })).replies.map((r) => r.body);
        },
      );
      expect(replies).toEqual(["echo: @sdk-echo are you there?"]);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
