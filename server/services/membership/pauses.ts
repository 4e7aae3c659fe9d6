// Pausing an agent in one room (not the kill switch: its other rooms carry on). Paused, it is handed
// none of the room's messages: no live push, no replay (services/messaging/delivery.ts leaves paused
// memberships out), its sockets leave the room's audience; what comes meanwhile waits after its
// delivered cursor, in order. Resumed, it follows the room again and is handed what waited, by each
// process holding one of its sockets (realtime/resumes.ts), as after a reconnection. Who may: the same
// people who may stop its turns there (policy `agent.steer`). Audited; published as `agent:paused`.
import type { PauseView } from "@switchboard/sdk/turns";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { authorize, type Actor } from "../../policies";
import { audience, publish, subscribeToRoom, unsubscribeFromRoom, type Committed } from "../../realtime";
import { agentResumed } from "../../realtime/resumes";
import { roomWoke } from "../../realtime/wakeups";
import { transaction, TX_OPTIONS } from "../../transaction";
import { fanOutNew, followsWholeRoom } from "../messaging/delivery";
import { bumpRoomVersion } from "../messaging/room-version";
import { loadRoomFor } from "../access/rooms";
import { recordAudit } from "../governance/audit";

/** Pauses (or, with `paused: false`, resumes) `agentId` in `roomId`; doing it twice changes nothing. */
export async function setAgentPaused(actor: Actor, input: { roomId: string; agentId: string; paused: boolean }): Promise<PauseView | null> {
  const subject = await loadRoomFor(actor, input.roomId);
  authorize(actor, "room.read", subject);
  const member = await getDb().roomMember.findUnique({
    where: { roomId_participantId: { roomId: input.roomId, participantId: input.agentId } },
    include: { participant: { select: { kind: true, ownerId: true } } },
  });
  if (!member || member.participant.kind !== "agent") throw new AppError("PARTICIPANT_NOT_FOUND", "No such agent in this room");
  authorize(actor, "agent.steer", {
    agent: { id: input.agentId, ownerId: member.participant.ownerId },
    membersMayStop: subject.room.membersMayStopTurns,
    member: subject.membership !== null,
    roomWorkspaceId: subject.room.workspaceId,
  });
  if ((member.pausedAt !== null) === input.paused) return pauseOf(member.pausedAt, member.pausedById);

  const at = input.paused ? new Date() : null;
  // Who the send path pushes to is one of its facts: the change is a room event, which moves the room's version.
  const [event, committed] = await transaction(async (tx) => {
    await tx.roomMember.update({
      where: { roomId_participantId: { roomId: input.roomId, participantId: input.agentId } },
      data: { pausedAt: at, pausedById: input.paused ? actor.participantId : null },
    });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: input.paused ? "agent.paused_in_room" : "agent.resumed_in_room",
      subjectType: "participant",
      subjectId: input.agentId,
      data: { roomId: input.roomId },
    });
    return bumpRoomVersion(tx, input.roomId, actor.participantId, { type: input.paused ? "member.paused" : "member.resumed", participantIds: [input.agentId] });
  }, TX_OPTIONS);
  const view = await pauseOf(at, input.paused ? actor.participantId : null);
  announce(
    committed,
    { roomId: input.roomId, agentId: input.agentId, ownerId: member.participant.ownerId, follows: followsWholeRoom("agent", member.deliveryMode) },
    view,
  );
  await fanOutNew(committed, event);
  return view;
}

/** Tells the room, the agent and its owner; moves the agent's sockets out of (or back into) the room. */
function announce(committed: Committed, m: { roomId: string; agentId: string; ownerId: string | null; follows: boolean }, paused: PauseView | null): void {
  if (paused) {
    if (m.follows) unsubscribeFromRoom([m.agentId], m.roomId);
  } else {
    if (m.follows) subscribeToRoom([m.agentId], m.roomId);
    // Its sockets are handed what waited; an MCP session waiting for messages looks again.
    agentResumed(committed, m.agentId, m.roomId);
    void getDb()
      .room.findUnique({ where: { id: m.roomId }, select: { lastSeq: true } })
      .then((room) => room && roomWoke(committed, m.roomId, room.lastSeq));
  }
  const to = [audience.room(m.roomId), audience.participant(m.agentId), ...(m.ownerId ? [audience.participant(m.ownerId)] : [])];
  publish(committed, to, "agent:paused", { roomId: m.roomId, agentId: m.agentId, paused });
}

async function pauseOf(at: Date | null, byId: string | null): Promise<PauseView | null> {
  if (!at) return null;
  const by = byId ? await getDb().participant.findUnique({ where: { id: byId }, select: { id: true, handle: true } }) : null;
  return { at: at.toISOString(), by };
}
