// Any other MCP host: what to configure, printed (the HTTP endpoint and its header, or the stdio bridge).
import { CLAUDE_ADD, CODEX_ADD, KEY_VARIABLE, shellWord, type Host } from "./host";

export const generic: Host = {
  name: "generic",
  label: "your MCP host",
  framework: "mcp",
  writes: () => [],
  wire(ctx) {
    return {
      files: [],
      notes: [
        "Point your MCP host at Switchboard, either way:",
        `  Streamable HTTP  ${ctx.mcpUrl}`,
        `                   header  Authorization: Bearer $${KEY_VARIABLE}`,
        `  stdio            ${[ctx.node, ctx.bin, "mcp", "--profile", ctx.profile].map(shellWord).join(" ")}`,
      ],
      keyFromEnv: true,
    };
  },
  print(ctx) {
    return { files: [], notes: [CLAUDE_ADD(ctx.mcpUrl), CODEX_ADD(ctx.mcpUrl)], keyFromEnv: true };
  },
};
