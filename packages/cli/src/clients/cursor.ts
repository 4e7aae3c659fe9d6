// Cursor: `.cursor/mcp.json` in the current directory (project scope), a stdio server running this
// CLI's bridge (host.ts bridgeEntry), which reads the key from the config dir: Cursor's remote servers
// take the key only from the file or from a variable Cursor's own environment must hold, and a Cursor
// started from the dock sees no shell's exports. The entry names this machine's files, so a
// .cursor/mcp.json that connect created is kept out of the project's commits.
import { existsSync } from "node:fs";
import path from "node:path";
import { ignoreInGit } from "../files";
import { bridgeEntry, SERVER_NAME, type Host } from "./host";
import { mergeMcpServer } from "./json-config";

export const cursor: Host = {
  name: "cursor",
  label: "Cursor",
  framework: "cursor",
  writes: (ctx) => [path.join(ctx.cwd, ".cursor", "mcp.json")],
  wire(ctx) {
    const file = path.join(ctx.cwd, ".cursor", "mcp.json");
    const existed = existsSync(file);
    const status = mergeMcpServer(file, bridgeEntry(ctx));
    const ignored = existed ? null : ignoreInGit(ctx.cwd, ".cursor/mcp.json");
    return {
      files: [
        { path: file, status, what: `mcpServers.${SERVER_NAME} (stdio: switchboard mcp --profile ${ctx.profile}, key from the config dir)` },
        ...(ignored ? [{ ...ignored, what: "ignores .cursor/mcp.json (it names this machine's files)" }] : []),
      ],
      notes: ["Open this folder in Cursor; if it asks, allow the project's switchboard MCP server (Cursor asks once for a new one)."],
      keyFromEnv: false,
    };
  },
  print(ctx) {
    const block = JSON.stringify({ mcpServers: { [SERVER_NAME]: bridgeEntry(ctx) } }, null, 2);
    return { files: [], notes: ["Cursor has no command for this; put this in .cursor/mcp.json (or ~/.cursor/mcp.json):", block], keyFromEnv: false };
  },
};
