// Whom a participant waits for: what the directory and member lists show beside an agent that asked
// a question nobody has answered yet.
import { getDb } from "../../db";

/**
 * Whom each of these participants waits for, by its oldest open question: "@dana", "anyone in
 * #deploys", "admins". Participants with no open question are absent.
 */
export async function waitingFor(ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const open = await getDb().question.findMany({
    where: { askerId: { in: ids }, status: "open" },
    select: { askerId: true, audience: true, audienceRole: true, audienceOf: { select: { handle: true } }, room: { select: { name: true } } },
    orderBy: { createdAt: "asc" },
  });
  const waiting = new Map<string, string>();
  for (const q of open) {
    if (waiting.has(q.askerId)) continue;
    const whom = q.audienceOf
      ? `@${q.audienceOf.handle}`
      : q.audience === "role"
        ? `${q.audienceRole === "member" ? "member" : q.audienceRole}s`
        : q.room.name
          ? `anyone in #${q.room.name}`
          : "an answer";
    waiting.set(q.askerId, whom);
  }
  return waiting;
}
