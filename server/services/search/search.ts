// Message search over what the searcher may read: the rooms it is a member of and, for anyone but a
// guest, the workspace's public channels and those shared with it (the `room.read` rule, read in one
// query). The words go to
// each database's full-text index, kept by the database in the same transaction as every write
// (prisma/migrations/*/..._message_search): SQLite's FTS5 (porter stemming) ranked by bm25,
// PostgreSQL's tsvector ('english') ranked by ts_rank_cd. Operators narrow it in the same query;
// a query of operators alone lists the newest messages they select. A page is `limit` hits after an
// offset (the cursor).
import type { MessageView, SearchResult } from "@switchboard/sdk/contract";
import { highlightsIn, parseSearchQuery, SearchQueryError, type ParsedQuery, type searchMessagesInput } from "@switchboard/sdk/search";
import type { z } from "zod";
import { getDb, isPostgres, currentUrl, Prisma, sqlTable } from "../../db";
import { AppError } from "../../errors";
import { authorize, type Actor } from "../../policies";
import { sqliteDateTime } from "../../sqlite-time";
import { loadRoomFor } from "../access/rooms";
import { roomViews, withMemberCount } from "../access/views";
import { presentedMessages } from "../messaging/reads";
import { resolveParticipant, resolveRoom } from "../rooms/references";
import { sharedNowWith } from "../workspace-connections/links";

export async function searchMessages(actor: Actor, input: z.output<typeof searchMessagesInput>): Promise<SearchResult> {
  let query: ParsedQuery;
  try {
    query = parseSearchQuery(input.query);
  } catch (error) {
    if (error instanceof SearchQueryError) throw new AppError("INVALID_PAYLOAD", `query: ${error.message}`);
    throw error;
  }
  const text = query.words.length + query.phrases.length > 0;
  if (!text && query.excluded.length > 0) throw new AppError("INVALID_PAYLOAD", "query: say what to find, not only what to leave out");
  const filtered =
    query.in || query.from || query.mentionsMe || query.isThread || query.hasLink || query.hasReaction || query.hasFile || query.before || query.after;
  if (!text && !filtered)
    throw new AppError("INVALID_PAYLOAD", 'query: no words to search for (words as common as "the" find nothing: add a more specific one)');

  const roomIds = query.in ? [await roomNamed(actor, query.in)] : await readableRooms(actor);
  const offset = Number(input.cursor ?? 0);
  if (roomIds.length === 0) return { hits: [], nextCursor: null };
  const authorId = query.from === "me" ? actor.participantId : query.from ? await resolveParticipant(actor, query.from) : null;

  const filters: Prisma.Sql[] = [
    Prisma.sql`m."roomId" IN (${Prisma.join(roomIds)})`,
    Prisma.sql`m."deletedAt" IS NULL`,
    Prisma.sql`m."kind" IN ('text', 'question')`,
  ];
  if (authorId) filters.push(Prisma.sql`m."authorId" = ${authorId}`);
  if (query.isThread) filters.push(Prisma.sql`m."threadRootId" IS NOT NULL`);
  if (query.hasLink) filters.push(Prisma.sql`(m."body" LIKE '%http://%' OR m."body" LIKE '%https://%')`);
  if (query.hasFile) filters.push(Prisma.sql`EXISTS (SELECT 1 FROM ${table("StoredFile")} f WHERE f."messageId" = m."id" AND f."deletedAt" IS NULL)`);
  if (query.hasReaction) filters.push(Prisma.sql`EXISTS (SELECT 1 FROM ${table("Reaction")} r WHERE r."messageId" = m."id")`);
  if (query.mentionsMe)
    filters.push(
      Prisma.sql`EXISTS (SELECT 1 FROM ${table("MessageMention")} mm WHERE mm."messageId" = m."id" AND mm."participantId" = ${actor.participantId})`,
    );
  const postgres = isPostgres(currentUrl());
  const at = (d: Date) => (postgres ? Prisma.sql`${d}` : Prisma.sql`${sqliteDateTime(d)}`);
  if (query.before) filters.push(Prisma.sql`m."createdAt" < ${at(query.before)}`);
  if (query.after) filters.push(Prisma.sql`m."createdAt" >= ${at(query.after)}`);
  const where = Prisma.join(filters, " AND ");
  const page = Prisma.sql`LIMIT ${input.limit + 1} OFFSET ${offset}`;
  const newest = Prisma.sql`m."createdAt" DESC, m."id" DESC`;

  let rows: { id: string }[];
  if (!text) {
    rows = await getDb().$queryRaw`SELECT m."id" FROM ${table("Message")} m WHERE ${where} ORDER BY ${newest} ${page}`;
  } else if (postgres) {
    const tsquery = Prisma.sql`websearch_to_tsquery('english'::regconfig, ${websearchText(query)})`;
    const order = input.sort === "date" ? newest : Prisma.sql`ts_rank_cd(m."searchVector", ${tsquery}) DESC, ${newest}`;
    rows = await getDb().$queryRaw`SELECT m."id" FROM ${table("Message")} m WHERE m."searchVector" @@ ${tsquery} AND ${where} ORDER BY ${order} ${page}`;
  } else {
    const order = input.sort === "date" ? newest : Prisma.sql`bm25(${table("MessageSearch")}), ${newest}`;
    rows = await getDb().$queryRaw`
      SELECT m."id" FROM ${table("MessageSearch")} JOIN ${table("Message")} m ON m."rowid" = ${table("MessageSearch")}."rowid"
      WHERE ${table("MessageSearch")} MATCH ${fts5Text(query)} AND ${where} ORDER BY ${order} ${page}`;
  }

  const ids = rows.slice(0, input.limit).map((r) => r.id);
  const byId = new Map((await presentedMessages(ids)).map((m) => [m.id, m]));
  const found = ids.map((id) => byId.get(id)).filter((m): m is MessageView => !!m);
  const titles = await roomTitles(actor, [...new Set(found.map((m) => m.roomId))]);
  return {
    hits: found.map((message) => ({ message, room: titles.get(message.roomId)!, highlights: highlightsIn(message.body, query) })),
    nextCursor: rows.length > input.limit ? String(offset + input.limit) : null,
  };
}

