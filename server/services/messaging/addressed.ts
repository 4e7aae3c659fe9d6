// What is addressed to a member in `mentions` mode (an agent that takes only what concerns it): one
// rule for live delivery (delivery.fanOut) and for replay and selected sync (delivery.selectPage), so
// the two cannot disagree.
//
// A message is addressed to a member who did not write it when the room is a dm or group, when it
// mentions the member, or when it is a reply in a thread the member was in by then: the member wrote
// the thread's root or an earlier reply, or is mentioned in one of them. "By then" (by seq) makes the
// answer the same whenever it is asked: live, or in a replay long after.
import { getDb, Prisma, sqlTable } from "../../db";

/** What the rule reads of a message. `mentions`: at least whether it mentions the participants asked about. */
export interface Addressable {
  roomId: string;
  seq: number;
  authorId: string;
  threadRootId: string | null;
  mentions: readonly string[];
}

export type IsAddressed = (message: Addressable, participantId: string) => boolean;

/**
 * The rule for some messages of one room (of `roomKind`) and some of its members: the facts it needs
 * are read first, at most one row per thread and member asked about, however long the threads.
 */
export async function addressing(roomKind: string, messages: Addressable[], participantIds: string[]): Promise<IsAddressed> {
  const roots = roomKind === "channel" ? [...new Set(messages.flatMap((m) => (m.threadRootId ? [m.threadRootId] : [])))] : [];
  const joined = await threadMembers(messages[0]?.roomId, roots, participantIds);
  return (message, participantId) =>
    message.authorId !== participantId &&
    (roomKind !== "channel" ||
      message.mentions.includes(participantId) ||
      (message.threadRootId !== null && (joined.get(pair(message.threadRootId, participantId)) ?? Infinity) < message.seq));
}

const pair = (rootId: string, participantId: string) => `${rootId} ${participantId}`;

/**
 * For the threads `rootIds` (of one room) and the participants asked about, the seq at which each
 * participant came into each thread (its first message there, or first mention), by pair.
 */
async function threadMembers(roomId: string | undefined, rootIds: string[], participantIds: string[]): Promise<Map<string, number>> {
  if (!roomId || rootIds.length === 0 || participantIds.length === 0) return new Map();
  const table = (name: string) => Prisma.raw(sqlTable(name));
  const roots = Prisma.join(rootIds);
  const members = Prisma.join(participantIds);
  // The database walks each thread by its index; one row per thread and participant comes back.
  const rows = await getDb().$queryRaw<{ rootId: string; participantId: string; since: number | bigint }[]>`
    SELECT "rootId", "participantId", MIN("seq") AS "since" FROM (
      SELECT COALESCE("m"."threadRootId", "m"."id") AS "rootId", "m"."authorId" AS "participantId", "m"."seq"
      FROM ${table("Message")} AS "m"
      WHERE ("m"."id" IN (${roots}) OR "m"."threadRootId" IN (${roots})) AND "m"."authorId" IN (${members})
      UNION ALL
      SELECT COALESCE("m"."threadRootId", "m"."id"), "x"."participantId", "m"."seq"
      FROM ${table("MessageMention")} AS "x" JOIN ${table("Message")} AS "m" ON "m"."id" = "x"."messageId"
      WHERE "x"."roomId" = ${roomId} AND "x"."participantId" IN (${members})
        AND ("m"."id" IN (${roots}) OR "m"."threadRootId" IN (${roots}))
    ) AS "inThread"
    GROUP BY "rootId", "participantId"`;
  return new Map(rows.map((r) => [pair(r.rootId, r.participantId), Number(r.since)]));
}
