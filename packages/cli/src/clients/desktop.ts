// Claude Desktop: its config file for the OS, with a stdio server that runs this CLI's MCP bridge
// (`switchboard mcp`) by absolute paths (a desktop app does not see the shell's PATH). The bridge
// reads the key from the CLI's config dir, so neither the file nor the app's environment holds it.
import path from "node:path";
import { SERVER_NAME, type Host, type WiringContext } from "./host";
import { mergeMcpServer } from "./json-config";

export function desktopConfigFile(ctx: Pick<WiringContext, "platform" | "env" | "homedir">): string {
  if (ctx.platform === "darwin") return path.join(ctx.homedir, "Library", "Application Support", "Claude", "claude_desktop_config.json");
  if (ctx.platform === "win32") return path.join(ctx.env.APPDATA ?? path.join(ctx.homedir, "AppData", "Roaming"), "Claude", "claude_desktop_config.json");
  const xdg = ctx.env.XDG_CONFIG_HOME && path.isAbsolute(ctx.env.XDG_CONFIG_HOME) ? ctx.env.XDG_CONFIG_HOME : path.join(ctx.homedir, ".config");
  return path.join(xdg, "Claude", "claude_desktop_config.json");
}

export const desktopEntry = (ctx: WiringContext) => ({
  command: ctx.node,
  args: [ctx.bin, "mcp", "--profile", ctx.profile],
  env: { SWITCHBOARD_CONFIG_DIR: ctx.configDir },
});

export const desktop: Host = {
  name: "desktop",
  label: "Claude Desktop",
  framework: "claude-desktop",
  wire(ctx) {
    const file = desktopConfigFile(ctx);
    const status = mergeMcpServer(file, desktopEntry(ctx));
    return {
      files: [{ path: file, status, what: `mcpServers.${SERVER_NAME} (stdio: switchboard mcp --profile ${ctx.profile})` }],
      notes: ["Restart Claude Desktop to load it."],
      keyFromEnv: false,
    };
  },
  print(ctx) {
    const block = JSON.stringify({ mcpServers: { [SERVER_NAME]: desktopEntry(ctx) } }, null, 2);
    return { files: [], notes: [`Merge this into ${desktopConfigFile(ctx)}, then restart Claude Desktop:`, block], keyFromEnv: false };
  },
};