const table = (name: string) => Prisma.raw(sqlTable(name));

/**
 * The rooms `room.read` lets the actor read, in one query: its memberships (a shared room of another
 * workspace among them: a membership across exists only while the two are connected), and, unless it
 * is a guest, its workspace's public channels and those another workspace shares with it now.
 */
async function readableRooms(actor: Actor): Promise<string[]> {
  const publicChannel = { kind: "channel" as const, visibility: "public" as const };
  const rooms = await getDb().room.findMany({
    where: {
      OR: [
        { members: { some: { participantId: actor.participantId } } },
        ...(actor.role === "guest"
          ? []
          : [
              { workspaceId: actor.workspaceId, ...publicChannel },
              { ...publicChannel, ...sharedNowWith(actor.workspaceId) },
            ]),
      ],
    },
    select: { id: true },
  });
  return rooms.map((r) => r.id);
}

/** in:#room (a room the actor may read), in:@handle (its direct conversation with them), or a room id. */
async function roomNamed(actor: Actor, ref: string): Promise<string> {
  let roomId: string;
  if (ref.startsWith("@")) {
    const other = await resolveParticipant(actor, ref);
    const directKey = [actor.participantId, other].sort().join(",");
    const room = await getDb().room.findUnique({ where: { workspaceId_directKey: { workspaceId: actor.workspaceId, directKey } }, select: { id: true } });
    if (!room) throw new AppError("ROOM_NOT_FOUND", `You have no conversation with ${ref}`);
    roomId = room.id;
  } else {
    roomId = await resolveRoom(actor, ref.startsWith("#") ? ref : `#${ref}`).catch(async (error: unknown) => {
      // Not a channel's name: a room id, as the other transports take them.
      if (ref.startsWith("#")) throw error;
      return ref;
    });
  }
  authorize(actor, "room.read", await loadRoomFor(actor, roomId));
  return roomId;
}

async function roomTitles(actor: Actor, roomIds: string[]): Promise<Map<string, SearchResult["hits"][number]["room"]>> {
  if (roomIds.length === 0) return new Map();
  const rooms = await getDb().room.findMany({ where: { id: { in: roomIds } }, include: withMemberCount });
  return new Map((await roomViews(rooms, actor.participantId)).map((r) => [r.id, { id: r.id, name: r.name, title: r.title, kind: r.kind }]));
}

/** FTS5's query: each word and phrase quoted (nothing the searcher typed is FTS5 syntax), all of them, none of the excluded. */
function fts5Text(query: ParsedQuery): string {
  const quoted = (s: string) => `"${s.replaceAll('"', '""')}"`;
  const wanted = [...query.words, ...query.phrases].map(quoted).join(" ");
  return query.excluded.length ? `${wanted} NOT (${query.excluded.map(quoted).join(" OR ")})` : wanted;
}

/** PostgreSQL's websearch_to_tsquery text: words, "phrases" and -words, which it reads safely whatever they hold. */
function websearchText(query: ParsedQuery): string {
  return [...query.words, ...query.phrases.map((p) => `"${p}"`), ...query.excluded.map((w) => `-"${w}"`)].join(" ");
}
