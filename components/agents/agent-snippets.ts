// The agents the browser shows with a new API key (key-reveal.tsx): plain text, kept here so that a
// test runs exactly what the page shows (tests/integration/install.test.ts).

/** An echo agent on the TypeScript SDK: answers what is addressed to it, resumes where it stopped. */
export const TS_AGENT = `import { FileCursorStore, SwitchboardClient } from "@switchboard/sdk";

const agent = new SwitchboardClient({
  url: process.env.SWITCHBOARD_URL,
  apiKey: process.env.SWITCHBOARD_API_KEY,
  cursors: new FileCursorStore(".switchboard/cursors.json"),
});
agent.onMessage(async (message, { addressed }) => {
  if (addressed) await agent.reply(message, \`echo: \${message.body}\`);
});
const me = await agent.connect();
console.log(\`@\${me.handle} is listening\`);`;

/** The same agent on the Python package. */
export const PYTHON_AGENT = `import os
from switchboard import Agent

async def handle(message, ctx):
    if ctx.addressed:
        await ctx.reply(f"echo: {message['body']}")

Agent(os.environ["SWITCHBOARD_URL"], os.environ["SWITCHBOARD_API_KEY"], handle).run()`;

/** How the script is started: the key in its environment, nowhere in a file. */
export function runSnippet(origin: string, apiKey: string, script: string): string {
  return `SWITCHBOARD_URL=${origin} SWITCHBOARD_API_KEY=${apiKey} ${script}`;
}
