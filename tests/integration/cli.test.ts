// The `switchboard` CLI as people run it: the real bin (this run's bundle of it, global-setup.ts) as a
// child process, with a home, config dir, CODEX_HOME and working directory of its own, against the
// real server. What `connect` writes is parsed (JSON.parse, smol-toml) and held against each host's
// documented format.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "smol-toml";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { MessageView } from "@switchboard/sdk/contract";
import { BIN, CLI, closeSockets, collectMessages, dialects, queryDb, runProcess, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

/**
 * The hosts' own CLIs, when installed outside the repository (they are not dependencies: ~640 MB):
 * `npm i --prefix DIR @openai/codex@0.169 @anthropic-ai/claude-code@2.1`, then SWITCHBOARD_HOST_CLIS=DIR.
 * Both read their configs offline.
 */
const hostCli = (name: string) => {
  const bin = process.env.SWITCHBOARD_HOST_CLIS ? path.join(process.env.SWITCHBOARD_HOST_CLIS, "node_modules", ".bin", name) : "";
  return bin && existsSync(bin) ? bin : null;
};
const CODEX = hostCli("codex");
const CLAUDE = hostCli("claude");

// On one database: what this file tests is the bin (its files, output and exit codes); the API it calls
// runs on both databases in the other files, and every CLI run here costs a process start.
describe.each([dialects[0]])("the switchboard CLI on %s", (dialect) => {
  let server: TestServer;
  let ana: Person;
  let home: string;
  let project: string;
  let origin: string;
  const configDir = () => path.join(home, ".config", "switchboard");
  const config = () =>
    JSON.parse(readFileSync(path.join(configDir(), "config.json"), "utf8")) as {
      default: string;
      profiles: Record<string, { apiKey: string; participantId: string; handle: string }>;
    };
  const profile = (handle: string) => config().profiles[`${handle}@${origin}`];
  const installedCli = () => path.join(configDir(), "bin", "switchboard.mjs");
  /** The stdio server hosts run for `handle`: the CLI's copy in the config dir, by absolute paths. */
  const bridge = (handle: string) => ({
    command: process.execPath,
    args: [installedCli(), "mcp", "--profile", `${handle}@${origin}`],
    env: { SWITCHBOARD_CONFIG_DIR: configDir() },
  });
  /** The agent's key file in the config dir, as hosts read it (`.json`: the header as JSON; `.header`: as a line). */
  const keyFile = (handle: string, ext: ".json" | ".header") => {
    const file = readdirSync(path.join(configDir(), "keys")).find((f) => f.startsWith(`${handle}@`) && f.endsWith(ext));
    return path.join(configDir(), "keys", file!);
  };
  /** The agent the first test connects, for tests run on their own. */
  const ensureAgent = async (handle: string) => {
    let known = false;
    try {
      known = !!profile(handle);
    } catch {
      // no config yet
    }
    if (!known) await ok(["connect", "--url", server.url, "--token", await newToken(), "--client", "claude", "--handle", handle]);
    return profile(handle);
  };

  /** The bin, as a person would run it; no SWITCHBOARD_* from the test's own environment. */
  const env = (extra: Record<string, string> = {}) =>
    ({
      PATH: process.env.PATH ?? "",
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, ".config"),
      CODEX_HOME: path.join(home, ".codex"),
      ...extra,
    }) as unknown as NodeJS.ProcessEnv;
  const cli = (args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) => run(process.execPath, [...CLI, ...args], opts);
  const run = (command: string, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) =>
    runProcess(command, args, { cwd: opts.cwd ?? project, env: env(opts.env) as Record<string, string> });
  /** The bin with `input` on its stdin (a password piped in). */
  const cliWithStdin = (args: string[], input: string, extraEnv: Record<string, string> = {}) =>
    runProcess(process.execPath, [...CLI, ...args], { cwd: project, env: env(extraEnv) as Record<string, string>, stdin: input });
  const ok = async (args: string[], opts?: Parameters<typeof cli>[1]) => {
    const result = await cli(args, opts);
    expect(result.code, `switchboard ${args.join(" ")}\n${result.stderr}`).toBe(0);
    return result;
  };
  const jsonLines = (text: string) =>
    text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const newToken = async () => (await ana.api.agents.createOnboardingToken.mutate({ label: "cli", expiresInDays: 1 })).token;
  const snapshot = (file: string) => ({ bytes: readFileSync(file, "utf8"), mtimeMs: statSync(file).mtimeMs });

  beforeAll(async () => {
    ({
      server,
      people: { ana },
    } = await startWorkspace(dialect, { people: { ana: "owner" } }));
    origin = new URL(server.url).origin;
    home = mkdtempSync(path.join(tmpdir(), "switchboard-cli-"));
    project = path.join(home, "project");
    mkdirSync(project);
  });
  afterEach(() => closeSockets());
  afterAll(async () => {
    await server.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it("connect --client claude registers once, keeps the key 0600 in a 0700 dir, merges .mcp.json without the key, and changes nothing the second time", async () => {
    const mcpJson = path.join(project, ".mcp.json");
    writeFileSync(mcpJson, `${JSON.stringify({ mcpServers: { docs: { command: "npx", args: ["-y", "docs-mcp"] } } }, null, 2)}\n`);
    const token = await newToken();
    const args = ["connect", "--url", server.url, "--token", token, "--client", "claude", "--handle", "ana-claude"];
    const first = await ok(args);
    expect(first.stdout).toContain("Registered @ana-claude");
    expect(first.stdout).toContain("It is in #general: its first message can go there.");
    expect(first.stdout).toMatch(/export SWITCHBOARD_API_KEY="\$\(.+ key --profile ana-claude\)"/);

    const stored = profile("ana-claude");
    expect(stored.apiKey).toMatch(/^sb_/);
    expect(first.stdout + first.stderr).not.toContain(stored.apiKey);
    expect(statSync(configDir()).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(configDir(), "config.json")).mode & 0o777).toBe(0o600);
    // The key as the hosts read it: beside config.json, as private.
    expect(statSync(path.join(configDir(), "keys")).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(keyFile("ana-claude", ".json"), "utf8"))).toEqual({ Authorization: `Bearer ${stored.apiKey}` });
    expect(readFileSync(keyFile("ana-claude", ".header"), "utf8")).toBe(`Authorization: Bearer ${stored.apiKey}\n`);
    for (const ext of [".json", ".header"] as const) expect(statSync(keyFile("ana-claude", ext)).mode & 0o777).toBe(0o600);
    const agents = await ana.api.agents.mine.query();
    expect(agents.find((a) => a.handle === "ana-claude")?.id).toBe(stored.participantId);

    // Claude Code's .mcp.json: mcpServers.<name> = { type: "http", url, headers }, ${VAR} expanded from the environment.
    const mcp = JSON.parse(readFileSync(mcpJson, "utf8")) as { mcpServers: Record<string, unknown> };
    expect(mcp.mcpServers.docs).toEqual({ command: "npx", args: ["-y", "docs-mcp"] });
    expect(mcp.mcpServers.switchboard).toEqual({ type: "http", url: `${origin}/api/mcp`, headers: { Authorization: "Bearer ${SWITCHBOARD_API_KEY}" } });
    expect(filesHolding(home, stored.apiKey, configDir())).toEqual([]);

    // The printed key command prints the stored key.
    expect((await ok(["key", "--profile", "ana-claude"])).stdout.trim()).toBe(stored.apiKey);

    const before = { mcp: snapshot(mcpJson), config: snapshot(path.join(configDir(), "config.json")) };
    const again = await ok(args);
    expect(again.stdout).toContain("Already connected as @ana-claude");
    expect(snapshot(mcpJson)).toEqual(before.mcp);
    expect(snapshot(path.join(configDir(), "config.json"))).toEqual(before.config);
    expect((await ana.api.agents.mine.query()).length).toBe(agents.length);
  });

  it("connect --client codex adds [mcp_servers.switchboard] to config.toml, keeping the user's comments and tables, and is idempotent", async () => {
    const file = path.join(home, ".codex", "config.toml");
    mkdirSync(path.dirname(file), { recursive: true });
    const original = [
      "# my Codex settings",
      'model = "o3" # the one I like',
      "",
      "[mcp_servers.docs]",
      "# a local docs server",
      'command = "npx"',
      'args = ["-y", "docs-mcp"]',
      "",
      "[profiles.fast]",
      'model = "o4-mini"',
      "",
    ].join("\n");
    writeFileSync(file, original);
    await ok(["connect", "--url", server.url, "--token", await newToken(), "--client", "codex", "--handle", "ana-codex"]);

    const text = readFileSync(file, "utf8");
    expect(text.startsWith(original.trimEnd())).toBe(true); // every byte of the user's file, in place
    const toml = parse(text) as { model: string; mcp_servers: Record<string, unknown>; profiles: unknown };
    expect(toml.model).toBe("o3");
    expect(toml.profiles).toEqual({ fast: { model: "o4-mini" } });
    expect(toml.mcp_servers.docs).toEqual({ command: "npx", args: ["-y", "docs-mcp"] });
    // Codex's stdio server: the bridge, a copy of the CLI in the config dir, which reads the key from there.
    expect(toml.mcp_servers.switchboard).toEqual(bridge("ana-codex"));
    expect(filesHolding(home, profile("ana-codex").apiKey, configDir())).toEqual([]);

    const before = snapshot(file);
    const again = await ok(["connect", "--url", server.url, "--client", "codex", "--handle", "ana-codex"]);
    expect(again.stdout).toContain("Already connected");
    expect(snapshot(file)).toEqual(before);
  });

  it.skipIf(!CODEX || !CLAUDE)("the real Codex and Claude Code CLIs read what connect wrote (offline)", async () => {
    await ok(["connect", "--url", server.url, "--token", await newToken(), "--client", "codex", "--handle", "ana-codex"]);
    await ok(["connect", "--url", server.url, "--token", await newToken(), "--client", "claude", "--handle", "ana-claude"]);

    const codex = await run(CODEX!, ["mcp", "get", "switchboard", "--json"]);
    expect(codex.code, codex.stderr).toBe(0);
    const { command, args, env: vars } = bridge("ana-codex");
    expect(JSON.parse(codex.stdout)).toMatchObject({ name: "switchboard", enabled: true, transport: { type: "stdio", command, args, env: vars } });

    // The printed `codex mcp add …` line, run by Codex itself, writes what connect writes.
    const printed = await ok(["connect", "--url", server.url, "--client", "codex", "--handle", "ana-codex", "--print"]);
    const line = printed.stdout.split("\n").find((l) => l.startsWith("codex mcp add "))!;
    const freshHome = mkdtempSync(path.join(home, "codex-home-"));
    const added = await run("/bin/sh", ["-c", line], { env: { CODEX_HOME: freshHome, PATH: `${path.dirname(CODEX!)}${path.delimiter}${process.env.PATH}` } });
    expect(added.code, added.stderr).toBe(0);
    const byCodex = parse(readFileSync(path.join(freshHome, "config.toml"), "utf8")) as { mcp_servers: Record<string, unknown> };
    const byConnect = parse(readFileSync(path.join(home, ".codex", "config.toml"), "utf8")) as { mcp_servers: Record<string, unknown> };
    expect({ ...(byCodex.mcp_servers.switchboard as object) }).toEqual({ ...(byConnect.mcp_servers.switchboard as object) });

    const claude = await run(CLAUDE!, ["mcp", "get", "switchboard"], { env: { DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" } });
    expect(claude.code, claude.stdout + claude.stderr).toBe(0);
    expect(claude.stdout).toContain("Scope: Project config (shared via .mcp.json)");
    expect(claude.stdout).toContain("Type: http");
    expect(claude.stdout).toContain(`URL: ${origin}/api/mcp`);
    expect(claude.stdout).toContain("Authorization: Bearer ${SWITCHBOARD_API_KEY}");
  });

  it("gives each project its own agent: key, whoami and send in a folder connect wired (or below it) use that folder's agent", async () => {
    const folder = (name: string) => {
      const dir = path.join(home, name);
      mkdirSync(dir, { recursive: true });
      return dir;
    };
    const [web, api, shared] = [folder("web"), folder("api"), folder("shared")];
    await ok(["connect", "--url", server.url, "--token", await newToken(), "--client", "generic", "--handle", "web-agent"], { cwd: web });
    await ok(["connect", "--url", server.url, "--token", await newToken(), "--client", "generic", "--handle", "api-agent"], { cwd: api });
    const keyIn = async (cwd: string) => (await ok(["key"], { cwd })).stdout.trim();
    // The last one connected is the default, but in the first project the first agent is used.
    expect(await keyIn(web)).toBe(profile("web-agent").apiKey);
    expect(await keyIn(folder("web/src/deep"))).toBe(profile("web-agent").apiKey);
    expect(await keyIn(api)).toBe(profile("api-agent").apiKey);
    expect(await keyIn(folder("elsewhere"))).toBe(config().profiles[config().default].apiKey);
    const whoami = JSON.parse((await ok(["whoami", "--json"], { cwd: web })).stdout) as { participant: { handle: string } };
    expect(whoami.participant.handle).toBe("web-agent");

    // Two agents wired into one folder: which one is for --profile to say.
    await ok(["connect", "--url", server.url, "--token", await newToken(), "--client", "generic", "--handle", "shared-one"], { cwd: shared });
    await ok(["connect", "--url", server.url, "--token", await newToken(), "--client", "generic", "--handle", "shared-two"], { cwd: shared });
    const ambiguous = await cli(["key"], { cwd: shared });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain("Several agents were connected in this project");
    expect(ambiguous.stderr).toContain("--profile");
    expect((await ok(["key", "--profile", "shared-two"], { cwd: shared })).stdout.trim()).toBe(profile("shared-two").apiKey);
  });

  it.skipIf(!CLAUDE)(
    "with Claude Code's `claude` on PATH, connect adds the server to its local scope: Claude Code connects with nothing to approve, and no file holds the key",
    async () => {
      const local = path.join(home, "local-project");
      mkdirSync(local);
      const withClaude = {
        PATH: `${path.dirname(CLAUDE!)}${path.delimiter}${process.env.PATH ?? ""}`,
        DISABLE_AUTOUPDATER: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      };
      const args = ["connect", "--url", server.url, "--token", await newToken(), "--client", "claude", "--handle", "ana-local"];
      const first = await ok(args, { cwd: local, env: withClaude });
      expect(first.stdout).toContain("Claude Code's local scope for this project");
      expect(existsSync(path.join(local, ".mcp.json"))).toBe(false);
      const key = profile("ana-local").apiKey;
      // Nothing to export: the header comes from the key file in the config dir, which the hooks' curl reads too.
      expect(first.stdout).not.toContain("export SWITCHBOARD_API_KEY");
      const claudeJson = readFileSync(path.join(home, ".claude.json"), "utf8");
      expect(claudeJson).not.toContain(key);
      expect(claudeJson).toContain(`"headersHelper": "cat ${keyFile("ana-local", ".json")}"`);
      const hooks = JSON.parse(readFileSync(path.join(local, ".claude", "settings.local.json"), "utf8")) as {
        hooks: Record<string, { hooks: { type: string; command: string }[] }[]>;
      };
      expect(hooks.hooks.PostToolUse[0].hooks[0]).toMatchObject({
        type: "command",
        command: expect.stringContaining(`-H @${keyFile("ana-local", ".header")}`),
      });
      expect(filesHolding(home, key, configDir())).toEqual([]);

      // Claude Code's own check, from an environment without the key.
      const listed = await run(CLAUDE!, ["mcp", "list"], { cwd: local, env: withClaude });
      expect(listed.stdout, listed.stdout + listed.stderr).toMatch(new RegExp(`switchboard: ${origin}/api/mcp \\(HTTP\\) - [✓✔] Connected`));
      expect(listed.stdout).not.toContain("Pending approval");

      const again = await ok(["connect", "--url", server.url, "--client", "claude", "--handle", "ana-local"], { cwd: local, env: withClaude });
      expect(again.stdout).toContain("Claude Code: already set in");
    },
  );

  it("connect --client cursor and desktop write their documented entries, and --print writes nothing", async () => {
    const cursor = await ok(["connect", "--url", server.url, "--token", await newToken(), "--client", "cursor"]);
    const handle = /Registered @([a-z0-9_-]+)/.exec(cursor.stdout)?.[1] ?? "";
    expect(handle).toMatch(/^[a-z0-9][a-z0-9_-]{1,38}$/);
    expect(handle.endsWith("-cursor")).toBe(true); // <user>-<client>
    const cursorJson = JSON.parse(readFileSync(path.join(project, ".cursor", "mcp.json"), "utf8")) as { mcpServers: Record<string, unknown> };
    // Cursor: a stdio server { command, args, env }, as Claude Desktop's.
    expect(cursorJson.mcpServers.switchboard).toEqual(bridge(handle));
    expect(cursor.stdout).not.toContain("export SWITCHBOARD_API_KEY");

    await ok(["connect", "--url", server.url, "--token", await newToken(), "--client", "desktop", "--handle", "ana-desktop"]);
    const desktopFile = path.join(home, ".config", "Claude", "claude_desktop_config.json");
    const desktop = JSON.parse(readFileSync(desktopFile, "utf8")) as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    // Claude Desktop: a stdio server { command, args, env }, by absolute paths; the key stays in the config dir.
    expect(desktop.mcpServers.switchboard).toEqual(bridge("ana-desktop"));
    // The copy of the CLI the hosts run is this CLI, byte for byte.
    expect(readFileSync(installedCli(), "utf8")).toBe(readFileSync(BIN, "utf8"));
    expect(filesHolding(home, profile("ana-desktop").apiKey, configDir())).toEqual([]);

    const elsewhere = mkdtempSync(path.join(home, "printed-"));
    const printed = await ok(["connect", "--url", server.url, "--token", await newToken(), "--client", "claude", "--handle", "ana-print", "--print"], {
      cwd: elsewhere,
    });
    // Claude Code's own command for its local scope, the header printed from the key file when it connects.
    const keyJson = keyFile("ana-print", ".json");
    expect(printed.stdout).toContain(
      `claude mcp add-json --scope local switchboard '{"type":"http","url":"${origin}/api/mcp","headersHelper":"cat ${keyJson}"}'`,
    );
    expect(printed.stdout).not.toContain("export SWITCHBOARD_API_KEY");
    const codexLine = await ok(["connect", "--url", server.url, "--client", "codex", "--handle", "ana-print", "--print"], { cwd: elsewhere });
    expect(codexLine.stdout).toContain(
      `codex mcp add switchboard --env SWITCHBOARD_CONFIG_DIR=${configDir()} -- ${process.execPath} ${installedCli()} mcp --profile ana-print@${origin}`,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  /** A private channel with the CLI's agent in it, in `all` mode (its socket is pushed the room). */
  const agentRoom = async (name: string) => {
    const agentId = (await ensureAgent("ana-claude")).participantId;
    const room = await ana.api.rooms.createChannel.mutate({ name: `${name}-${dialect}`, visibility: "private", memberIds: [agentId] });
    await ana.api.agents.setDeliveryMode.mutate({ roomId: room.id, mode: "all", participantId: agentId });
    return { agentId, room, target: `#${name}-${dialect}` };
  };
  const as = ["--profile", "ana-claude"];

  it("whoami, rooms and send work as the connected agent, in human form and as JSON lines", async () => {
    const { agentId, room, target } = await agentRoom("general");
    const who = await ok(["whoami", ...as]);
    expect(who.stdout).toContain("@ana-claude (Ana Claude), agent");
    const [whoJson] = jsonLines((await ok(["whoami", ...as, "--json"])).stdout);
    expect(whoJson).toMatchObject({
      participant: { id: agentId, handle: "ana-claude", kind: "agent" },
      url: origin,
      credential: { type: "profile", name: `ana-claude@${origin}` },
    });

    expect((await ok(["rooms", ...as])).stdout).toMatch(new RegExp(`${target}\\s+private channel\\s+2 members`));
    const rooms = jsonLines((await ok(["rooms", ...as, "--json"])).stdout) as unknown as { room: { id: string; name: string }; deliveryMode: string }[];
    expect(rooms.find((m) => m.room.id === room.id)).toMatchObject({ room: { name: target.slice(1) }, deliveryMode: "all" });

    // send reaches a subscriber of the room; the same --client-msg-id stores it once.
    const socket = await ana.socket();
    const { seen } = collectMessages(socket);
    const sent = await ok(["send", target, "hello", "from", "the", "cli", ...as]);
    expect(sent.stdout).toMatch(/^Sent to #general-\w+: seq \d+/);
    await waitFor(() => seen.some((s) => s.message.body === "hello from the cli" && s.message.author.id === agentId), 10_000, "the CLI's message");
    const id = randomUUID();
    const [once] = jsonLines((await ok(["send", target, "exactly once", "--client-msg-id", id, "--json", ...as])).stdout);
    const [twice] = jsonLines((await ok(["send", target, "exactly once", "--client-msg-id", id, "--json", ...as])).stdout);
    expect(once).toMatchObject({ roomId: room.id, clientMsgId: id, body: "exactly once" });
    expect(twice).toMatchObject({ id: once.id, seq: once.seq });

    // @handle: the DM with that participant (an owner and their agent need no connection).
    await ok(["send", "@ana", "a word in private", ...as]);
    await waitFor(() => seen.some((s) => s.message.body === "a word in private" && s.roomId !== room.id), 10_000, "the DM");
  });

  it("tail shows what was missed exactly once after a restart, then follows live, and leaves the agent's delivery cursor alone", async () => {
    const { room, target } = await agentRoom("tailed");
    const say = (body: string, threadRootId?: string) => ana.api.messages.send.mutate({ roomId: room.id, body, clientMsgId: randomUUID(), threadRootId });
    const delivered = async () =>
      (jsonLines((await ok(["rooms", ...as, "--json"])).stdout) as unknown as { room: { id: string }; deliveredSeq: number }[]).find(
        (m) => m.room.id === room.id,
      )!.deliveredSeq;
    const deliveredBefore = await delivered();
    await say("first");
    await say("second");

    // The first time: the recent messages.
    const firstTail = jsonLines((await ok(["tail", target, "--no-follow", "--json", ...as])).stdout) as unknown as MessageView[];
    expect(firstTail.filter((m) => m.kind === "text").map((m) => m.body)).toEqual(["first", "second"]);
    // Then exactly what was sent while it was not running, once.
    const away = await say("while you were away");
    await say("a reply", away.id);
    const missed = await ok(["tail", target, "--no-follow", ...as]);
    expect(missed.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(new RegExp(`^\\[${away.seq}\\] \\d\\d:\\d\\d:\\d\\d @ana: while you were away$`)),
      expect.stringMatching(new RegExp(`^\\[${away.seq + 1}\\] \\d\\d:\\d\\d:\\d\\d @ana in thread \\[${away.seq}\\]: a reply$`)),
    ]);
    expect((await ok(["tail", target, "--no-follow", ...as])).stdout).toBe("");
    expect(statSync(path.join(configDir(), "positions.json")).mode & 0o777).toBe(0o600);

    // Following: live messages as they come; Ctrl-C ends it with 0, and what it showed stays shown.
    const follower = spawn(process.execPath, [...CLI, "tail", target, "--json", ...as], { cwd: project, env: env(), stdio: ["ignore", "pipe", "pipe"] });
    let live = "";
    follower.stdout.on("data", (c: Buffer) => (live += c.toString()));
    const exited = new Promise<number | null>((resolve) => follower.once("exit", resolve));
    await say("live one");
    await waitFor(() => live.includes("live one"), 15_000, "the first live message");
    await say("live two"); // sent once the tail is surely past its catch-up: only the push (or a 15 s poll) brings it
    await waitFor(() => live.includes("live two"), 10_000, "the second live message");
    follower.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(jsonLines(live).map((m) => m.body)).toEqual(["live one", "live two"]);
    expect((await ok(["tail", target, "--no-follow", ...as])).stdout).toBe("");

    // The CLI only looked: the agent's own process would still be replayed all of it.
    expect(await delivered()).toBe(deliveredBefore);
  });

  it("fails with clear messages and exit codes: bad credentials 3, an unknown room 5, a room the agent is not in 4, usage 2", async () => {
    const refused = await cli(["connect", "--url", server.url, "--token", "sbo_not-a-token", "--client", "generic", "--handle", "ana-refused"]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("The onboarding token was refused");
    expect(refused.stderr).not.toMatch(/\n\s+at /); // no stack trace

    const badKey = await cli(["whoami"], { env: { SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: "sb_not_a_key" } });
    expect(badKey.code).toBe(3);
    expect(badKey.stderr).toContain("UNAUTHENTICATED");

    const nobody = await cli(["whoami"], { env: { SWITCHBOARD_CONFIG_DIR: path.join(home, "empty-config") } });
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toContain("switchboard connect --url");

    await ensureAgent("ana-claude");
    const unknown = await cli(["send", "#no-such-room", "hi", ...as, "--json"]);
    expect(unknown.code).toBe(5);
    expect(JSON.parse(unknown.stderr)).toMatchObject({ error: { code: "ROOM_NOT_FOUND", exitCode: 5 } });

    const open = await ana.api.rooms.createChannel.mutate({ name: `open-${dialect}`, visibility: "public" });
    const outside = await cli(["send", open.id, "let me in", ...as]);
    expect(outside.code).toBe(4);
    expect(outside.stderr).toContain("NOT_A_MEMBER");

    expect((await cli(["send", ...as])).code).toBe(2);
    expect((await cli(["tail", "#x", "--limit", "many", ...as])).code).toBe(2);
  });

  it("connect refuses a wrong or expired token, an unreachable server and a folder it cannot write in, each naming the next step, and leaves nothing half-written", async () => {
    const fresh = mkdtempSync(path.join(home, "refused-"));
    const freshConfig = path.join(fresh, ".config");
    const attempt = (args: string[], extra: { cwd?: string; env?: Record<string, string> } = {}) =>
      cli(["connect", "--url", server.url, "--client", "cursor", "--handle", "ana-refused", ...args], {
        cwd: extra.cwd ?? fresh,
        env: { XDG_CONFIG_HOME: freshConfig, ...extra.env },
      });
    const agentsBefore = (await ana.api.agents.mine.query()).length;
    /** Nothing registered, and nothing written: no config, no host file. */
    const nothingLeft = async () => {
      expect((await ana.api.agents.mine.query()).length).toBe(agentsBefore);
      expect(existsSync(freshConfig)).toBe(false);
      expect(existsSync(path.join(fresh, ".cursor"))).toBe(false);
    };

    const wrong = await attempt(["--token", "sbo_mistyped"]);
    expect([wrong.code, wrong.stderr]).toEqual([3, expect.stringContaining("The onboarding token was refused")]);
    expect(wrong.stderr).toContain("Create a new one on the Agents page");
    await nothingLeft();

    const { token: expired } = await ana.api.agents.createOnboardingToken.mutate({ label: "expires at once", expiresInDays: 1 });
    await queryDb(server, `UPDATE "OnboardingToken" SET "expiresAt" = "createdAt" WHERE "label" = $1`, ["expires at once"]);
    const late = await attempt(["--token", expired]);
    expect([late.code, late.stderr]).toEqual([3, expect.stringContaining("expired")]);
    await nothingLeft();

    const token = await newToken();
    const away = await cli(["connect", "--url", "http://127.0.0.1:1", "--token", token, "--client", "cursor"], {
      cwd: fresh,
      env: { XDG_CONFIG_HOME: freshConfig },
    });
    expect([away.code, away.stderr]).toEqual([75, expect.stringContaining("Cannot reach http://127.0.0.1:1")]);
    expect(away.stderr).toContain("Is the server running, and is the URL right?");
    await nothingLeft();

    // A folder someone else owns (the test runs as root, whom no permission stops: so as nobody).
    if (process.getuid?.() === 0) {
      const theirs = mkdtempSync(path.join(tmpdir(), "switchboard-not-mine-"));
      const nobodyHome = path.join(theirs, "home");
      const project = path.join(theirs, "project");
      mkdirSync(nobodyHome);
      mkdirSync(project, { mode: 0o555 });
      chmodSync(theirs, 0o755);
      chownSync(nobodyHome, 65534, 65534);
      const asNobody = await runProcess(
        "setpriv",
        ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, ...CLI, "connect", "--url", server.url, "--token", token, "--client", "cursor"],
        {
          cwd: project,
          env: { PATH: process.env.PATH ?? "", HOME: nobodyHome },
        },
      );
      expect(asNobody.code, asNobody.stderr).toBe(1);
      expect(asNobody.stderr).toContain(`Cannot write in ${project}: nothing was registered or written.`);
      expect(asNobody.stderr).toContain("the same token still works");
      expect((await ana.api.agents.mine.query()).length).toBe(agentsBefore);
      expect(readdirSync(nobodyHome)).toEqual([]);
      rmSync(theirs, { recursive: true, force: true });
    }

    // The token was never spent: it registers the agent now.
    const works = await attempt(["--token", token]);
    expect(works.code, works.stderr).toBe(0);
    expect((await ana.api.agents.mine.query()).length).toBe(agentsBefore + 1);
  });

  it("login trades a person's password for a token kept as the default profile; token and agents then act as that person", async () => {
    const dir = path.join(home, "person-config");
    const asPerson = { SWITCHBOARD_CONFIG_DIR: dir };
    const wrong = await cliWithStdin(["login", "--url", server.url, "--email", ana.email, "--password-stdin"], "not her password\n", asPerson);
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain("UNAUTHENTICATED");

    const login = await cliWithStdin(
      ["login", "--url", server.url, "--email", ana.email, "--password-stdin", "--name", "ci laptop", "--json"],
      "correct horse battery\n",
      asPerson,
    );
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({
      participant: { handle: "ana", kind: "human" },
      accessToken: { name: "ci laptop", scope: "write", state: "active" },
    });
    const stored = JSON.parse(readFileSync(path.join(dir, "config.json"), "utf8")) as {
      default: string;
      profiles: Record<string, { apiKey: string; kind: string }>;
    };
    expect(stored.default).toBe(`ana@${origin}`);
    expect(stored.profiles[stored.default]).toMatchObject({ kind: "person", apiKey: expect.stringMatching(/^sbp_/) });
    expect(statSync(path.join(dir, "config.json")).mode & 0o777).toBe(0o600);
    expect((await ok(["whoami", "--json"], { env: asPerson })).stdout).toContain('"handle":"ana"');

    // Tokens: create one (shown once), list, revoke; the revoked one is refused.
    const created = JSON.parse((await ok(["token", "create", "--name", "read-only script", "--scope", "read", "--json"], { env: asPerson })).stdout) as {
      token: string;
      accessToken: { id: string };
    };
    expect(created.token).toMatch(/^sbp_/);
    const listed = jsonLines((await ok(["token", "list", "--json"], { env: asPerson })).stdout);
    expect(listed.map((t) => t.name)).toEqual(expect.arrayContaining(["ci laptop", "read-only script"]));
    const reader = { SWITCHBOARD_CONFIG_DIR: path.join(home, "nobody"), SWITCHBOARD_URL: server.url, SWITCHBOARD_TOKEN: created.token };
    expect((await ok(["rooms"], { env: reader })).code).toBe(0);
    const readOnly = await cli(["send", "#general", "from a read token"], { env: reader });
    expect(readOnly.code).toBe(4);
    expect(readOnly.stderr).toContain("INSUFFICIENT_SCOPE");
    await ok(["token", "revoke", created.accessToken.id], { env: asPerson });
    expect((await cli(["rooms"], { env: reader })).code).toBe(3);

    // Agents: list hers, suspend one by handle (it is refused at once), resume it.
    const agent = await ensureAgent("ana-claude");
    const mine = jsonLines((await ok(["agents", "--json"], { env: asPerson })).stdout);
    expect(mine.map((a) => a.handle)).toContain("ana-claude");
    await ok(["agents", "suspend", "@ana-claude", "--reason", "runaway loop"], { env: asPerson });
    const suspended = await cli(["whoami"], {
      env: { SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: agent.apiKey, SWITCHBOARD_CONFIG_DIR: path.join(home, "nobody") },
    });
    expect(suspended.code).toBe(3);
    expect(suspended.stderr).toContain("AGENT_SUSPENDED");
    await ok(["agents", "resume", "@ana-claude"], { env: asPerson });
    expect((await cli(["agents", "suspend", "@nobody-owns-this"], { env: asPerson })).code).toBe(5);

    // An agent's key cannot manage tokens or agents: those act as a person.
    const asAgent = await cli(["token", "list"], {
      env: { SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: agent.apiKey, SWITCHBOARD_CONFIG_DIR: path.join(home, "nobody") },
    });
    expect(asAgent.code).toBe(3);
    expect(asAgent.stderr).toContain("switchboard login");
  });
  it("login --workspace signs in to another of the person's workspaces, by name, kept as a profile of its own", async () => {
    const { cleo } = (await startWorkspace(dialect, { people: { cleo: "owner" } })).people;
    await cleo.api.workspace.updateSettings.mutate({ name: `Cleo Works ${randomUUID().slice(0, 6)}` });
    const other = (await cleo.api.workspace.me.query())!.workspace;
    const invite = await cleo.api.workspace.createInvite.mutate({ maxUses: 1 });
    const joined = await ana.api.workspaces.joinByInvite.mutate({ token: invite.token, handle: "ana", displayName: "Ana" });
    const dir = path.join(home, "two-workspaces");
    const login = (workspace: string) =>
      cliWithStdin(["login", "--url", server.url, "--email", ana.email, "--password-stdin", "--workspace", workspace, "--json"], "correct horse battery\n", {
        SWITCHBOARD_CONFIG_DIR: dir,
      });
    const signedIn = await login(other.name.toUpperCase());
    expect(signedIn.code, signedIn.stderr).toBe(0);
    const profile = `ana@${origin}#${other.name.toLowerCase().replace(/\s+/g, "-")}`;
    expect(JSON.parse(signedIn.stdout)).toMatchObject({ profile, workspace: { id: other.id, name: other.name }, participant: { id: joined.participantId } });
    const who = JSON.parse((await ok(["whoami", "--json"], { env: { SWITCHBOARD_CONFIG_DIR: dir } })).stdout) as { workspaceId: string };
    expect(who.workspaceId).toBe(other.id);
    // A workspace the person is not in is refused, and no token is made.
    const outside = await login("No Such Workspace");
    expect(outside.code).toBe(4);
    expect(outside.stderr).toContain("FORBIDDEN");
  });
});

/** Files under `dir` (except `skip`) whose content holds `secret`. */
function filesHolding(dir: string, secret: string, skip: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (full === skip) continue;
    if (entry.isDirectory()) found.push(...filesHolding(full, secret, skip));
    else if (entry.isFile() && readFileSync(full, "utf8").includes(secret)) found.push(full);
  }
  return found;
}
