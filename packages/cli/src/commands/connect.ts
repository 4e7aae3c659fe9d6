// `switchboard connect`: registers an agent with a person's onboarding token, keeps its key in the
// config dir (0600), and wires a coding agent in (see cli/clients/). Idempotent: when a profile for
// this server and handle exists and its key still works, nothing is registered, and wiring files
// that already hold the right entry are not touched.
import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Option, type Command } from "commander";
import type { handleSchema, RegisteredAgent, RoomRef } from "@switchboard/sdk/contract";
import { commandOnPath, shellWord, type Wired, type WiringContext } from "../clients/host";
import {
  addProject,
  configDir,
  configFile,
  installedCliFile,
  keyFiles,
  loadConfig,
  profileName,
  profileRef,
  saveConfig,
  serverOrigin,
  type Profile,
} from "../config";
import { writeIfChanged } from "../files";
import { optionsOf, realCwd } from "../credentials";
import { CliError, EXIT, toCliError } from "../exit-codes";
import { Output } from "../output";

export const CLIENT_NAMES = ["claude", "codex", "cursor", "desktop", "generic"] as const;
type ClientName = (typeof CLIENT_NAMES)[number];

type ConnectOptions = {
  token?: string;
  handle?: string;
  name?: string;
  client: ClientName;
  print?: boolean;
};

/** This command's own file: the CLI is one bundled file (dist/switchboard.mjs), which hosts' configs run. */
const BIN = fileURLToPath(import.meta.url);

export function registerConnect(program: Command): void {
  program
    .command("connect")
    .summary("register an agent and wire a coding agent in")
    .description(
      "Register an agent with a person's onboarding token (--url, --token), keep its key in the config dir, and wire a coding agent in. Running it again changes nothing.",
    )
    .option("--token <token>", "a person's onboarding token (sbo_…, from the Agents page); needed the first time")
    .option("--handle <handle>", "the agent's handle (default: <user>-<client>)")
    .option("--name <displayName>", "the agent's display name (default: from the handle)")
    .addOption(new Option("--client <client>", "the coding agent to wire in").choices(CLIENT_NAMES).default("generic"))
    .option("--print", "print the host's own `mcp add` command (or the block to paste) instead of writing files")
    .addHelpText(
      "after",
      `
Wiring (--client):
  claude   Claude Code's local scope for this folder (by \`claude mcp add-json\`): an http server whose
           header a headersHelper reads from the config dir; and .claude/settings.local.json here:
           hooks posting to the work board with curl, the header from the config dir.
           (Without \`claude\` on PATH: .mcp.json here, the key from $SWITCHBOARD_API_KEY.)
  codex    [mcp_servers.switchboard] in $CODEX_HOME/config.toml (~/.codex): a stdio server running
           \`switchboard mcp\` (a copy of this CLI in the config dir), which reads the key from there
  cursor   .cursor/mcp.json here: the same stdio server
  desktop  Claude Desktop's config: the same stdio server
  generic  nothing written: the URL, the header and the stdio command are printed
No file outside the config dir (0700) ever holds the key, and nothing needs exporting.`,
    )
    .action(async (_opts: object, command: Command) => {
      const opts = optionsOf<ConnectOptions>(command);
      await connect(opts, new Output(!!opts.json));
    });
}

