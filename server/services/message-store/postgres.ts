// The message store on PostgreSQL: its dialect and how its statements run, the send path's on a pg pool
// of its own (server/db.ts `sendPool`), its pages on another (`readPool`).
// Every statement is a named prepared statement (parsed and planned once per connection, which was most
// of a small statement's cost) whose text does not depend on how many values it carries: lists go in as
// one array parameter each (`unnest`, `= ANY`), so a batch of 200 messages runs the same statement as a
// batch of one. Each row of a growing table is found by a unique key, so the generic plans stay index
// lookups. A batch is stored by one statement of data-modifying CTEs, committing on its own.
import { createHash } from "node:crypto";
import type pg from "pg";
import { Prisma, readPool, sendPool, sqlType } from "../../db";
import { columnsOf, query, rowsOf, table, type Run, type SqlDialect, type SqlType } from "./dialect";
import { whileHeld } from "./hold-limit";
import { activeAgents, batchFacts, batchWrites, factsReader, holdAgents, holdRoom, moveRoom, roomRange } from "./statements";
import type { BatchWrite, MessageStore, SendKey } from "./types";

/** A timestamp as PostgreSQL's text, in UTC (how Prisma stores DateTime; pg would send a Date in local time). */
const timestampText = (at: Date) => at.toISOString().slice(0, 23).replace("T", " ");

/** One column of values as one array parameter, cast to its type. */
function array(values: unknown[], type: SqlType): Prisma.Sql {
  if (type === "timestamp") return Prisma.sql`CAST(${values.map((v) => (v instanceof Date ? timestampText(v) : v))} AS TIMESTAMP(3)[])`;
  if (typeof type === "object") return Prisma.sql`CAST(${values} AS ${Prisma.raw(sqlType(type.enum))}[])`;
  return Prisma.sql`CAST(${values} AS ${Prisma.raw(type === "text" ? "TEXT[]" : type === "integer" ? "INTEGER[]" : "JSONB[]")})`;
}

export const postgresDialect: SqlDialect = {
  inList: (column, values) => Prisma.sql`${column} = ANY(${array([...values], "text")})`,
  values: ({ alias, columns, rows }) => ({
    from: Prisma.sql`unnest(${Prisma.join(
      columns.map(([, type], i) =>
        array(
          rows.map((row) => row[i]),
          type,
        ),
      ),
      ", ",
    )}) AS ${Prisma.raw(`"${alias}"(${columns.map(([name]) => `"${name}"`).join(", ")})`)}`,
    col: columnsOf(alias, columns),
  }),
  storedUnder: (pairs) =>
    Prisma.sql`unnest(${array(
      pairs.map(([a]) => a),
      "text",
    )}, ${array(
      pairs.map(([, c]) => c),
      "text",
    )}) AS k("authorId", "clientMsgId")
      CROSS JOIN LATERAL (SELECT "id" FROM ${table("Message")} WHERE "authorId" = k."authorId" AND "clientMsgId" = k."clientMsgId" LIMIT 1) s`,
  timestamp: (at) => Prisma.sql`CAST(${at && timestampText(at)} AS TIMESTAMP(3))`,
  // pg parses timestamps (as UTC: db.ts), booleans and JSONB itself.
  decode: { date: (value) => value as Date | null, bool: (value) => value as boolean, json: (value) => value },
};

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

const names = new Map<string, string>();
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `sb_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`));
  return name;
}

/** Statements on `q`, each as a named prepared statement. */
const on =
  (q: Queryable): Run =>
  async (statement) =>
    (await q.query({ name: nameOf(statement.text), text: statement.text, values: statement.values })).rows;

/** The one read a batch is decided on, as the send pool runs it. */
export const batchFactsStatement = (roomId: string, sends: SendKey[], mentioned: string[] = []): Prisma.Sql =>
  batchFacts(postgresDialect, roomId, sends, mentioned).sql;

/**
 * The whole batch as one statement of data-modifying CTEs. Each write happens only if "roomMoved" did:
 * the room was still at `afterSeq` and not archived, and (when the batch has agent authors) every one
 * of them was held active first. "agentsHeld" is read by roomMoved's condition, so PostgreSQL takes
 * the agents' rows before the room's: the order `holding` takes them in too.
 */
export function storeStatement(w: BatchWrite): Prisma.Sql {
  const ctes: Prisma.Sql[] = [];
  let agentsHeld = Prisma.empty;
  if (w.agents.length) {
    ctes.push(Prisma.sql`"agentsHeld" AS (${holdAgents(postgresDialect, w.agents, w.at)} RETURNING 1)`);
    agentsHeld = Prisma.sql` AND (SELECT COUNT(*) FROM "agentsHeld") = ${w.agents.length}`;
  }
  ctes.push(Prisma.sql`"roomMoved" AS (${moveRoom(postgresDialect, w, agentsHeld)} RETURNING 1)`);
  for (const [name, statement] of batchWrites(postgresDialect, w, Prisma.sql`EXISTS (SELECT 1 FROM "roomMoved")`))
    ctes.push(Prisma.sql`${Prisma.raw(`"${name}"`)} AS (${statement})`);
  return Prisma.sql`WITH ${Prisma.join(ctes, ", ")} SELECT COUNT(*) AS "moved" FROM "roomMoved"`;
}

async function store(q: Queryable, w: BatchWrite): Promise<boolean> {
  const [row] = await rowsOf(postgresDialect, on(q), query<{ moved: number }>(storeStatement(w), { moved: "number" }));
  return row.moved === 1;
}

export function postgresStore(): MessageStore {
  return {
    dialect: "postgresql",
    batchFacts: (roomId, sends, mentioned) => factsReader(postgresDialect, on(sendPool())).batchFacts(roomId, sends, mentioned),
    agentRun: (roomId, since, limit) => factsReader(postgresDialect, on(sendPool())).agentRun(roomId, since, limit),

    // One statement, committed on its own: one round trip, the room row locked only while it runs.
    storeIfUnchanged: (write) => store(sendPool(), write),

    async holding(roomId, agentIds, fn) {
      const client = await sendPool().connect();
      try {
        await client.query("BEGIN");
        const active = agentIds.length ? await rowsOf(postgresDialect, on(client), activeAgents(postgresDialect, agentIds, new Date())) : [];
        await on(client)(holdRoom(roomId));
        // Nothing else moves the room while it is held.
        const result = await whileHeld(
          factsReader(postgresDialect, on(client)),
          active.map((a) => a.id),
          (write) => store(client, write),
          fn,
        );
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined); // the connection may be gone already
        throw error;
      } finally {
        client.release();
      }
    },

    roomRange: (roomId, afterSeq, throughSeq, limit) => roomRange(postgresDialect, on(readPool()), roomId, afterSeq, throughSeq, limit),
  };
}
