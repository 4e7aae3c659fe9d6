// What the CLI remembers, in its config directory (0700):
//   config.json     profiles: one per server origin and handle, with the key (0600)
//   keys/           each agent's key again, as the hosts `connect` wires read it (0600, rewritten from
//                   config.json on every save): <profile>.json is the JSON of its Authorization header
//                   (Claude Code's headersHelper prints it), <profile>.header that header as a line
//                   (the work board's hooks send it with `curl -H @file`)
//   bin/            a copy of this CLI (one file), which hosts run as their stdio MCP server
//   positions.json  per server, participant and room, the last seq `tail` showed (0600)
// The directory is $SWITCHBOARD_CONFIG_DIR, else $XDG_CONFIG_HOME/switchboard, else
// ~/.config/switchboard, on every OS. Files are replaced atomically and only when they change.
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CliError, EXIT } from "./exit-codes";
import { readIfExists, writeIfChanged } from "./files";

export interface Profile {
  /** The server's origin, e.g. http://127.0.0.1:3000 */
  url: string;
  handle: string;
  kind: "agent" | "person";
  participantId: string;
  workspaceId: string;
  /** An agent's key (sb_…) or a person's token (sbp_…). */
  apiKey: string;
  /** The host `connect` wired this agent into (claude, codex, cursor, desktop, generic). */
  client?: string;
  /** The folders `connect` wired this agent into: in them (and below), it is the profile commands use. */
  projects?: string[];
  createdAt: string;
}

export interface Config {
  version: 1;
  /** The name of the profile used when nothing else says which. */
  default: string | null;
  profiles: Record<string, Profile>;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SWITCHBOARD_CONFIG_DIR) return path.resolve(env.SWITCHBOARD_CONFIG_DIR);
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), ".config");
  return path.join(xdg, "switchboard");
}

export const configFile = (env: NodeJS.ProcessEnv = process.env) => path.join(configDir(env), "config.json");
const positionsFile = (env: NodeJS.ProcessEnv = process.env) => path.join(configDir(env), "positions.json");

/**
 * A profile's name: `handle@origin`, e.g. `ana-claude@http://127.0.0.1:3000`; with the workspace a
 * person named at login, `handle@origin#workspace` (`kim@http://127.0.0.1:3000#northwind`).
 */
export const profileName = (origin: string, handle: string, workspace?: string) =>
  `${handle}@${origin}${workspace ? `#${workspace.toLowerCase().replace(/\s+/g, "-")}` : ""}`;

/** The origin of a server URL given on the command line or in the environment. */
export function serverOrigin(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(EXIT.USAGE, `Not a URL: ${url}`, { hint: "Give the server's address, e.g. --url http://127.0.0.1:3000" });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new CliError(EXIT.USAGE, `Not an http(s) URL: ${url}`, { hint: "Give the server's address, e.g. --url https://switchboard.example.com" });
  }
  return parsed.origin;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const file = configFile(env);
  const text = readIfExists(file);
  if (text === null) return { version: 1, default: null, profiles: {} };
  try {
    const parsed = JSON.parse(text) as Partial<Config>;
    return { version: 1, default: parsed.default ?? null, profiles: parsed.profiles ?? {} };
  } catch {
    throw new CliError(EXIT.ERROR, `${file} is not valid JSON.`, { hint: "Fix it, or move it away and run `switchboard connect` again." });
  }
}

export function saveConfig(config: Config, env: NodeJS.ProcessEnv = process.env): void {
  ensureConfigDir(env);
  writeIfChanged(configFile(env), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600, forceMode: true });
  saveKeyFiles(config, env);
}

/** Where the hosts read a profile's key: `keys/<profile>.json` and `keys/<profile>.header` (see the top). */
export function keyFiles(name: string, env: NodeJS.ProcessEnv = process.env): { json: string; header: string } {
  // A file name from the profile's name (`coder@http://127.0.0.1:3000`), made unique by its hash.
  const base = `${name.replace(/^(.*)@https?:\/\//, "$1@").replace(/[^A-Za-z0-9@._-]+/g, "_")}-${createHash("sha256").update(name).digest("hex").slice(0, 8)}`;
  const dir = path.join(configDir(env), "keys");
  return { json: path.join(dir, `${base}.json`), header: path.join(dir, `${base}.header`) };
}

