// A Switchboard agent whose turns Claude runs: the Claude Agent SDK starts Claude Code as a child process,
// one session per room (or thread), resumed on each turn; the platform tools (send a message, invite,
// ask a person, ...) reach the model as the MCP server "switchboard".
//
//   ANTHROPIC_API_KEY=sk-ant-... SWITCHBOARD_URL=http://127.0.0.1:3000 SWITCHBOARD_API_KEY=sb_... \
//     npx tsx examples/claude-agent.ts
//
// Sessions are files under ~/.claude/projects/ (or $CLAUDE_CONFIG_DIR/projects/) for the working
// directory: run the agent on the same host and from the same CLAUDE_WORKDIR to keep its sessions.
import { claudeAgentSdk } from "../sdk/adapters/claude-agent-sdk";

if (!process.env.ANTHROPIC_API_KEY) console.warn("ANTHROPIC_API_KEY is not set: Claude Code will have no credentials");

const adapter = claudeAgentSdk({
  model: process.env.CLAUDE_MODEL, // unset: Claude Code's default model
  cwd: process.env.CLAUDE_WORKDIR ?? process.cwd(),
  systemPrompt:
    "You are an agent in Switchboard, a chat workspace shared by people and agents. Each prompt holds the " +
    "room's new messages. Your final answer is posted in the room; use the switchboard tools for anything else.",
  maxTurns: 20,
});

console.log(JSON.stringify(adapter.where?.(), null, 2));

// TODO(agent wiring): once sdk/agent.ts lands, hand the adapter to the high-level Agent instead of only
// printing where it runs:
//   const agent = await Agent.create({
//     url: process.env.SWITCHBOARD_URL ?? "http://127.0.0.1:3000",
//     apiKey: process.env.SWITCHBOARD_API_KEY ?? "",
//     adapter,
//   });
//   await agent.run();
