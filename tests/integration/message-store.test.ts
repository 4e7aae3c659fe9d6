// The message store's contract (server/services/message-store/), held against both implementations on
// real databases: what a batch reads, what it stores and only when what it was decided on still holds,
// what it holds and in which order, and that what it writes reads back through Prisma exactly as Prisma
// would have written it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb, openDb, sendPool, type Prisma } from "../../server/db";
import { isUniqueViolation } from "../../server/errors";
import { migrate } from "../../server/migrate";
import { messageStore, type BatchWrite, type NewMention, type NewMessage } from "../../server/services/message-store";
import { batchFactsStatement, storeStatement } from "../../server/services/message-store/postgres";
import { presentMessage } from "../../server/presenters/message";
import { findMessages, MAX_SEQ, presentedMessages, roomRange } from "../../server/services/messaging/reads";
import { dialects, dropPgSchema, PG_URL, withSchema } from "./harness";

describe.each(dialects)("the message store on %s", (dialect) => {
  const schema = `it_store_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const url = dialect === "sqlite" ? `file:${path.join(mkdtempSync(path.join(tmpdir(), "switchboard-store-")), "db.sqlite")}` : withSchema(PG_URL, schema);
  const ids = { workspace: "w1", author: "p1", agent: "p2", room: "r1" };
  const store = () => messageStore();

  beforeAll(async () => {
    await closeDb();
    await migrate(url);
    const db = openDb(url);
    await db.workspace.create({ data: { id: ids.workspace, name: "Store" } });
    await db.participant.create({ data: { id: ids.author, workspaceId: ids.workspace, kind: "human", handle: "ada", displayName: "Ada" } });
    await db.participant.create({
      data: { id: ids.agent, workspaceId: ids.workspace, kind: "agent", handle: "scout", displayName: "Scout", ownerId: ids.author },
    });
    await db.room.create({
      data: { id: ids.room, workspaceId: ids.workspace, kind: "channel", visibility: "public", name: "general", createdById: ids.author },
    });
    await db.roomMember.createMany({
      data: [
        { roomId: ids.room, participantId: ids.author },
        { roomId: ids.room, participantId: ids.agent, deliveryMode: "mentions" },
      ],
    });
  });

  afterAll(async () => {
    await closeDb();
    if (dialect === "postgresql") await dropPgSchema(schema);
  });

  let n = 0;
  const message = (seq: number, extra: Partial<NewMessage> = {}): NewMessage => {
    const clientMsgId = extra.clientMsgId ?? `c${++n}`;
    return {
      id: `m-${clientMsgId}`,
      roomId: ids.room,
      seq,
      authorId: ids.author,
      kind: "text",
      body: `body ${clientMsgId}`,
      clientMsgId,
      threadRootId: null,
      requesterId: ids.author,
      causeId: null,
      createdAt: new Date(),
      ...extra,
    };
  };
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
  const lastSeq = async () => (await getDb().room.findUniqueOrThrow({ where: { id: ids.room } })).lastSeq;
  const membership = (participantId: string) => getDb().roomMember.findUniqueOrThrow({ where: { roomId_participantId: { roomId: ids.room, participantId } } });

  it("reads what a batch depends on in one read: the room, the workspace's limits, the authors, the mentions-mode agents, the retries, the mentioned members", async () => {
    const first = message(1, { clientMsgId: "first" });
    expect(await store().storeIfUnchanged(batch([first]))).toBe(true);
    const facts = await store().batchFacts(
      ids.room,
      [
        { authorId: ids.author, clientMsgId: "first" },
        { authorId: ids.agent, clientMsgId: "first" }, // the same id by someone else is not a retry
        { authorId: ids.author, clientMsgId: "new" },
      ],
      [ids.agent, "not-a-member", ids.agent],
    );
    expect(facts.room).toEqual({
      id: ids.room,
      workspaceId: ids.workspace,
      kind: "channel",
      visibility: "public",
      lastSeq: 1,
      agentsPausedAt: null,
      archivedAt: null,
    });
    expect(facts.workspace).toEqual({
      agentMessagesPerMinute: 60,
      agentBurst: 20,
      peopleMessagesPerMinute: 60,
      peopleBurst: 30,
      loopGuardMessages: 30,
      loopGuardWindowSec: 300,
    });
    expect(facts.storedIds).toEqual(["m-first"]);
    expect(facts.mentionable).toEqual([ids.agent]); // of those the sends mention, the room's members, once each
    const byId = new Map(facts.members.map((m) => [m.participantId, m]));
    expect(byId.get(ids.author)).toEqual({
      participantId: ids.author,
      role: "member",
      deliveryMode: "all",
      participant: {
        id: ids.author,
        handle: "ada",
        displayName: "Ada",
        kind: "human",
        status: "active",
        messagesPerMinute: null,
        burst: null,
        rateLimitExempt: false,
      },
    });
    expect(byId.get(ids.agent)?.deliveryMode).toBe("mentions"); // a listener, though not an author
    expect(await store().batchFacts("no-such-room", [{ authorId: ids.author, clientMsgId: "x" }], [ids.agent])).toEqual({
      room: null,
      workspace: null,
      members: [],
      storedIds: [],
      mentionable: [],
    });
  });

  it("stores a batch with its mentions, read cursors, replies and pause, exactly as Prisma reads it back", async () => {
    const db = getDb();
    const seq = await lastSeq();
    const at = new Date("2026-11-30T08:00:00.123Z");
    // Text that array parameters must carry exactly: quotes, backslashes, braces, commas, NULL, emoji.
    const body = `say "hi" \\ {a,b} 'x' NULL ∑ 😀`;
    const data = { type: "note", text: `"{x}" \\ ,` };
    // A thread's root is stored before any reply to it (a client learns its id from its ack).
    expect(await store().storeIfUnchanged(batch([message(seq + 1, { clientMsgId: "root", createdAt: at })]))).toBe(true);
    const reply = message(seq + 2, { clientMsgId: "reply", threadRootId: "m-root", body, data, createdAt: at });
    const second = message(seq + 3, { clientMsgId: "second", createdAt: at });
    const mentions: NewMention[] = [{ messageId: "m-reply", participantId: ids.agent, roomId: ids.room, seq: seq + 2 }];
    const before = await membership(ids.author);
    expect(await store().storeIfUnchanged(batch([reply, second], { mentions, replies: new Map([["m-root", 1]]), agentsPausedAt: at, at }))).toBe(true);

    expect(await lastSeq()).toBe(seq + 3);
    expect(await db.room.findUniqueOrThrow({ where: { id: ids.room } })).toMatchObject({ agentsPausedAt: at });
    expect(await db.message.findUniqueOrThrow({ where: { id: "m-reply" }, include: { mentions: true } })).toMatchObject({
      seq: seq + 2,
      body,
      data,
      threadRootId: "m-root",
      createdAt: at,
      mentions: [{ participantId: ids.agent, seq: seq + 2 }],
    });
    expect(await db.message.findUniqueOrThrow({ where: { id: "m-root" } })).toMatchObject({ replyCount: 1, lastReplyAt: at });
    // The author has read what it wrote; what it was delivered moves by its own acks alone.
    expect(await membership(ids.author)).toMatchObject({ readSeq: seq + 3, deliveredSeq: before.deliveredSeq });
    // Filters written by Prisma match values written here.
    const these = { roomId: ids.room, id: { in: ["m-root", "m-reply", "m-second"] } };
    expect(await db.message.count({ where: { ...these, createdAt: { gte: at } } })).toBe(3);
    expect(await db.message.count({ where: { ...these, createdAt: { gt: at } } })).toBe(0);
    await db.room.update({ where: { id: ids.room }, data: { agentsPausedAt: null } });
  });

  const nothingStored = async (clientMsgIds: string[], seq: number) => {
    expect(await lastSeq()).toBe(seq);
    expect(await getDb().message.count({ where: { clientMsgId: { in: clientMsgIds } } })).toBe(0);
  };

  it("stores nothing when the room moved, was archived, or an agent it counted on was suspended", async () => {
    const db = getDb();
    const seq = await lastSeq();
    // The room moved since the batch was decided (another process's batch, a member joining).
    expect(await store().storeIfUnchanged(batch([message(seq)], { afterSeq: seq - 1 }))).toBe(false);
    await nothingStored([`c${n}`], seq);

    await db.room.update({ where: { id: ids.room }, data: { archivedAt: new Date() } });
    expect(await store().storeIfUnchanged(batch([message(seq + 1, { clientMsgId: "archived" })]))).toBe(false);
    await nothingStored(["archived"], seq);
    await db.room.update({ where: { id: ids.room }, data: { archivedAt: null } });

    await db.participant.update({ where: { id: ids.agent }, data: { status: "suspended" } });
    const byAgent = batch([message(seq + 1, { clientMsgId: "agent-1", authorId: ids.agent })], { agents: [ids.agent] });
    expect(await store().storeIfUnchanged(byAgent)).toBe(false);
    await nothingStored(["agent-1"], seq);
    await db.participant.update({ where: { id: ids.agent }, data: { status: "active" } });
    expect(await store().storeIfUnchanged(byAgent)).toBe(true);
    expect(await lastSeq()).toBe(seq + 1);
  });

  it("holds the active agents and the room, stores inside, and leaves nothing behind when the work throws", async () => {
    const db = getDb();
    const seq = await lastSeq();
    await db.participant.update({ where: { id: ids.agent }, data: { status: "suspended" } });
    await expect(
      store().holding(ids.room, [ids.agent], async (held) => {
        expect(held.activeAgents).toEqual(new Set());
        await db.participant.update({ where: { id: ids.agent }, data: { status: "active" } }).catch(() => undefined);
        throw new Error("refused after looking");
      }),
    ).rejects.toThrow("refused after looking");
    await db.participant.update({ where: { id: ids.agent }, data: { status: "active" } });

    const stored = await store().holding(ids.room, [ids.agent], async (held) => {
      expect(held.activeAgents).toEqual(new Set([ids.agent]));
      const facts = await held.batchFacts(ids.room, [{ authorId: ids.agent, clientMsgId: "held" }], []);
      await held.store(batch([message(facts.room!.lastSeq + 1, { clientMsgId: "held", authorId: ids.agent })], { agents: [ids.agent] }));
      return facts.room!.lastSeq + 1;
    });
    expect(stored).toBe(seq + 1);
    expect(await lastSeq()).toBe(seq + 1);

    await expect(
      store().holding(ids.room, [], async (held) => {
        await held.store(batch([message(seq + 2, { clientMsgId: "doomed" })]));
        throw new Error("refused after writing");
      }),
    ).rejects.toThrow("refused after writing");
    await nothingStored(["doomed"], seq + 1);
  });

  it("reports a repeated clientMsgId as a unique violation, rolls back, and releases the room", async () => {
    const seq = await lastSeq();
    const error = await store()
      .holding(ids.room, [], (held) => held.store(batch([message(seq + 1, { id: "m-again", clientMsgId: "root" })])))
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    expect(await lastSeq()).toBe(seq);
    // The lock (SQLite) or the connection (PostgreSQL) went back: the next write runs.
    expect(await store().storeIfUnchanged(batch([message(seq + 1)]))).toBe(true);
  });

  it("reads when the agents' run since a person last spoke was written: the latest of them, oldest first", async () => {
    const seq = await lastSeq();
    const t = (s: number) => new Date(Date.UTC(2026, 11, 1, 12, 0, s));
    await store().storeIfUnchanged(
      batch([
        message(seq + 1, { authorId: ids.agent, createdAt: t(1) }),
        message(seq + 2, { createdAt: t(2) }), // a person: the run starts after this
        message(seq + 3, { authorId: ids.agent, createdAt: t(3) }),
        message(seq + 4, { authorId: ids.agent, createdAt: t(4), kind: "system" }), // not text: not counted
        message(seq + 5, { authorId: ids.agent, createdAt: t(5) }),
        message(seq + 6, { authorId: ids.agent, createdAt: t(6) }),
      ]),
    );
    expect(await store().agentRun(ids.room, t(0), 10)).toEqual([t(3), t(5), t(6)]);
    expect(await store().agentRun(ids.room, t(0), 2)).toEqual([t(5), t(6)]);
    expect(await store().agentRun(ids.room, t(4), 10)).toEqual([t(5), t(6)]);
  });

  it("reads a room's pages exactly as the Prisma reader does: mentions, receipts, threads, edits, deletions, data", async () => {
    const db = getDb();
    const seq = await lastSeq();
    await store().storeIfUnchanged(
      batch([message(seq + 1, { clientMsgId: "edited" }), message(seq + 2, { clientMsgId: "deleted", data: { type: "note", n: 1 } })], {
        mentions: [ids.author, ids.agent].map((participantId) => ({ messageId: "m-edited", participantId, roomId: ids.room, seq: seq + 1 })),
      }),
    );
    await db.messageReceipt.create({
      data: { messageId: "m-edited", participantId: ids.agent, roomId: ids.room, seq: seq + 1, state: "failed", reason: "no tool" },
    });
    await db.message.update({ where: { id: "m-edited" }, data: { body: "changed", editedAt: new Date() } });
    await db.message.update({ where: { id: "m-deleted" }, data: { deletedAt: new Date() } });
    // Reactions (read through their messages' room and seq) and a pin.
    await db.reaction.create({ data: { messageId: "m-edited", participantId: ids.agent, emoji: "👀", createdAt: new Date(Date.now() - 1000) } });
    await db.reaction.create({ data: { messageId: "m-edited", participantId: ids.author, emoji: "👀" } });
    await db.message.update({ where: { id: "m-edited" }, data: { pinnedAt: new Date(), pinnedById: ids.author } });

    const viaStore = await roomRange(ids.room, 0, MAX_SEQ, 1000);
    expect(viaStore).toEqual(await findMessages({ where: { roomId: ids.room }, orderBy: { seq: "asc" } }));
    expect(viaStore.find((m) => m.id === "m-edited")).toMatchObject({
      body: "changed",
      mentions: [ids.author, ids.agent].sort(),
      receipts: [{ participantId: ids.agent, state: "failed", reason: "no tool" }],
      reactions: [{ emoji: "👀", count: 2, participantIds: [ids.agent, ids.author] }],
      pinned: { byId: ids.author },
    });
    // By id: in the order asked, what has no message left out; the same views as a Prisma include presented them.
    const byId = await presentedMessages(["m-deleted", "no-such-message", "m-edited"]);
    expect(byId).toEqual(["m-deleted", "m-edited"].map((id) => viaStore.find((m) => m.id === id)));
    const included = await db.message.findMany({
      where: { id: { in: ["m-edited", "m-deleted"] } },
      orderBy: { seq: "desc" },
      include: {
        author: { select: { id: true, handle: true, displayName: true, kind: true } },
        mentions: { select: { participantId: true }, orderBy: { participantId: "asc" } },
        receipts: { select: { participantId: true, state: true, reason: true, updatedAt: true }, orderBy: { participantId: "asc" } },
        reactions: { select: { participantId: true, emoji: true }, orderBy: [{ createdAt: "asc" }, { participantId: "asc" }] },
      },
    });
    expect(included.map(presentMessage)).toEqual(byId);
    // Bounds and limits: (after, through], oldest first.
    expect((await roomRange(ids.room, seq, seq + 2, 1)).map((m) => m.seq)).toEqual([seq + 1]);
    expect(await roomRange(ids.room, seq + 2, MAX_SEQ, 10)).toEqual([]);
  });

  it.runIf(dialect === "postgresql")("runs on generic plans that find the room by its id and never scan Message", async () => {
    const [setting] = (await sendPool().query<{ plan_cache_mode: string }>("SHOW plan_cache_mode")).rows;
    expect(setting.plan_cache_mode).toBe("force_generic_plan");
    // Message as a workspace's table is: thousands of rows in other rooms, with statistics.
    const table = `"${schema}"."Message"`;
    await getDb().room.create({
      data: { id: "elsewhere", workspaceId: ids.workspace, kind: "channel", visibility: "public", name: "elsewhere", createdById: ids.author },
    });
    await sendPool().query(
      `INSERT INTO ${table} ("id", "roomId", "seq", "authorId", "kind", "body", "clientMsgId")
      SELECT 'bulk-' || i, 'elsewhere', i, $1, 'text', 'filler', 'bulk-' || i FROM generate_series(1, 20000) AS i`,
      [ids.author],
    );
    await sendPool().query(`ANALYZE ${table}`);
    const seq = await lastSeq();
    const statements = [
      batchFactsStatement(ids.room, [{ authorId: ids.author, clientMsgId: "plan" }]),
      storeStatement(
        batch([message(seq + 1, { clientMsgId: "plan", authorId: ids.agent, threadRootId: "m-root" })], {
          agents: [ids.agent],
          mentions: [{ messageId: "m-plan", participantId: ids.author, roomId: ids.room, seq: seq + 1 }],
          replies: new Map([["m-root", 1]]),
        }),
      ),
    ];
    for (const statement of statements) {
      const nodes = await genericPlan(statement);
      expect(nodes.filter((node) => node["Relation Name"] === "Message" && node["Node Type"] === "Seq Scan")).toEqual([]);
      expect(nodes.filter((node) => node["Relation Name"] === "Room" && node["Node Type"] !== "ModifyTable").map((node) => node["Index Name"])).toEqual([
        "Room_pkey",
      ]);
    }
  });

  /** The plan nodes of PostgreSQL's generic plan for `statement`, as the send pool plans it (whatever the values). */
  async function genericPlan(statement: Prisma.Sql) {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query("SET plan_cache_mode = force_generic_plan");
      await client.query(`PREPARE planned AS ${statement.text}`);
      // EXPLAIN takes no parameters: the values go in as literals, in the driver's text form.
      const element = (x: unknown) => (x === null ? "NULL" : `"${String(x).replace(/[\\"]/g, (c) => `\\${c}`)}"`);
      const text = (v: unknown) => (Array.isArray(v) ? `{${v.map(element).join(",")}}` : String(v));
      const literal = (v: unknown) => (v === null || v === undefined ? "NULL" : client.escapeLiteral(text(v)));
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) EXECUTE planned(${statement.values.map(literal).join(", ")})`);
      const nodes: { "Node Type": string; "Relation Name"?: string; "Index Name"?: string }[] = [];
      const walk = (node: Record<string, unknown>) => {
        nodes.push(node as never);
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk((rows[0]["QUERY PLAN"] as { Plan: Record<string, unknown> }[])[0].Plan);
      return nodes;
    } finally {
      await client.end();
    }
  }
});
