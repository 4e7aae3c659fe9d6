// Finding a workspace's participants by what they are called or can do, in the database and a page
// at a time, for the directory (directory.ts) and the people pickers (workspaces.listParticipants).
// Text is looked for inside handles and display names (for the directory, in descriptions and
// capabilities too), in any case; names that start with it come first, then agents before people,
// each by handle. A capability matches whole, in any case. LIKE's wildcards in the text are plain
// characters. SQLite's lower() folds ASCII letters only, so there an accented capital matches itself.
import { env } from "../../env";
import { getDb, isPostgres, Prisma, sqlTable } from "../../db";

export interface ParticipantFilter {
  workspaceId: string;
  /**
   * Connected workspaces whose participants may be found too, each as far as its side allows: all of
   * them, one kind, or the listed ids (the directory; sdk/workspace-connections.ts).
   */
  alsoFrom?: { workspaceId: string; kind?: "human" | "agent"; ids?: string[] }[];
  text?: string;
  /** Where the text is looked for: the names (pickers), or the whole profile (the directory). */
  textIn: "names" | "profile";
  capability?: string;
  kind?: "human" | "agent";
  ownerId?: string;
}

/** The ids of the first `limit` participants that match, in the order above. */
export async function searchParticipants(filter: ParticipantFilter, limit: number): Promise<string[]> {
  const text = filter.text?.trim().toLowerCase() || undefined;
  const capability = filter.capability?.trim().toLowerCase() || undefined;
  const inside = text && `%${escapeLike(text)}%`;
  const starting = text && `${escapeLike(text)}%`;
  const like = (column: Prisma.Sql, pattern: string) => Prisma.sql`lower(${column}) LIKE ${pattern} ESCAPE '\\'`;
  const handle = Prisma.sql`"p"."handle"`;
  const name = Prisma.sql`"p"."displayName"`;

  const scopes = [Prisma.sql`"p"."workspaceId" = ${filter.workspaceId}`];
  for (const other of filter.alsoFrom ?? []) {
    const scope = [Prisma.sql`"p"."workspaceId" = ${other.workspaceId}`];
    if (other.kind) scope.push(Prisma.sql`"p"."kind" = ${other.kind}`);
    if (other.ids) scope.push(other.ids.length ? Prisma.sql`"p"."id" IN (${Prisma.join(other.ids)})` : Prisma.sql`1 = 0`);
    scopes.push(Prisma.sql`(${Prisma.join(scope, " AND ")})`);
  }
  const conditions = [scopes.length === 1 ? scopes[0] : Prisma.sql`(${Prisma.join(scopes, " OR ")})`];
  if (filter.kind) conditions.push(Prisma.sql`"p"."kind" = ${filter.kind}`);
  if (filter.ownerId) conditions.push(Prisma.sql`"p"."ownerId" = ${filter.ownerId}`);
  if (capability) conditions.push(anyCapability((c) => Prisma.sql`lower(${c}) = ${capability}`));
  if (inside) {
    const where = [like(handle, inside), like(name, inside)];
    if (filter.textIn === "profile")
      where.push(
        like(Prisma.sql`"p"."description"`, inside),
        anyCapability((c) => like(c, inside)),
      );
    conditions.push(Prisma.sql`(${Prisma.join(where, " OR ")})`);
  }
  const first = starting ? Prisma.sql`CASE WHEN ${like(handle, starting)} OR ${like(name, starting)} THEN 0 ELSE 1 END, ` : Prisma.empty;
  const rows = await getDb().$queryRaw<{ id: string }[]>`
    SELECT "p"."id" FROM ${Prisma.raw(sqlTable("Participant"))} AS "p"
    WHERE ${Prisma.join(conditions, " AND ")}
    ORDER BY ${first}"p"."kind", "p"."handle"
    LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

/** Rows read by id, put in the order of `ids` (the search's). */
export function inOrder<T extends { id: string }>(ids: string[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Some element of the participant's capabilities (a JSON array of strings) satisfies `test`. */
function anyCapability(test: (element: Prisma.Sql) => Prisma.Sql): Prisma.Sql {
  if (isPostgres(env.DATABASE_URL)) {
    const array = Prisma.sql`CASE WHEN jsonb_typeof("p"."capabilities") = 'array' THEN "p"."capabilities" ELSE '[]'::jsonb END`;
    return Prisma.sql`EXISTS (SELECT 1 FROM jsonb_array_elements_text(${array}) AS "c"("value") WHERE ${test(Prisma.sql`"c"."value"`)})`;
  }
  return Prisma.sql`EXISTS (SELECT 1 FROM json_each("p"."capabilities") AS "c" WHERE "c"."type" = 'text' AND ${test(Prisma.sql`"c"."value"`)})`;
}
