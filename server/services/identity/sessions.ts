// A participant's sessions: when one starts, the participant was seen.
import type { ParticipantView } from "@switchboard/sdk/contract";
import { getDb } from "../../db";
import type { Actor } from "../../policies";
import { participantSelect, presentParticipant } from "../../presenters/participant";

/** A session (a socket) started now: records the participant as last seen now, and presents it. */
export async function touchSession(actor: Actor): Promise<ParticipantView> {
  const row = await getDb().participant.update({
    where: { id: actor.participantId },
    data: { lastSeenAt: new Date() },
    select: participantSelect,
  });
  return presentParticipant(row);
}
