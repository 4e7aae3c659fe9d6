// What wiring a coding agent (an MCP host) in means, for every host: write or merge its config so it
// reaches Switchboard's MCP server with the key from the environment (never the key in a file), or
// print the host's own `mcp add` command instead. One file per host in this folder.
import { accessSync, constants } from "node:fs";
import path from "node:path";
import type { WriteStatus } from "../files";

export interface WiringContext {
  /** The server's origin. */
  origin: string;
  /** Switchboard's MCP endpoint (Streamable HTTP, bearer auth). */
  mcpUrl: string;
  /** The profile the stdio bridge (`switchboard mcp --profile …`) uses. */
  profile: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  homedir: string;
  platform: NodeJS.Platform;
  configDir: string;
  /** Absolute paths, so a desktop app with its own PATH finds them. `bin` is the copy of this CLI in the config dir. */
  node: string;
  bin: string;
  /** The agent's key as hosts read it, in the config dir (config.ts keyFiles). */
  keys: { json: string; header: string };
  /** How a shell runs this CLI: `switchboard` when that is on PATH, else the bin's path. */
  cli: string;
}

export interface Wired {
  /** The files written, or found already right (then left byte for byte as they were). */
  files: { path: string; status: WriteStatus; what: string }[];
  /** Lines the person reads: what to add by hand, what to run next. */
  notes: string[];
  /** Whether the host reads the key from $SWITCHBOARD_API_KEY (then connect prints the export line): only where nothing better was at hand. */
  keyFromEnv: boolean;
}

export interface Host {
  name: string;
  /** Who it is, for people: "Claude Code". */
  label: string;
  /** Sent as the agent's `framework` when registering. */
  framework: string;
  /** The files `wire` writes (checked for write access before anything is registered). */
  writes(ctx: WiringContext): string[];
  wire(ctx: WiringContext): Wired | Promise<Wired>;
  /** `--print`: the host's own command (or the block to paste), nothing written. */
  print(ctx: WiringContext): Wired;
}

/** The environment variable every host reads the key from. */
export const KEY_VARIABLE = "SWITCHBOARD_API_KEY";
/** The name the server gets in every host's config. */
export const SERVER_NAME = "switchboard";

/** Quotes a word for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Claude Code's own command. The header is in single quotes: the shell passes `${SWITCHBOARD_API_KEY}`
 * on as it is, Claude Code keeps it so and expands it when it connects, and no file gets the key (in
 * double quotes the shell would expand it, and ~/.claude.json would hold the key itself).
 */
export const CLAUDE_ADD = (mcpUrl: string) =>
  `claude mcp add --transport http ${SERVER_NAME} ${shellWord(mcpUrl)} --header 'Authorization: Bearer \${${KEY_VARIABLE}}'`;
export const CODEX_ADD = (mcpUrl: string) => `codex mcp add ${SERVER_NAME} --url ${shellWord(mcpUrl)} --bearer-token-env-var ${KEY_VARIABLE}`;

/**
 * A stdio MCP server running this CLI's bridge (`switchboard mcp --profile …`) by absolute paths (a
 * desktop app does not see the shell's PATH). The bridge reads the key from the config dir, so neither
 * the host's config nor its environment holds it, and nothing needs exporting.
 */
export const bridgeEntry = (ctx: WiringContext) => ({
  command: ctx.node,
  args: [ctx.bin, "mcp", "--profile", ctx.profile],
  env: { SWITCHBOARD_CONFIG_DIR: ctx.configDir },
});

/** A shell command printing a file (Claude Code runs its helpers and hooks through the shell). */
export const printFile = (file: string, platform: NodeJS.Platform) => (platform === "win32" ? `type "${file}"` : `cat ${shellWord(file)}`);

/** An executable `name` on the PATH of `env`, or null. */
export function commandOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
