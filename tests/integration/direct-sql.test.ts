// The hot path's statements (server/direct-sql.ts, server/services/send-statements.ts) on real
// databases: what they commit reads back through Prisma exactly as Prisma would have written it, a
// throw leaves nothing behind, a unique violation is recognised on both dialects, nothing runs on a
// transaction once it has ended, and a batch is stored only while the facts it was decided on hold.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb, Prisma } from "../../server/db";
import { directStatements, directTransaction, type DirectTx } from "../../server/direct-sql";
import { AppError, isUniqueViolation } from "../../server/errors";
import { migrate } from "../../server/migrate";
import { findMessages, MAX_SEQ, roomRange } from "../../server/services/message-reads";
import { batchFacts, lockRoom, storeBatch, type BatchWrite, type FactChecks, type Mention, type NewMessage } from "../../server/services/send-statements";
import { dialects, dropPgSchema, PG_URL, withSchema } from "./harness";

/** A bound value as the PostgreSQL adapter sends it: dates as UTC timestamps. */
const pgValue = (v: unknown) => (v instanceof Date ? v.toISOString().replace("T", " ").replace("Z", "") : v);

describe.each(dialects)("direct transactions on %s", (dialect) => {
  const schema = `it_direct_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const url =
    dialect === "sqlite"
      ? `file:${path.join(mkdtempSync(path.join(tmpdir(), "switchboard-direct-")), "db.sqlite")}`
      : withSchema(PG_URL, schema);
  const ids = { workspace: "w1", author: "p1", room: "r1" };

  beforeAll(async () => {
    await closeDb();
    process.env.DATABASE_URL = url;
    await migrate(url);
    const db = getDb();
    await db.workspace.create({ data: { id: ids.workspace, name: "Direct" } });
    await db.participant.create({ data: { id: ids.author, workspaceId: ids.workspace, kind: "human", handle: "ada", displayName: "Ada" } });
    await db.room.create({ data: { id: ids.room, workspaceId: ids.workspace, kind: "channel", visibility: "public", name: "general", createdById: ids.author } });
    await db.roomMember.create({ data: { roomId: ids.room, participantId: ids.author } });
  });

  afterAll(async () => {
    await closeDb();
    if (dialect === "postgresql") await dropPgSchema(schema);
  });

  const message = (seq: number, clientMsgId: string, extra: Partial<NewMessage> = {}): NewMessage => ({
    id: `m-${clientMsgId}`,
    roomId: ids.room,
    seq,
    authorId: ids.author,
    kind: "text",
    body: `body ${clientMsgId}`,
    clientMsgId,
    threadRootId: null,
    createdAt: new Date(),
    ...extra,
  });
  /** A batch storing `messages`, decided at the room's seq before the first. */
  const batch = (messages: NewMessage[], extra: Partial<BatchWrite> = {}): BatchWrite => ({
    roomId: ids.room,
    afterSeq: messages[0].seq - 1,
    messages,
    mentions: [],
    replies: new Map(),
    agents: [],
    at: new Date(),
    ...extra,
  });
  /** Stores messages as a batch does (their authors' cursors move too); fails the test if it did not. */
  const insertMessages = async (tx: DirectTx, messages: NewMessage[], mentions: Mention[] = []) => expect(await storeBatch(tx, batch(messages, { mentions }))).toBe(true);
  const lastSeq = async () => (await getDb().room.findUniqueOrThrow({ where: { id: ids.room } })).lastSeq;

  it("commits what it wrote, and Prisma reads it back as it writes it: dates, JSON and numbers", async () => {
    const createdAt = new Date("2026-11-30T12:34:56.789Z");
    const facts = await directTransaction(async (tx) => {
      await lockRoom(tx, ids.room);
      const facts = await batchFacts(tx, ids.room, [{ authorId: ids.author, clientMsgId: "one" }]);
      await insertMessages(tx, [message(facts.room!.lastSeq + 1, "one", { kind: "system", data: { type: "loop_guard.paused" }, createdAt })]);
      return facts;
    });
    expect(facts.room).toMatchObject({ id: ids.room, workspaceId: ids.workspace, kind: "channel", lastSeq: 0, agentsPausedAt: null, archivedAt: null });
    expect(facts.workspace).toMatchObject({ loopGuardMessages: expect.any(Number), agentBurst: expect.any(Number) });
    expect(facts.storedIds).toEqual([]);
    // A retry is found by its author and clientMsgId, and only by both.
    const retried = await directStatements((q) => batchFacts(q, ids.room, [{ authorId: ids.author, clientMsgId: "one" }, { authorId: "someone-else", clientMsgId: "one" }]));
    expect(retried.storedIds).toEqual(["m-one"]);
    const stored = await getDb().message.findUniqueOrThrow({ where: { id: "m-one" } });
    expect(stored).toMatchObject({ seq: 1, kind: "system", data: { type: "loop_guard.paused" }, createdAt, replyCount: 0 });
    expect(await lastSeq()).toBe(1);
    // And filters written by Prisma match values written here.
    expect(await getDb().message.count({ where: { createdAt: { gte: createdAt } } })).toBe(1);
    expect(await getDb().message.count({ where: { createdAt: { gt: createdAt } } })).toBe(0);
  });

  it("leaves nothing behind when its function throws", async () => {
    const before = await lastSeq();
    await expect(
      directTransaction(async (tx) => {
        await lockRoom(tx, ids.room);
        await insertMessages(tx, [message(before + 1, "doomed")]);
        throw new Error("refused after writing");
      }),
    ).rejects.toThrow("refused after writing");
    expect(await lastSeq()).toBe(before);
    expect(await getDb().message.findUnique({ where: { id: "m-doomed" } })).toBeNull();
  });

  it("reports a repeated clientMsgId as a unique violation, rolls back, and releases the room", async () => {
    const before = await lastSeq();
    const error = await directTransaction(async (tx) => {
      await lockRoom(tx, ids.room);
      await insertMessages(tx, [message(before + 1, "one", { id: "m-one-again" })]);
    }).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    expect(await lastSeq()).toBe(before);
    // The lock (SQLite) or the connection (PostgreSQL) went back: the next transaction runs.
    await directTransaction(async (tx) => {
      await lockRoom(tx, ids.room);
      await insertMessages(tx, [message(before + 1, "two")]);
    });
    expect(await lastSeq()).toBe(before + 1);
  });

  it("refuses statements once the transaction has ended", async () => {
    let kept: DirectTx | null = null;
    await directTransaction(async (tx) => {
      kept = tx;
    });
    const error = await lockRoom(kept!, ids.room).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("UNAVAILABLE");
    expect(await lastSeq()).toBe(2);
  });

  it("reads a room's pages exactly as the Prisma reader does: mentions, receipts, threads, edits, deletions, data", async () => {
    const db = getDb();
    await db.participant.create({ data: { id: "p2", workspaceId: ids.workspace, kind: "agent", handle: "scout", displayName: "Scout" } });
    const base = await lastSeq();
    // Mentions go in with their messages (on PostgreSQL, sibling inserts of one statement).
    const mentions = ["p2", ids.author].map((participantId) => ({ messageId: "m-root", participantId, roomId: ids.room, seq: base + 1 }));
    await directTransaction(async (tx) => {
      await lockRoom(tx, ids.room);
      const messages = [
        message(base + 1, "root"),
        message(base + 2, "reply", { authorId: "p2", threadRootId: "m-root" }),
        message(base + 3, "edited"),
        message(base + 4, "deleted", { data: { type: "note", n: 1 } }),
      ];
      await insertMessages(tx, messages, mentions);
    });
    await db.messageReceipt.create({ data: { messageId: "m-root", participantId: "p2", roomId: ids.room, seq: base + 1, state: "failed", reason: "no tool" } });
    await db.message.update({ where: { id: "m-root" }, data: { replyCount: 1, lastReplyAt: new Date() } });
    await db.message.update({ where: { id: "m-edited" }, data: { body: "changed", editedAt: new Date() } });
    await db.message.update({ where: { id: "m-deleted" }, data: { deletedAt: new Date() } });

    const direct = await roomRange(ids.room, 0, MAX_SEQ, 100);
    const viaPrisma = await findMessages({ where: { roomId: ids.room }, orderBy: { seq: "asc" } });
    expect(direct).toEqual(viaPrisma);
    expect(direct.find((m) => m.id === "m-root")).toMatchObject({ mentions: [ids.author, "p2"].sort(), replyCount: 1, receipts: [{ participantId: "p2", state: "failed", reason: "no tool" }] });
    // Bounds and limits: (after, through], oldest first.
    expect((await roomRange(ids.room, base, base + 3, 2)).map((m) => m.seq)).toEqual([base + 1, base + 2]);
    expect(await roomRange(ids.room, base + 4, MAX_SEQ, 10)).toEqual([]);
  });

  /** Stores a batch as the send path does outside a transaction: one statement on PostgreSQL, a short transaction on SQLite. */
  const storeUnlocked = (write: BatchWrite) => (dialect === "postgresql" ? directStatements((q) => storeBatch(q, write)) : directTransaction((tx) => storeBatch(tx, write)));
  const nothingStored = async (clientMsgIds: string[], seq: number) => {
    expect(await lastSeq()).toBe(seq);
    expect(await getDb().message.count({ where: { clientMsgId: { in: clientMsgIds } } })).toBe(0);
  };

  it("stores a batch with its mentions, cursors, replies and pause in one go, and only while the room is where it was decided", async () => {
    const db = getDb();
    const facts = await directStatements((q) => batchFacts(q, ids.room, [{ authorId: ids.author, clientMsgId: "late" }]));
    const at = new Date("2026-11-30T08:00:00.123Z");
    // Meanwhile the room moves (another process's batch, or a member joining).
    await storeUnlocked(batch([message(facts.room!.lastSeq + 1, "meanwhile")]));
    const late = batch([message(facts.room!.lastSeq + 1, "late")], { agentsPausedAt: at, replies: new Map([["m-root", 2]]) });
    expect(await storeUnlocked(late)).toBe(false);
    await nothingStored(["late"], facts.room!.lastSeq + 1);
    expect(await db.room.findUniqueOrThrow({ where: { id: ids.room } })).toMatchObject({ agentsPausedAt: null });
    expect(await db.message.findUniqueOrThrow({ where: { id: "m-root" } })).toMatchObject({ replyCount: 1 });

    // Decided again at the new seq, it is stored with everything that goes with it.
    const seq = facts.room!.lastSeq + 2;
    const mentions = [{ messageId: "m-again", participantId: "p2", roomId: ids.room, seq }];
    // Text that array parameters must carry exactly: quotes, backslashes, braces, commas, NULL, emoji.
    const body = `say "hi" \\ {a,b} 'x' NULL ∑ 😀`;
    const data = { type: "note", text: `"{x}" \\ ,` };
    const again = batch([message(seq, "again", { threadRootId: "m-root", body, data })], { mentions, agentsPausedAt: at, replies: new Map([["m-root", 1]]), at });
    expect(await storeUnlocked(again)).toBe(true);
    expect(await lastSeq()).toBe(seq);
    expect(await db.room.findUniqueOrThrow({ where: { id: ids.room } })).toMatchObject({ agentsPausedAt: at });
    expect(await db.message.findUniqueOrThrow({ where: { id: "m-again" }, include: { mentions: true } })).toMatchObject({ seq, body, data, threadRootId: "m-root", mentions: [{ participantId: "p2", seq }] });
    expect(await db.message.findUniqueOrThrow({ where: { id: "m-root" } })).toMatchObject({ replyCount: 2, lastReplyAt: at });
    expect(await db.roomMember.findUniqueOrThrow({ where: { roomId_participantId: { roomId: ids.room, participantId: ids.author } } })).toMatchObject({ readSeq: seq, deliveredSeq: seq });
  });

  it("stores nothing when an agent it counted on was suspended in between, and holds active agents until commit", async () => {
    const db = getDb();
    await db.roomMember.create({ data: { roomId: ids.room, participantId: "p2" } });
    const seq = await lastSeq();
    const facts = await directStatements((q) => batchFacts(q, ids.room, [{ authorId: "p2", clientMsgId: "agent-1" }]));
    expect(facts.members.find((m) => m.participantId === "p2")?.participant).toMatchObject({ kind: "agent", status: "active" });
    await db.participant.update({ where: { id: "p2" }, data: { status: "suspended" } });
    const write = batch([message(seq + 1, "agent-1", { authorId: "p2" })], { agents: ["p2"] });
    expect(await storeUnlocked(write)).toBe(false);
    await nothingStored(["agent-1"], seq);

    await db.participant.update({ where: { id: "p2" }, data: { status: "active" } });
    expect(await storeUnlocked(write)).toBe(true);
    expect(await lastSeq()).toBe(seq + 1);
  });

  it("reads no room as no facts", async () => {
    expect(await directStatements((q) => batchFacts(q, "no-such-room", [{ authorId: ids.author, clientMsgId: "x" }]))).toEqual({ room: null, workspace: null, members: [], storedIds: [] });
  });

  it.runIf(dialect === "postgresql")("stores a batch decided on remembered facts only while each of them still holds", async () => {
    const db = getDb();
    const read = await directStatements((q) => batchFacts(q, ids.room, [{ authorId: ids.author, clientMsgId: "r" }]));
    const author = read.members.find((m) => m.participantId === ids.author)!;
    expect(read.members.filter((m) => m.deliveryMode === "mentions")).toEqual([]);
    let n = 0;
    /** One send by Ada, decided on the facts read above (at the room's current seq); true if stored. */
    const checked = async (extra: Partial<FactChecks> = {}, clientMsgId = `checked-${++n}`) => {
      const seq = await lastSeq();
      const checks: FactChecks = { room: read.room!, workspace: read.workspace!, authors: [author], listeners: [], sends: [{ authorId: ids.author, clientMsgId }], ...extra };
      const stored = await storeUnlocked(batch([message(seq + 1, clientMsgId, { id: `m-checked-${n}-${seq}` })], { checks }));
      if (!stored) expect(await lastSeq()).toBe(seq);
      return stored;
    };
    /** Each change alone makes the facts untrue (nothing stored); undone, they hold again. */
    const breaks = async (change: () => Promise<unknown>, undo: () => Promise<unknown>) => {
      await change();
      expect(await checked()).toBe(false);
      await undo();
      expect(await checked()).toBe(true);
    };
    expect(await checked()).toBe(true);
    const workspace = { where: { id: ids.workspace } };
    await breaks(() => db.workspace.update({ ...workspace, data: { agentBurst: { increment: 1 } } }), () => db.workspace.update({ ...workspace, data: { agentBurst: { decrement: 1 } } }));
    const ada = { where: { id: ids.author } };
    await breaks(() => db.participant.update({ ...ada, data: { displayName: "Ada L." } }), () => db.participant.update({ ...ada, data: { displayName: "Ada" } }));
    await breaks(() => db.participant.update({ ...ada, data: { messagesPerMinute: 5 } }), () => db.participant.update({ ...ada, data: { messagesPerMinute: null } }));
    const membership = (participantId: string) => ({ where: { roomId_participantId: { roomId: ids.room, participantId } } });
    await breaks(() => db.roomMember.update({ ...membership(ids.author), data: { role: "owner" } }), () => db.roomMember.update({ ...membership(ids.author), data: { role: author.role } }));
    await breaks(() => db.room.update({ where: { id: ids.room }, data: { agentsPausedAt: new Date(Date.now() + 1000) } }), () => db.room.update({ where: { id: ids.room }, data: { agentsPausedAt: read.room!.agentsPausedAt } }));
    // An agent that starts listening for mentions is one the batch did not count on, until it does.
    await db.roomMember.update({ ...membership("p2"), data: { deliveryMode: "mentions" } });
    expect(await checked()).toBe(false);
    expect(await checked({ listeners: ["p2"] })).toBe(true);
    await db.roomMember.update({ ...membership("p2"), data: { deliveryMode: "all" } });
    expect(await checked({ listeners: ["p2"] })).toBe(false);
    // A send already stored is a retry, answered from a read: not stored again.
    expect(await checked({}, "checked-1")).toBe(false);
    // An author who left is no member to post.
    await breaks(() => db.roomMember.delete(membership(ids.author)), () => db.roomMember.create({ data: { roomId: ids.room, participantId: ids.author, role: author.role } }));
  });

  /** The plan nodes PostgreSQL's generic plan for `statement` has, as the send path's pool plans it (whatever the values). */
  async function genericPlan(statement: Prisma.Sql) {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query("SET plan_cache_mode = force_generic_plan");
      await client.query(`PREPARE planned AS ${statement.text}`);
      // EXPLAIN takes no parameters: the values go in as literals, in the driver's text form.
      const element = (x: unknown) => (x === null ? "NULL" : `"${String(pgValue(x)).replace(/[\\"]/g, (c) => `\\${c}`)}"`);
      const text = (v: unknown) => (Array.isArray(v) ? `{${v.map(element).join(",")}}` : String(pgValue(v)));
      const literal = (v: unknown) => (v === null || v === undefined ? "NULL" : client.escapeLiteral(text(v)));
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) EXECUTE planned(${statement.values.map(literal).join(", ")})`);
      const nodes: { "Node Type": string; "Relation Name"?: string; "Index Name"?: string }[] = [];
      const walk = (n: Record<string, unknown>) => {
        nodes.push(n as never);
        for (const child of (n.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk((rows[0]["QUERY PLAN"] as { Plan: Record<string, unknown> }[])[0].Plan);
      return nodes;
    } finally {
      await client.end();
    }
  }
  /** The statements `fn` runs, not run. */
  async function statementsOf(fn: (q: DirectTx) => Promise<unknown>): Promise<Prisma.Sql[]> {
    const seen: Prisma.Sql[] = [];
    const capture: DirectTx = { dialect: "postgresql", query: async (s) => (seen.push(s), [{ moved: 1 }] as never), execute: async () => 0 };
    await fn(capture).catch(() => undefined);
    return seen;
  }

  it.runIf(dialect === "postgresql")("plans the send path's read and checked write generically as key lookups: the room by its id, no scan of Message", async () => {
    const read = await directStatements((q) => batchFacts(q, ids.room, [{ authorId: ids.author, clientMsgId: "plan" }]));
    const seq = await lastSeq();
    const checks: FactChecks = { room: read.room!, workspace: read.workspace!, authors: read.members.filter((m) => m.participantId === ids.author), listeners: [], sends: [{ authorId: ids.author, clientMsgId: "plan" }] };
    const mentions = [{ messageId: "m-plan", participantId: "p2", roomId: ids.room, seq: seq + 1 }];
    const statements = [
      ...(await statementsOf((q) => batchFacts(q, ids.room, [{ authorId: ids.author, clientMsgId: "plan" }]))),
      ...(await statementsOf((q) => storeBatch(q, batch([message(seq + 1, "plan")], { checks, mentions })))),
    ];
    expect(statements).toHaveLength(2);
    for (const statement of statements) {
      const nodes = await genericPlan(statement);
      expect(nodes.filter((n) => n["Relation Name"] === "Message" && n["Node Type"] === "Seq Scan")).toEqual([]);
      expect(nodes.filter((n) => n["Relation Name"] === "Room" && n["Node Type"] !== "ModifyTable").map((n) => n["Index Name"])).toEqual(["Room_pkey"]);
    }
  });

  it.runIf(dialect === "postgresql")("runs the hot path's statements outside transactions on generic plans", async () => {
    const [setting] = await directStatements((q) => q.query<{ plan_cache_mode: string }>(Prisma.sql`SHOW plan_cache_mode`));
    expect(setting.plan_cache_mode).toBe("force_generic_plan");
    // Prisma's own queries are planned as PostgreSQL chooses.
    const [prisma] = await getDb().$queryRawUnsafe<{ plan_cache_mode: string }[]>("SHOW plan_cache_mode");
    expect(prisma.plan_cache_mode).toBe("auto");
  });

  it.runIf(dialect === "postgresql")("prepares a batch's statements once per connection on PostgreSQL, whatever the batch's size", async () => {
    const names = await directTransaction(async (tx) => {
      await batchFacts(tx, ids.room, [{ authorId: ids.author, clientMsgId: "a" }]);
      await batchFacts(tx, ids.room, [{ authorId: ids.author, clientMsgId: "b" }, { authorId: "p2", clientMsgId: "c" }]);
      return tx.query<{ name: string }>(Prisma.sql`SELECT "name" FROM pg_prepared_statements WHERE "statement" LIKE '%AS "roomKind"%'`);
    });
    expect(names).toEqual([{ name: expect.stringMatching(/^sb_/) }]);
  });
});
