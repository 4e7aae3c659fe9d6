// Claude Code: `.mcp.json` in the current directory (project scope, meant to be committed), an http
// server whose Authorization header Claude Code expands from the environment (`${VAR}` in url,
// headers, command, args and env of .mcp.json), so the file never holds the key; and the work board's
// hooks in `.claude/settings.local.json` (./claude-hooks.ts), http hooks with the same header.
import path from "node:path";
import { claudeHooksBlock, mergeClaudeHooks } from "./claude-hooks";
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
    const settings = path.join(ctx.cwd, ".claude", "settings.local.json");
    return {
      files: [
        { path: file, status: mergeMcpServer(file, claudeEntry(ctx)), what: `mcpServers.${SERVER_NAME} (http, key from $${KEY_VARIABLE})` },
        { path: settings, status: mergeClaudeHooks(settings, ctx), what: `hooks for the work board (http, key from $${KEY_VARIABLE})` },
      ],
      notes: ["Start `claude` in this directory from a shell where the key is exported, and approve the project's MCP server when asked."],
      keyFromEnv: true,
    };
  },
  print(ctx) {
    const hooks = JSON.stringify({ hooks: claudeHooksBlock(ctx) }, null, 2);
    return {
      files: [],
      notes: [CLAUDE_ADD(ctx.mcpUrl), "", "And merge these hooks into .claude/settings.local.json (the work board):", hooks],
      keyFromEnv: true,
    };
  },
};
