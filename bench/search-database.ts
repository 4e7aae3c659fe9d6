// What bench/search.ts reads from the database itself, beside the timed API calls: how many messages a
// query selects among the searcher's readable rooms (to say what each timing ranks or sorts), and how
// much room the messages and their full-text index take.
import { parseSearchQuery, type SearchMessagesInput } from "@switchboard/sdk/search";
import type { Dialect } from "../tests/integration/harness";
import type { Bulk } from "./bulk-insert";

export interface SearchWorld {
  /** Channel names to ids (in:#name). */
  roomsByName: Map<string, string>;
  /** The rooms the searcher may read. */
  readable: Set<string>;
  /** Handles to ids (from:@handle). */
  authors: Map<string, string>;
}

export interface DatabaseSize {
  databaseBytes: number;
  /** The Message table and its b-tree indexes (on PostgreSQL, with the tsvector column it stores). */
  messageBytes: number;
  /** SQLite: the FTS5 table's shadow tables; PostgreSQL: the GIN index. */
  searchIndexBytes: number;
  /** PostgreSQL: the generated tsvector column, inside the Message table. */
  searchColumnBytes: number | null;
}

/**
 * How many messages of the readable rooms (of the room in:, by the author from:) the query's words
 * select: the rows the server's statement ranks or sorts before it takes a page. Its words go to the
 * index as services/search/search.ts writes them.
 */
export async function countMatches(bulk: Bulk, dialect: Dialect, input: SearchMessagesInput, world: SearchWorld): Promise<number> {
  const query = parseSearchQuery(input.query);
  // Parameters numbered in the order they appear: SQLite's are positional.
  const params: unknown[] = [];
  const param = (v: unknown) => `$${params.push(v)}`;
  const text = query.words.length + query.phrases.length > 0;
  let match = "";
  if (text && dialect === "postgresql") match = `m."searchVector" @@ websearch_to_tsquery('english'::regconfig, ${param(websearchText(query))}) AND `;
  else if (text) match = `"MessageSearch" MATCH ${param(fts5Text(query))} AND `;
  const rooms = query.in ? [world.roomsByName.get(query.in.replace(/^#/, ""))!] : [...world.readable];
  const filters = [`m."roomId" IN (${rooms.map((r) => param(r)).join(",")})`, `m."deletedAt" IS NULL`, `m."kind" IN ('text', 'question')`];
  if (query.from) filters.push(`m."authorId" = ${param(world.authors.get(query.from.replace(/^@/, "")))}`);
  const from = text && dialect === "sqlite" ? `"MessageSearch" JOIN "Message" m ON m."rowid" = "MessageSearch"."rowid"` : `"Message" m`;
  const sql = `SELECT count(*) AS n FROM ${from} WHERE ${match}${filters.join(" AND ")}`;
  const [row] = await bulk.query<{ n: number | string }>(sql, params);
  return Number(row.n);
}

/** The messages the searcher may find (text and questions of the readable rooms). */
export async function countReadable(bulk: Bulk, world: SearchWorld): Promise<number> {
  const rooms = [...world.readable];
  const [row] = await bulk.query<{ n: number | string }>(
    `SELECT count(*) AS n FROM "Message" m WHERE m."roomId" IN (${rooms.map((_, i) => `$${i + 1}`).join(",")}) AND m."deletedAt" IS NULL AND m."kind" IN ('text', 'question')`,
    rooms,
  );
  return Number(row.n);
}

type Parsed = ReturnType<typeof parseSearchQuery>;

function fts5Text(query: Parsed): string {
  const quoted = (s: string) => `"${s.replaceAll('"', '""')}"`;
  const wanted = [...query.words, ...query.phrases].map(quoted).join(" ");
  return query.excluded.length ? `${wanted} NOT (${query.excluded.map(quoted).join(" OR ")})` : wanted;
}

function websearchText(query: Parsed): string {
  return [...query.words, ...query.phrases.map((p) => `"${p}"`), ...query.excluded.map((w) => `-"${w}"`)].join(" ");
}

export async function databaseSize(bulk: Bulk, dialect: Dialect): Promise<DatabaseSize> {
  if (dialect === "sqlite") {
    const [{ bytes }] = await bulk.query<{ bytes: number }>(`SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()`);
    const objects = await bulk.query<{ name: string; bytes: number }>(`SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name`);
    const message = new Set(
      (await bulk.query<{ name: string }>(`SELECT name FROM sqlite_master WHERE tbl_name = 'Message' AND type IN ('table', 'index')`)).map((r) => r.name),
    );
    const sum = (keep: (name: string) => boolean) => objects.filter((o) => keep(o.name)).reduce((s, o) => s + Number(o.bytes), 0);
    return {
      databaseBytes: Number(bytes),
      messageBytes: sum((n) => message.has(n)),
      searchIndexBytes: sum((n) => n.startsWith("MessageSearch")),
      searchColumnBytes: null,
    };
  }
  const [row] = await bulk.query<Record<string, string>>(
    `SELECT (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = current_schema() AND c.relkind = 'r') AS database,
            pg_total_relation_size('"Message"') - pg_relation_size('"Message_searchVector_idx"') AS message,
            pg_relation_size('"Message_searchVector_idx"') AS index,
            (SELECT sum(pg_column_size("searchVector")) FROM "Message") AS "column"`,
  );
  return {
    databaseBytes: Number(row.database),
    messageBytes: Number(row.message),
    searchIndexBytes: Number(row.index),
    searchColumnBytes: Number(row.column),
  };
}
