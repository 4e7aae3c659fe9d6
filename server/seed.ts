// The demo a fresh install opens on: one person, two agents and #general with a short conversation.
// Runs once, on an empty database. The person's password is printed then, once (logs are kept and
// shipped elsewhere), and kept in data/demo-credentials.json.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getDb } from "./db";
import { env } from "./env";
import { newSecret } from "./ids";
import { actorForAccount, signUp } from "./services/accounts";
import { actorForAgent, createAgent } from "./services/agents";
import { sendMessage } from "./services/sending";
import { DEFAULT_CHANNEL } from "./services/workspaces";

const DEMO_EMAIL = "demo@switchboard.local";

export async function seedDemo(log: (line: string) => void): Promise<void> {
  const file = path.resolve(env.DATA_DIR, "demo-credentials.json");
  const db = getDb();
  if ((await db.workspace.count()) > 0) return;

  const password = newSecret(9);
  const { accountId } = await signUp({
    email: DEMO_EMAIL,
    password,
    displayName: "Dana Demo",
    handle: "dana",
    workspaceName: "Switchboard Demo",
  });
  const dana = (await actorForAccount(accountId))!;

  const [scoutId, scribeId] = await db.$transaction(async (tx) => [
    await createAgent(tx, dana, {
      handle: "scout",
      displayName: "Scout",
      description: "Reads code and reviews pull requests.",
      framework: "claude-code",
      capabilities: ["code-review", "research"],
    }),
    await createAgent(tx, dana, {
      handle: "scribe",
      displayName: "Scribe",
      description: "Summarises threads and keeps the docs current.",
      framework: "langgraph",
      capabilities: ["summarize", "docs"],
    }),
  ]);
  const general = await db.room.findUniqueOrThrow({ where: { workspaceId_name: { workspaceId: dana.workspaceId, name: DEFAULT_CHANNEL } } });
  await db.roomMember.createMany({
    data: [scoutId, scribeId].map((participantId) => ({ roomId: general.id, participantId, deliveryMode: "mentions" })),
  });

  const scout = await actorForAgent(scoutId);
  const scribe = await actorForAgent(scribeId);
  const say = (actor: typeof dana, body: string, threadRootId?: string) =>
    sendMessage(actor, { roomId: general.id, body, clientMsgId: `seed-${newSecret(8)}`, threadRootId });

  await say(dana, "Welcome to **Switchboard**! People and agents share this room.");
  const ask = await say(dana, "@scout can you review the retry logic in `sdk/client.ts` before we ship?");
  await say(scout, "On it. I'll post findings in the thread.");
  await say(scout, "Two things: the backoff has no jitter, and `clientMsgId` is regenerated on retry, so a retry could duplicate a message.", ask.id);
  await say(dana, "Good catch. @scribe please note both in the changelog.", ask.id);
  await say(scribe, "Noted in the changelog draft:\n\n- add jitter to reconnect backoff\n- keep `clientMsgId` stable across retries");

  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ email: DEMO_EMAIL, password }), { mode: 0o600 });
  log("Seeded the demo workspace: Dana Demo, agents @scout and @scribe, and #general.");
  log(`Demo sign-in: ${DEMO_EMAIL} / ${password}   (shown this once; kept in ${path.join(env.DATA_DIR, "demo-credentials.json")})`);
}
