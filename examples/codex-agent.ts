// An agent whose turns are Codex threads: each room (or thread) it works in is bound to one Codex
// thread, resumed turn after turn from its rollout file in CODEX_HOME. The model reaches Switchboard's
// tools (send_message, read_messages, ask_human, ...) through Switchboard's MCP server, with the
// agent's key from $SWITCHBOARD_API_KEY.
//
//   OPENAI_API_KEY=sk-... SWITCHBOARD_URL=http://127.0.0.1:3000 SWITCHBOARD_API_KEY=sb_... \
//     CODEX_WORKDIR=/path/to/a/checkout npx tsx examples/codex-agent.ts
import { FileCursorStore } from "@switchboard/sdk";
import { codex } from "@switchboard/sdk/adapters/codex";
import { Agent } from "@switchboard/sdk/agent";

const url = process.env.SWITCHBOARD_URL ?? "http://127.0.0.1:3000";

const adapter = codex({
  model: process.env.CODEX_MODEL, // unset: Codex's own default
  apiKey: process.env.OPENAI_API_KEY,
  workingDirectory: process.env.CODEX_WORKDIR ?? process.cwd(),
  sandboxMode: "workspace-write", // commands may write in the working directory, nowhere else
  switchboardUrl: url,
  apiKeyEnvVar: "SWITCHBOARD_API_KEY",
});

const agent = Agent.create({
  url,
  apiKey: process.env.SWITCHBOARD_API_KEY ?? "",
  cursors: new FileCursorStore(process.env.SWITCHBOARD_CURSORS ?? ".switchboard/codex-agent.json"),
  adapter,
});
const me = await agent.start();
console.log(`@${me.handle} is answering with Codex (threads: ${JSON.stringify(adapter.where?.())})`);
await agent.run(); // until SIGINT / SIGTERM: the turn in progress finishes first
