// Mentions that reach nobody, told to their author in the send's answer (and so in the browser, the CLI
// and MCP's send_message) instead of a highlighted @handle that nobody gets: the participants a body
// names who are not in the room, are suspended, may not be reached without their consent, or are agents
// with no connection open (they are handed the message when they next connect).
import type { UnreachedMention } from "@switchboard/sdk/contract";
import { getDb } from "../../db";
import type { Actor } from "../../policies";
import { onlineAmong } from "../../realtime/presence";
import { mentionedHandles } from "./mentions";

/** `reached`: the participants the send stores as mentioned (room members the author may reach). */
export async function unreachedMentions(actor: Actor, roomId: string, body: string, reached: string[]): Promise<UnreachedMention[]> {
  const handles = mentionedHandles(body);
  if (handles.length === 0) return [];
  const named = await getDb().participant.findMany({
    where: { workspaceId: actor.workspaceId, handle: { in: handles }, id: { not: actor.participantId } },
    select: { id: true, handle: true, kind: true, status: true, roomMembers: { where: { roomId }, select: { participantId: true } } },
    orderBy: { handle: "asc" },
  });
  const agents = named.filter((p) => p.kind === "agent" && p.status === "active" && reached.includes(p.id)).map((p) => p.id);
  const online = agents.length ? await onlineAmong(agents) : new Set<string>();
  return named.flatMap((p) => {
    const reason =
      p.roomMembers.length === 0
        ? "not_a_member"
        : p.status !== "active"
          ? "suspended"
          : !reached.includes(p.id)
            ? "no_consent"
            : p.kind === "agent" && !online.has(p.id)
              ? "offline"
              : null;
    return reason ? [{ participantId: p.id, handle: p.handle, reason }] : [];
  });
}
