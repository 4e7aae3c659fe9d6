// Codex: `[mcp_servers.switchboard]` in $CODEX_HOME/config.toml (default ~/.codex/config.toml), a
// stdio server running this CLI's bridge (host.ts bridgeEntry), which reads the key from the config
// dir: Codex's own ways to a bearer token for an http server are the token in its config or a variable
// to export, and the bridge needs neither. The file is edited as text, only that table's lines (the
// user's comments, order and other tables stay byte for byte), and the result is parsed before it is
// written: it must hold exactly the old tables plus ours, or nothing is written.
import path from "node:path";
import { parse, type TomlTable } from "smol-toml";
import { CliError, EXIT } from "../exit-codes";
import { readIfExists, writeIfChanged } from "../files";
import { bridgeEntry, SERVER_NAME, shellWord, type Host, type WiringContext } from "./host";

export const codexConfigFile = (ctx: Pick<WiringContext, "env" | "homedir">) =>
  path.join(ctx.env.CODEX_HOME || path.join(ctx.homedir, ".codex"), "config.toml");

type TableEntry = Record<string, string | string[] | Record<string, string>>;

/** Codex's own command writing what connect writes. */
export function codexAdd(ctx: WiringContext): string {
  const { command, args, env } = bridgeEntry(ctx);
  const vars = Object.entries(env).flatMap(([name, value]) => ["--env", `${name}=${value}`]);
  return ["codex", "mcp", "add", SERVER_NAME, ...vars, "--", command, ...args].map(shellWord).join(" ");
}

export const codex: Host = {
  name: "codex",
  label: "Codex",
  framework: "codex",
  writes: (ctx) => [codexConfigFile(ctx)],
  wire(ctx) {
    const file = codexConfigFile(ctx);
    const text = readIfExists(file) ?? "";
    const next = withServerTable(text, bridgeEntry(ctx), file);
    const status = next === text ? "unchanged" : writeIfChanged(file, next);
    return {
      files: [{ path: file, status, what: `[mcp_servers.${SERVER_NAME}] (stdio: switchboard mcp --profile ${ctx.profile}, key from the config dir)` }],
      notes: ["Start `codex`: Switchboard's tools are there."],
      keyFromEnv: false,
    };
  },
  print(ctx) {
    return { files: [], notes: [codexAdd(ctx)], keyFromEnv: false };
  },
};

/** A table header line: `[a.b]` or `[[a.b]]`, with an optional comment after it. */
const HEADER = /^\s*\[/;
/** Our table's header (bare or quoted key), and its sub-tables' (`[mcp_servers.switchboard.env]`). */
const OURS = new RegExp(`^\\s*\\[\\s*mcp_servers\\s*\\.\\s*(?:${SERVER_NAME}|"${SERVER_NAME}"|'${SERVER_NAME}')\\s*(?:\\]|\\.)`);

/**
 * The config with our table holding exactly `entry`: unchanged text when it already does; otherwise
 * our table (and its sub-tables) replaced in place, or appended. Throws when the result would not
 * parse to the same config plus our table (e.g. mcp_servers written as an inline table).
 */
export function withServerTable(text: string, entry: TableEntry, file: string): string {
  const before = parseOrThrow(text, file);
  const servers = (before.mcp_servers ?? {}) as TomlTable;
  if (same(servers[SERVER_NAME], entry)) return text;

  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const table = [`[mcp_servers.${SERVER_NAME}]`, ...Object.entries(entry).map(([key, value]) => `${tomlKey(key)} = ${tomlValue(value)}`)];
  const lines = text === "" ? [] : text.split(/\r?\n/);
  const first = lines.findIndex((line) => OURS.test(line));
  let next: string[];
  if (first === -1) {
    while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
    const comment = "# Switchboard (added by `switchboard connect`): the bridge reads the key from its config dir, never from this file.";
    next = [...lines, ...(lines.length ? [""] : []), comment, ...table, ""];
  } else {
    // Drop each of our tables up to the next header; comments and blank lines right before that
    // header belong to it and stay.
    const kept: string[] = [];
    let pending: string[] = []; // what closes a dropped table: kept unless another of ours follows
    for (let i = 0; i < lines.length;) {
      if (!OURS.test(lines[i])) {
        kept.push(...pending, lines[i++]);
        pending = [];
        continue;
      }
      let end = i + 1;
      while (end < lines.length && !HEADER.test(lines[end])) end++;
      let keepFrom = end;
      while (keepFrom > i + 1 && /^\s*(#.*)?$/.test(lines[keepFrom - 1])) keepFrom--;
      if (i === first) kept.push(...table);
      pending = lines.slice(keepFrom, end);
      i = end;
    }
    kept.push(...pending);
    next = kept;
  }
  const result = next.join(eol);

  let after: TomlTable = {};
  try {
    after = parse(result);
  } catch {
    // judged below: not the same config
  }
  const { [SERVER_NAME]: ours, ...otherServers } = (after.mcp_servers ?? {}) as TomlTable;
  const { [SERVER_NAME]: _old, ...oldServers } = servers;
  if (!same(ours, entry) || !same(otherServers, oldServers) || !same(withoutServers(after), withoutServers(before))) {
    throw new CliError(EXIT.ERROR, `Could not add [mcp_servers.${SERVER_NAME}] to ${file} without changing anything else; it was left as it was.`, {
      hint: `Add these lines to it yourself:\n${table.join("\n")}`,
    });
  }
  return result;
}

/** A TOML key: bare when it can be. */
const tomlKey = (key: string) => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

/** A string (a JSON string is a TOML basic string), a list of them, or an inline table of them. */
function tomlValue(value: TableEntry[string]): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${tomlKey(k)} = ${JSON.stringify(v)}`)
    .join(", ")} }`;
}

/** Equal as TOML values (smol-toml's tables have no prototype, so node's deep equality would not do). */
function same(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown) =>
    JSON.stringify(value, (_key, v: unknown) =>
      v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v,
    );
  return canonical(a) === canonical(b);
}

function withoutServers(config: TomlTable): TomlTable {
  const { mcp_servers: _servers, ...rest } = config;
  return rest;
}

function parseOrThrow(text: string, file: string): TomlTable {
  try {
    return parse(text);
  } catch (error) {
    throw new CliError(EXIT.ERROR, `${file} is not valid TOML (${(error as Error).message.split("\n")[0]}); it was left as it was.`, {
      hint: "Fix it, and run connect again.",
    });
  }
}
