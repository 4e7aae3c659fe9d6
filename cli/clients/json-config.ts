// The JSON configs with an `mcpServers` object (Claude Code's .mcp.json, Cursor's mcp.json, Claude
// Desktop's config): our entry is set, everything else kept, the file's indentation kept, and the file
// not written at all when the entry is already right.
import { isDeepStrictEqual } from "node:util";
import { CliError, EXIT } from "../exit-codes";
import { readIfExists, writeIfChanged, type WriteStatus } from "../files";
import { SERVER_NAME } from "./host";

export function mergeMcpServer(file: string, entry: Record<string, unknown>): WriteStatus {
  const text = readIfExists(file);
  let config: Record<string, unknown> = {};
  if (text !== null && text.trim()) {
    try {
      config = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      throw new CliError(EXIT.ERROR, `${file} is not valid JSON (${(error as Error).message}); it was left as it was.`, {
        hint: "Fix it, or move it away, and run connect again.",
      });
    }
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const servers = isObject(config) ? (config.mcpServers ?? {}) : null;
  if (!isObject(servers)) {
    throw new CliError(EXIT.ERROR, `${file} has no mcpServers object where one belongs; it was left as it was.`, { hint: "Fix it, and run connect again." });
  }
  if (isDeepStrictEqual(servers[SERVER_NAME], entry)) return "unchanged";
  const next = { ...config, mcpServers: { ...servers, [SERVER_NAME]: entry } };
  const indent = text?.match(/^[ \t]+(?=")/m)?.[0] ?? 2;
  return writeIfChanged(file, `${JSON.stringify(next, null, indent)}\n`);
}
