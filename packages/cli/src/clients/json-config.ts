// JSON config files of the hosts (Claude Code's .mcp.json and .claude/settings.local.json, Cursor's
// mcp.json, Claude Desktop's config): our entries are set, everything else kept, the file's
// indentation kept, and the file not written at all when our entries are already right.
import { isDeepStrictEqual } from "node:util";
import { CliError, EXIT } from "../exit-codes";
import { readIfExists, writeIfChanged, type WriteStatus } from "../files";
import { SERVER_NAME } from "./host";

export type JsonObject = Record<string, unknown>;
export const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads `file` (none: `{}`), lets `change` return the next content (or the same object when nothing
 * changes) and writes it. A file that is not a JSON object is left as it was.
 */
export function mergeJsonConfig(file: string, change: (config: JsonObject) => JsonObject): WriteStatus {
  const text = readIfExists(file);
  let config: unknown = {};
  if (text !== null && text.trim()) {
    try {
      config = JSON.parse(text);
    } catch (error) {
      throw new CliError(EXIT.ERROR, `${file} is not valid JSON (${(error as Error).message}); it was left as it was.`, {
        hint: "Fix it, or move it away, and run connect again.",
      });
    }
  }
  if (!isObject(config)) throw malformed(file, "is not a JSON object");
  const next = change(config);
  if (next === config) return "unchanged";
  const indent = text?.match(/^[ \t]+(?=")/m)?.[0] ?? 2;
  return writeIfChanged(file, `${JSON.stringify(next, null, indent)}\n`);
}

/** A config whose shape we cannot merge into: left as it was. */
export function malformed(file: string, what: string): CliError {
  return new CliError(EXIT.ERROR, `${file} ${what}; it was left as it was.`, { hint: "Fix it, and run connect again." });
}

export function mergeMcpServer(file: string, entry: JsonObject): WriteStatus {
  return mergeJsonConfig(file, (config) => {
    const servers = config.mcpServers ?? {};
    if (!isObject(servers)) throw malformed(file, "has no mcpServers object where one belongs");
    if (isDeepStrictEqual(servers[SERVER_NAME], entry)) return config;
    return { ...config, mcpServers: { ...servers, [SERVER_NAME]: entry } };
  });
}