/** keys/ holds exactly the agent profiles' keys of `config`: written where they changed, the rest removed. */
function saveKeyFiles(config: Config, env: NodeJS.ProcessEnv): void {
  const dir = path.join(configDir(env), "keys");
  const kept = new Set<string>();
  for (const [name, profile] of Object.entries(config.profiles)) {
    if (profile.kind !== "agent") continue;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const files = keyFiles(name, env);
    const header = `Bearer ${profile.apiKey}`;
    writeIfChanged(files.json, `${JSON.stringify({ Authorization: header })}\n`, { mode: 0o600, forceMode: true });
    writeIfChanged(files.header, `Authorization: ${header}\n`, { mode: 0o600, forceMode: true });
    kept.add(path.basename(files.json)).add(path.basename(files.header));
  }
  let present: string[] = [];
  try {
    present = readdirSync(dir);
  } catch {
    return; // no keys/ yet, and nothing to keep in it
  }
  for (const file of present) if (!kept.has(file)) rmSync(path.join(dir, file), { force: true });
}

/** Where `connect` keeps the copy of this CLI that hosts run (`bin/switchboard.mjs`). */
export const installedCliFile = (env: NodeJS.ProcessEnv = process.env) => path.join(configDir(env), "bin", "switchboard.mjs");

function ensureConfigDir(env: NodeJS.ProcessEnv): void {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

/**
 * The profile `--profile` and `--url` point at: `--profile` is a profile's name or a handle (with
 * `--url`, on that server); `--url` alone, that server's default or only profile. Null when none fits.
 */
export function findProfile(config: Config, by: { profile?: string; origin?: string }): [string, Profile] | null {
  const entries = Object.entries(config.profiles);
  if (by.profile && config.profiles[by.profile]) return [by.profile, config.profiles[by.profile]];
  const fits = entries.filter(([, p]) => (!by.profile || p.handle === by.profile.replace(/^@/, "").toLowerCase()) && (!by.origin || p.url === by.origin));
  if (fits.length === 0) return null;
  if (fits.length === 1) return fits[0];
  const preferred = fits.find(([name]) => name === config.default);
  if (preferred) return preferred;
  throw new CliError(EXIT.USAGE, `Several profiles fit: ${fits.map(([name]) => name).join(", ")}.`, { hint: "Pick one with --profile <name>." });
}

/**
 * The profile of the project `cwd` is in: the one `connect` wired into the nearest folder at or above it.
 * Null outside every project; a usage error when two agents were wired into that same folder (then only
 * --profile says which).
 */
export function projectProfile(config: Config, cwd: string): [string, Profile] | null {
  let best: { depth: number; fits: [string, Profile][] } | null = null;
  for (const entry of Object.entries(config.profiles)) {
    for (const project of entry[1].projects ?? []) {
      const relative = path.relative(project, cwd);
      if (relative.startsWith("..") || path.isAbsolute(relative)) continue;
      const depth = project.split(path.sep).length;
      if (!best || depth > best.depth) best = { depth, fits: [entry] };
      else if (depth === best.depth && !best.fits.includes(entry)) best.fits.push(entry);
    }
  }
  if (!best) return null;
  if (best.fits.length === 1) return best.fits[0];
  throw new CliError(EXIT.USAGE, `Several agents were connected in this project: ${best.fits.map(([name]) => name).join(", ")}.`, {
    hint: "Pick one with --profile <name>.",
  });
}

/** Records that `connect` wired the profile into `cwd`. */
export function addProject(profile: Profile, cwd: string): Profile {
  return profile.projects?.includes(cwd) ? profile : { ...profile, projects: [...(profile.projects ?? []), cwd] };
}

/** How to name a profile on the command line: its handle when that is unambiguous, else its full name. */
export function profileRef(config: Config, name: string): string {
  const profile = config.profiles[name];
  if (!profile) return name;
  const sameHandle = Object.values(config.profiles).filter((p) => p.handle === profile.handle);
  return sameHandle.length === 1 ? profile.handle : name;
}

// ---- tail's positions ----

type Positions = Record<string, Record<string, number>>;

const positionsKey = (origin: string, participantId: string) => `${origin} ${participantId}`;

export function loadPosition(origin: string, participantId: string, roomId: string, env: NodeJS.ProcessEnv = process.env): number | undefined {
  return readPositions(env)[positionsKey(origin, participantId)]?.[roomId];
}

export function savePosition(origin: string, participantId: string, roomId: string, seq: number, env: NodeJS.ProcessEnv = process.env): void {
  const positions = readPositions(env);
  const key = positionsKey(origin, participantId);
  positions[key] = { ...positions[key], [roomId]: seq };
  ensureConfigDir(env);
  writeIfChanged(positionsFile(env), `${JSON.stringify(positions)}\n`, { mode: 0o600, forceMode: true });
}

function readPositions(env: NodeJS.ProcessEnv): Positions {
  const text = readIfExists(positionsFile(env));
  if (text === null) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === "object" ? (parsed as Positions) : {};
  } catch {
    return {}; // a damaged positions file only costs a replay from the default window
  }
}
