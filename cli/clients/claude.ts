// Claude Code: `.mcp.json` in the current directory (project scope, meant to be committed), an http
// server whose Authorization header Claude Code expands from the environment (`${VAR}` in url,
// headers, command, args and env of .mcp.json), so the file never holds the key.
import path from "node:path";
import { CLAUDE_ADD, KEY_VARIABLE, SERVER_NAME, type Host, type WiringContext } from "./host";
import { mergeMcpServer } from "./json-config";

export const claudeEntry = (ctx: WiringContext) => ({
  type: "http",
  url: ctx.mcpUrl,
  headers: { Authorization: `Bearer \${${KEY_VARIABLE}}` },
});

export const claude: Host = {
  name: "claude",
  label: "Claude Code",
  framework: "claude-code",
  wire(ctx) {
    const file = path.join(ctx.cwd, ".mcp.json");
    const status = mergeMcpServer(file, claudeEntry(ctx));
    return {
      files: [{ path: file, status, what: `mcpServers.${SERVER_NAME} (http, key from $${KEY_VARIABLE})` }],
      notes: ["Start `claude` in this directory from a shell where the key is exported, and approve the project's MCP server when asked."],
      keyFromEnv: true,
    };
  },
  print(ctx) {
    return { files: [], notes: [CLAUDE_ADD(ctx.mcpUrl)], keyFromEnv: true };
  },
};
