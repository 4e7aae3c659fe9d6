// Claude Desktop: its config file for the OS, with a stdio server that runs this CLI's MCP bridge
// (host.ts bridgeEntry), which reads the key from the CLI's config dir.
import path from "node:path";
import { bridgeEntry, SERVER_NAME, type Host, type WiringContext } from "./host";
import { mergeMcpServer } from "./json-config";

export function desktopConfigFile(ctx: Pick<WiringContext, "platform" | "env" | "homedir">): string {
  if (ctx.platform === "darwin") return path.join(ctx.homedir, "Library", "Application Support", "Claude", "claude_desktop_config.json");
  if (ctx.platform === "win32") return path.join(ctx.env.APPDATA ?? path.join(ctx.homedir, "AppData", "Roaming"), "Claude", "claude_desktop_config.json");
  const xdg = ctx.env.XDG_CONFIG_HOME && path.isAbsolute(ctx.env.XDG_CONFIG_HOME) ? ctx.env.XDG_CONFIG_HOME : path.join(ctx.homedir, ".config");
  return path.join(xdg, "Claude", "claude_desktop_config.json");
}

export const desktop: Host = {
  name: "desktop",
  label: "Claude Desktop",
  framework: "claude-desktop",
  writes: (ctx) => [desktopConfigFile(ctx)],
  wire(ctx) {
    const file = desktopConfigFile(ctx);
    const status = mergeMcpServer(file, bridgeEntry(ctx));
    return {
      files: [{ path: file, status, what: `mcpServers.${SERVER_NAME} (stdio: switchboard mcp --profile ${ctx.profile})` }],
      notes: ["Restart Claude Desktop to load it."],
      keyFromEnv: false,
    };
  },
  print(ctx) {
    const block = JSON.stringify({ mcpServers: { [SERVER_NAME]: bridgeEntry(ctx) } }, null, 2);
    return { files: [], notes: [`Merge this into ${desktopConfigFile(ctx)}, then restart Claude Desktop:`, block], keyFromEnv: false };
  },
};
