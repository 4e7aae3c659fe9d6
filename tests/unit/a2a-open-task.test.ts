// Opening a served agent's task for a new A2A request (services/a2a/tasks.ts `openTask`) on a real
// migrated SQLite database (fixtures/database.ts): retries racing in one process all miss the lookup,
// so one opens the task and the rest meet the unique (caller, agent, messageKey) and get its task; the
// request is stored once however many of them store it (they find the first still as opened, so each
// stores it, as after a crash); the same messageId with other content is refused. PostgreSQL's side of
// the race: tests/integration/a2a-inbound.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "./fixtures/database";

const database = await openTestDatabase();
const { actorForAccount, signUp } = await import("../../server/services/identity/accounts");
const { createAgentWithKey } = await import("../../server/services/identity/agents");
const { openTask, servedAgent, setA2aServed } = await import("../../server/services/a2a/tasks");
const { getDb } = await import("../../server/db");
const { AppError } = await import("../../server/errors");

type Actor = NonNullable<Awaited<ReturnType<typeof actorForAccount>>>;
type Served = Awaited<ReturnType<typeof servedAgent>>;

/** The bridge's record of a task just opened (its JSON is opaque to the service). */
const opened = { state: "TASK_STATE_SUBMITTED", task: (ids: { taskId: string; contextId: string }) => JSON.stringify(ids) };

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "opened",
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );

describe("openTask", () => {
  let ada: Actor; // owns the agents, so she may call them with no connection
  let helper: Served;
  let other: Served;

  async function served(handle: string): Promise<Served> {
    const { agent } = await createAgentWithKey(ada, { handle, displayName: handle, description: "", framework: "script", capabilities: [] });
    await setA2aServed(ada, agent.id, true);
    return servedAgent(handle, ada.workspaceId);
  }

  beforeAll(async () => {
    const { accountId } = await signUp({ email: "ada@example.test", password: "a good password", displayName: "Ada", handle: "ada" });
    ada = (await actorForAccount(accountId))!;
    helper = await served("helper");
    other = await served("other");
  }, 30_000);
  afterAll(() => database.close());

  it("opens one task for retries racing each other, stores its request once, and leaves no context behind", async () => {
    const request = { messageId: "m-race", text: "raced" };
    const results = await Promise.all(Array.from({ length: 4 }, () => openTask(ada, helper, request, opened)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.task.id)).size).toBe(1);
    const db = getDb();
    expect(await db.a2aTask.count({ where: { messageKey: "m-race" } })).toBe(1);
    expect(await db.a2aContext.count({ where: { callerId: ada.participantId, agentId: helper.id } })).toBe(1);
    expect(await db.message.count({ where: { body: "raced" } })).toBe(1);

    const later = await openTask(ada, helper, request, opened);
    expect(later).toMatchObject({ created: false, task: { id: results[0].task.id } });
    expect(await db.message.count({ where: { body: "raced" } })).toBe(1);
  });

  it("refuses the same messageId with other content (text, contextId or room) as A2A_MESSAGE_ID_REUSED", async () => {
    const request = { messageId: "m-reused", text: "the original" };
    const { task } = await openTask(ada, helper, request, opened);
    expect(await codeOf(openTask(ada, helper, { ...request, text: "something else" }, opened))).toBe("A2A_MESSAGE_ID_REUSED");
    expect(await codeOf(openTask(ada, helper, { ...request, contextId: task.contextId }, opened))).toBe("A2A_MESSAGE_ID_REUSED");
    expect(await codeOf(openTask(ada, helper, { ...request, roomId: task.roomId }, opened))).toBe("A2A_MESSAGE_ID_REUSED");
    expect(await getDb().a2aTask.count({ where: { messageKey: "m-reused" } })).toBe(1);
  });

  it("keys a message per caller and agent: the same messageId to another agent is another task", async () => {
    const request = { messageId: "m-shared", text: "to each" };
    const [one, two] = [await openTask(ada, helper, request, opened), await openTask(ada, other, request, opened)];
    expect([one.created, two.created]).toEqual([true, true]);
    expect(one.task.id).not.toBe(two.task.id);
  });

  it("keys a long messageId by its hash, and refuses an empty request before opening anything", async () => {
    const long = { messageId: "x".repeat(500), text: "long id" };
    const first = await openTask(ada, helper, long, opened);
    expect(first.task.messageKey).toHaveLength(64);
    expect(await openTask(ada, helper, long, opened)).toMatchObject({ created: false, task: { id: first.task.id } });
    expect(await codeOf(openTask(ada, helper, { messageId: "m-empty", text: "  " }, opened))).toBe("MESSAGE_EMPTY");
    expect(await getDb().a2aTask.count({ where: { messageKey: "m-empty" } })).toBe(0);
  });
});
