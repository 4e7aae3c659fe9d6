// The demo a fresh install opens on: one person, two agents and #general with a short conversation,
// and a little work history for the Work page; and a second company in the same deployment (its own
// person and assistant agent), connected with the first, so that working across companies is there to see.
// Runs once, on an empty database. The person's password is printed then, once (logs are kept and
// shipped elsewhere), and kept in data/demo-credentials.json.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getDb } from "./db";
import { env } from "./env";
import { newSecret } from "./ids";
import { actorForAccount, signUp } from "./services/identity/accounts";
import { actorForAgent, createAgent } from "./services/identity/agents";
import { sendMessage } from "./services/messaging/sending";
import { linkWork, reportFiles, reportTasks } from "./services/work/work";
import { setStatus } from "./services/work/status";
import type { Actor } from "./policies";
import { DEFAULT_CHANNEL } from "./services/identity/workspaces";
import { acceptConnection, createConnectionInvite } from "./services/workspace-connections/connections";

const DEMO_EMAIL = "demo@switchboard.local";
const SECOND_EMAIL = "kim@northwind.local";

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
  await seedWork({ dana, scout, scribe, roomId: general.id, askId: ask.id });
  const second = await seedSecondCompany(dana);

  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ email: DEMO_EMAIL, password, others: [second] }), { mode: 0o600 });
  log("Seeded the demo workspace: Dana Demo, agents @scout and @scribe, and #general.");
  log(`Seeded a second company, ${second.workspace}: Kim Park and her assistant @atlas, connected with the first.`);
  log(`Demo sign-in: ${DEMO_EMAIL} / ${password}   (shown this once; kept in ${path.join(env.DATA_DIR, "demo-credentials.json")})`);
  log(`Second company's sign-in: ${SECOND_EMAIL} / ${second.password}`);
}

/**
 * Northwind, a second company on the same deployment: Kim and her personal assistant agent, with
 * #general, and a connection with the demo workspace (each side lets the other find its agents).
 */
async function seedSecondCompany(dana: Actor): Promise<{ workspace: string; email: string; password: string }> {
  const db = getDb();
  const password = newSecret(9);
  const workspace = "Northwind";
  const { accountId } = await signUp({ email: SECOND_EMAIL, password, displayName: "Kim Park", handle: "kim", workspaceName: workspace }, null, {
    byOperator: true,
  });
  const kim = (await actorForAccount(accountId))!;
  const atlasId = await db.$transaction((tx) =>
    createAgent(tx, kim, {
      handle: "atlas",
      displayName: "Atlas",
      description: "Kim's personal assistant: her calendar, travel and research.",
      framework: "langgraph",
      capabilities: ["scheduling", "research"],
    }),
  );
  const general = await db.room.findUniqueOrThrow({ where: { workspaceId_name: { workspaceId: kim.workspaceId, name: DEFAULT_CHANNEL } } });
  await db.roomMember.create({ data: { roomId: general.id, participantId: atlasId, deliveryMode: "mentions" } });
  const atlas = await actorForAgent(atlasId);
  const say = (actor: Actor, body: string) => sendMessage(actor, { roomId: general.id, body, clientMsgId: `seed-${newSecret(8)}` });
  await say(kim, "@atlas I'm meeting the Switchboard Demo team next week: find a slot Tuesday or Wednesday.");
  await say(atlas, "Tuesday 14:00–15:00 is free for you. Shall I offer it to them once we're connected?");

  const { code } = await createConnectionInvite(dana, { expiresInDays: 14, side: { directory: "agents" } });
  await acceptConnection(kim, { code, side: { directory: "agents" } });
  return { workspace, email: SECOND_EMAIL, password };
}

/**
 * A little work history, so the Work page opens alive: Scout fixing the retry logic it found (tasks,
 * files across components, a branch and a pull request), Scribe on the changelog and waiting for Dana.
 * Statuses hold for a day here (a real agent renews a short TTL).
 */
async function seedWork(s: { dana: Actor; scout: Actor; scribe: Actor; roomId: string; askId: string }): Promise<void> {
  const inThread = { roomId: s.roomId, threadRootId: s.askId, sessionId: "demo-scout-session" };
  await reportTasks(s.scout, {
    ...inThread,
    complete: true,
    tasks: [
      { key: "review", title: "Review the retry logic in sdk/client.ts", status: "completed" },
      { key: "jitter", title: "Add jitter to the reconnect backoff", status: "completed", parentKey: "review" },
      { key: "stable-id", title: "Keep clientMsgId stable across retries", status: "in_progress", parentKey: "review" },
      { key: "tests", title: "Cover retries in the SDK's tests", status: "pending" },
    ],
  });
  await reportFiles(s.scout, {
    ...inThread,
    taskKey: "jitter",
    branch: "fix/retry-jitter",
    files: [
      { path: "sdk/client.ts", operation: "edit", linesAdded: 14, linesRemoved: 3 },
      { path: "sdk/backoff.ts", operation: "create", linesAdded: 32 },
    ],
  });
  await reportFiles(s.scout, {
    ...inThread,
    taskKey: "stable-id",
    branch: "fix/retry-jitter",
    files: [
      { path: "sdk/client.ts", operation: "edit", linesAdded: 6, linesRemoved: 2 },
      { path: "server/services/sending.ts", operation: "read" },
      { path: "npm test -- sdk", operation: "run" },
    ],
  });
  await linkWork(s.scout, { ...inThread, taskKey: "review", kind: "branch", value: "fix/retry-jitter" });
  await linkWork(s.scout, {
    ...inThread,
    taskKey: "review",
    kind: "pull_request",
    value: "https://github.com/example/switchboard/pull/42",
    title: "SDK: jittered backoff, stable clientMsgId on retry",
  });
  await setStatus(s.scout, { state: "working", text: "Keeping clientMsgId stable across retries", ttlSec: 86_400 });

  const changelog = { roomId: s.roomId, sessionId: "demo-scribe-session" };
  await reportTasks(s.scribe, {
    ...changelog,
    complete: true,
    tasks: [
      { title: "Draft the changelog entry", status: "completed" },
      { title: "Ask Dana which release it ships in", status: "in_progress" },
    ],
  });
  await reportFiles(s.scribe, {
    ...changelog,
    files: [
      { path: "CHANGELOG.md", operation: "edit", linesAdded: 4 },
      { path: "docs/protocol.md", operation: "read" },
    ],
  });
  await setStatus(s.scribe, { state: "waiting", text: "Which release does the retry fix ship in?", waitingFor: s.dana.participantId, ttlSec: 86_400 });
}