async function connect(opts: ConnectOptions & { url?: string; json?: boolean }, out: Output): Promise<void> {
  const url = opts.url ?? process.env.SWITCHBOARD_URL;
  if (!url) throw new CliError(EXIT.USAGE, "connect needs the server's URL.", { hint: "Pass --url http://… (or set SWITCHBOARD_URL)." });
  const origin = serverOrigin(url);
  const [{ handleSchema: schema }, { HOSTS }] = await Promise.all([import("@switchboard/sdk/contract"), import("../clients")]);
  const host = HOSTS[opts.client];
  const handle = opts.handle ? checkedHandle(schema, opts.handle) : defaultHandle(schema, opts.client);

  const config = loadConfig();
  const name = profileName(origin, handle);
  const ctx: WiringContext = {
    origin,
    mcpUrl: `${origin}/api/mcp`,
    profile: name,
    cwd: process.cwd(),
    env: process.env,
    homedir: os.homedir(),
    platform: process.platform,
    configDir: configDir(),
    node: process.execPath,
    bin: BIN.endsWith(".mjs") ? installedCliFile() : BIN,
    keys: keyFiles(name),
    cli: cliCommand(),
  };
  // Before a token is spent: every folder connect will write in can be written.
  assertWritable([ctx.configDir, ...(opts.print ? [] : host.writes(ctx))]);

  const stored = config.profiles[name];
  let status: "registered" | "already_connected";
  let profile: Profile;
  /** Where a new agent landed (the room its token names, else #general). */
  let room: RoomRef | null = null;
  if (stored) {
    await checkStoredKey(stored);
    status = "already_connected";
    profile = stored;
  } else {
    if (!opts.token) {
      throw new CliError(EXIT.USAGE, `The first connect of @${handle} to ${origin} needs an onboarding token.`, {
        hint: `Create one on the Agents page of ${origin}, then: switchboard connect --url ${origin} --token sbo_… --client ${opts.client}`,
      });
    }
    ({ profile, room } = await register(origin, opts.token, handle, opts.name ?? displayNameOf(handle), host.framework, host.label));
    config.profiles[name] = { ...profile, client: opts.client };
    status = "registered";
  }
  // In this folder (and below), commands without --profile use this agent: `switchboard key` gives its key.
  config.profiles[name] = addProject(config.profiles[name], realCwd());
  config.default = name;
  saveConfig(config);
  if (ctx.bin !== BIN) installCli(ctx.bin);

  const wired: Wired = opts.print ? host.print(ctx) : await host.wire(ctx);
  const exportLine = `export SWITCHBOARD_API_KEY="$(${ctx.cli} key --profile ${shellWord(profileRef(config, name))})"`;
  const next = [...(wired.keyFromEnv ? [exportLine] : []), ...wired.notes];

  out.record(
    {
      status,
      profile: name,
      url: origin,
      handle: profile.handle,
      participantId: profile.participantId,
      workspaceId: profile.workspaceId,
      ...(status === "registered" ? { room } : {}),
      configFile: configFile(),
      files: wired.files,
      next,
    },
    () =>
      [
        status === "registered"
          ? `Registered @${profile.handle} on ${origin}; its key is kept in ${configFile()} (mode 600).\n${
              room ? `It is in #${room.name}: its first message can go there.` : "It is in no room yet: a person can invite it into one."
            }`
          : `Already connected as @${profile.handle} on ${origin} (profile ${name}): nothing registered.`,
        ...wired.files.map((f) => `${host.label}: ${f.status === "unchanged" ? "already set in" : f.status} ${shown(f.path)}: ${f.what}`),
        ...(wired.keyFromEnv ? ["", `Now run this (in the shell you start ${host.label} from):`, `  ${exportLine}`] : []),
        ...(wired.notes.length ? ["", ...wired.notes] : []),
      ].join("\n"),
  );
}

/** The copy of this CLI that hosts run (config.ts installedCliFile), refreshed when this one differs: npx runs the CLI from a cache it may clear. */
function installCli(copy: string): void {
  if (path.resolve(BIN) !== copy) writeIfChanged(copy, readFileSync(BIN, "utf8"), { mode: 0o755, forceMode: true });
}

/** Refuses, naming the folder, when one that connect would write in cannot be written (a folder not there yet: the one it would be made in). */
function assertWritable(targets: string[]): void {
  for (const target of targets) {
    let at = path.resolve(target);
    while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
    const folder = statSync(at).isDirectory() ? at : path.dirname(at);
    try {
      accessSync(folder, constants.W_OK);
    } catch {
      throw new CliError(EXIT.ERROR, `Cannot write in ${folder}: nothing was registered or written.`, {
        hint: `Run connect from a folder you can write to, or give yourself write access to ${folder}; the same token still works.`,
      });
    }
  }
}

/** A path as a person reads it: relative when it is under the current directory. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

/** A stored profile's key is checked with a (passive) socket handshake before saying "already connected". */
async function checkStoredKey(profile: Profile): Promise<void> {
  const { openSession } = await import("../session");
  try {
    const session = await openSession({
      url: profile.url,
      secret: profile.apiKey,
      kind: profile.kind,
      source: { type: "profile", name: profileName(profile.url, profile.handle), profile },
    });
    const same = session.me.id === profile.participantId;
    await session.close();
    if (!same) throw new CliError(EXIT.AUTH, `The key stored for @${profile.handle} now belongs to someone else.`, { hint: "Connect with another --handle." });
  } catch (error) {
    const failure = toCliError(error);
    if (failure.code !== "UNAUTHENTICATED") throw failure;
    throw new CliError(EXIT.AUTH, `The key stored for @${profile.handle} on ${profile.url} is refused (revoked or rotated).`, {
      code: failure.code,
      hint: `Its owner can rotate it on the Agents page; or register a new agent: switchboard connect --url ${profile.url} --token <onboarding token> --handle <another handle>`,
    });
  }
}

async function register(
  origin: string,
  token: string,
  handle: string,
  displayName: string,
  framework: string,
  label: string,
): Promise<{ profile: Profile; room: RoomRef | null }> {
  const { postJson } = await import("../http");
  const description = `${label} on ${os.hostname()}, connected with \`switchboard connect\``.slice(0, 500);
  try {
    const { apiKey, agent, workspaceId, room } = await postJson<RegisteredAgent>(origin, "/api/v1/agents/register", {
      onboardingToken: token,
      handle,
      displayName,
      description,
      framework,
    });
    return {
      profile: { url: origin, handle: agent.handle, kind: "agent", participantId: agent.id, workspaceId, apiKey, createdAt: new Date().toISOString() },
      room,
    };
  } catch (error) {
    const failure = toCliError(error);
    if (failure.code === "UNAUTHENTICATED") {
      throw new CliError(EXIT.AUTH, "The onboarding token was refused: it is expired, used up, revoked or mistyped.", {
        code: failure.code,
        hint: `Create a new one on the Agents page of ${origin}, and run connect again with it.`,
      });
    }
    if (failure.code === "NAME_TAKEN") {
      throw new CliError(EXIT.REFUSED, `@${handle} is already taken in this workspace.`, { code: failure.code, hint: "Choose another with --handle." });
    }
    throw failure;
  }
}

type HandleSchema = typeof handleSchema;

function checkedHandle(schema: HandleSchema, raw: string): string {
  const parsed = schema.safeParse(raw.replace(/^@/, ""));
  if (!parsed.success) throw new CliError(EXIT.USAGE, `Not a valid handle: ${raw} (${parsed.error.issues[0]?.message ?? "invalid"}).`);
  return parsed.data;
}

/** `<user>-<client>`, made to fit the handle rules (2-39 of a-z, 0-9, - and _, starting with a letter or digit). */
function defaultHandle(schema: HandleSchema, client: ClientName): string {
  let user = "me";
  try {
    user = os.userInfo().username || user;
  } catch {
    // no passwd entry (some containers): keep "me"
  }
  const base = `${user}-${client === "generic" ? "agent" : client}`
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 39)
    .replace(/[-_]+$/, "");
  const parsed = schema.safeParse(base.length >= 2 ? base : `agent-${base}`.replace(/-$/, ""));
  return parsed.success ? parsed.data : "agent";
}

/** `ana-claude` → `Ana Claude`. */
function displayNameOf(handle: string): string {
  return handle
    .split(/[-_]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ")
    .slice(0, 80);
}

/** How the person runs this CLI: `switchboard` when the one a shell finds on PATH is this one, else the bin's path. */
function cliCommand(): string {
  const found = commandOnPath("switchboard", process.env);
  return found && realpathSync(found) === realpathSync(BIN) ? "switchboard" : shellWord(BIN);
}
