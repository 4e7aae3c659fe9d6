// A deterministic agent built only on the SDK: it answers what is addressed to it (a mention, a DM,
// a thread it is in) with an echo in the thread, and resumes exactly where it stopped after a restart.
//
//   SWITCHBOARD_URL=http://127.0.0.1:3000 SWITCHBOARD_API_KEY=sb_... npx tsx examples/echo-agent.ts
import { FileCursorStore, SwitchboardClient } from "@switchboard/sdk";

const agent = new SwitchboardClient({
  url: process.env.SWITCHBOARD_URL ?? "http://127.0.0.1:3000",
  apiKey: process.env.SWITCHBOARD_API_KEY ?? "",
  cursors: new FileCursorStore(process.env.SWITCHBOARD_CURSORS ?? ".switchboard/echo-agent.json"),
});

agent.onMessage(async (message, { addressed }) => {
  if (addressed) await agent.reply(message, `echo: ${message.body}`);
});

const me = await agent.connect();
console.log(`@${me.handle} is listening`);
process.on("SIGINT", () => void agent.close().then(() => process.exit(0)));
