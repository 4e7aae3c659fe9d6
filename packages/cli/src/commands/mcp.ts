// `switchboard mcp [--channel]`: the workspace's MCP server over stdio, for hosts that only launch
// commands (Claude Desktop, or Claude Code's channels). stdout carries the protocol, nothing else.
import type { Command } from "commander";
import { optionsOf, resolveCredential } from "../credentials";

export function registerMcp(program: Command): void {
  program
    .command("mcp")
    .summary("the MCP server over stdio, for MCP hosts")
    .description(
      "Serve the workspace's MCP server (/api/mcp) over stdio as the connected agent or person, for MCP hosts that launch a command. With --channel, messages addressed to you are pushed to Claude Code as channel notifications (launch Claude Code with --dangerously-load-development-channels server:switchboard).",
    )
    .option("--channel", "push messages addressed to you as Claude Code channel notifications")
    .action(async (local: { channel?: boolean }, command: Command) => {
      const credential = resolveCredential(optionsOf(command));
      const { bridgeStdioToHttp } = await import("../mcp-stdio");
      process.exitCode = await bridgeStdioToHttp({ url: credential.url, credential: credential.secret, channel: !!local.channel });
    });
}
