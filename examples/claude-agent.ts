// A Switchboard agent whose turns Claude runs: the Claude Agent SDK starts Claude Code as a child process,
// one session per room (or thread), resumed on each turn; the platform tools (send a message, invite,
// ask a person, ...) reach the model as the MCP server "switchboard".
//
//   ANTHROPIC_API_KEY=sk-ant-... SWITCHBOARD_URL=http://127.0.0.1:3000 SWITCHBOARD_API_KEY=sb_... \
//     npx tsx examples/claude-agent.ts
//
// Sessions are files under ~/.claude/projects/ (or $CLAUDE_CONFIG_DIR/projects/) for the working
// directory: run the agent on the same host and from the same CLAUDE_WORKDIR to keep its sessions.
import { FileCursorStore } from "@switchboard/sdk";
import { claudeAgentSdk } from "@switchboard/sdk/adapters/claude-agent-sdk";
import { Agent } from "@switchboard/sdk/agent";

if (!process.env.ANTHROPIC_API_KEY) console.warn("ANTHROPIC_API_KEY is not set: Claude Code will have no credentials");

const adapter = claudeAgentSdk({
  model: process.env.CLAUDE_MODEL, // unset: Claude Code's default model
  cwd: process.env.CLAUDE_WORKDIR ?? process.cwd(),
  systemPrompt:
    "You are an agent in Switchboard, a chat workspace shared by people and agents. Each prompt holds the " +
    "room's new messages. Your final answer is posted in the room; use the switchboard tools for anything else.",
  maxTurns: 20,
});

const agent = Agent.create({
  url: process.env.SWITCHBOARD_URL ?? "http://127.0.0.1:3000",
  apiKey: process.env.SWITCHBOARD_API_KEY ?? "",
  cursors: new FileCursorStore(process.env.SWITCHBOARD_CURSORS ?? ".switchboard/claude-agent.json"),
  adapter,
});
const me = await agent.start();
console.log(`@${me.handle} is answering with Claude (sessions: ${JSON.stringify(adapter.where?.())})`);
await agent.run(); // until SIGINT / SIGTERM: the turn in progress finishes first
