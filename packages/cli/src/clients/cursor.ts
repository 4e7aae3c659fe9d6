// Cursor: `.cursor/mcp.json` in the current directory (project scope), a remote server whose header
// Cursor interpolates from the environment with `${env:NAME}`.
import path from "node:path";
import { KEY_VARIABLE, SERVER_NAME, type Host, type WiringContext } from "./host";
import { mergeMcpServer } from "./json-config";

export const cursorEntry = (ctx: WiringContext) => ({
  url: ctx.mcpUrl,
  headers: { Authorization: `Bearer \${env:${KEY_VARIABLE}}` },
});

export const cursor: Host = {
  name: "cursor",
  label: "Cursor",
  framework: "cursor",
  wire(ctx) {
    const file = path.join(ctx.cwd, ".cursor", "mcp.json");
    const status = mergeMcpServer(file, cursorEntry(ctx));
    return {
      files: [{ path: file, status, what: `mcpServers.${SERVER_NAME} (remote, key from \${env:${KEY_VARIABLE}})` }],
      notes: ["Start Cursor from a shell where the key is exported (`cursor .`), so that it sees the variable."],
      keyFromEnv: true,
    };
  },
  print(ctx) {
    const block = JSON.stringify({ mcpServers: { [SERVER_NAME]: cursorEntry(ctx) } }, null, 2);
    return { files: [], notes: ["Cursor has no command for this; put this in .cursor/mcp.json (or ~/.cursor/mcp.json):", block], keyFromEnv: true };
  },
};
