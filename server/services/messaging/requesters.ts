// Who drove the work: "requested by", next to "owned by". A request from Bea to Dana's agent is
// Dana's agent's spend, and Bea's request.
//
// A person's message serves that person. An agent's message serves whoever the message it answers
// served: its cause, which the SDK names on every send it makes while handling a message (`causeId`),
// or else the message the agent is processing now, as its receipts say. Each message stores its
// requester when it is stored, so a chain of agents, each answering the one before, leads back to the
// person who started it one stored hop at a time, never by walking the chain. A usage report serves the
// requester of the message it names, or else of what the agent is processing.
import { getDb } from "../../db";
import { AppError } from "../../errors";
import type { Actor } from "../../policies";

interface StoredMessage {
  requesterId: string | null;
  authorId: string;
  author: { kind: "human" | "agent" };
}

const requesterSelect = { requesterId: true, authorId: true, author: { select: { kind: true } } } as const;

/** A stored message's requester: the one it stored, or its author if a person (messages from before requesters). */
export const requesterOf = (m: StoredMessage): string | null => m.requesterId ?? (m.author.kind === "human" ? m.authorId : null);

/**
 * The requester of a message being sent, and its cause. A person is their own requester; an agent's
 * comes from the cause it names (a message in a room it is a member of: it cannot claim a request it
 * never saw), or else from what it is processing. Null when nothing says.
 */
export async function requesterForSend(actor: Actor, causeId: string | undefined): Promise<{ requesterId: string | null; causeId: string | null }> {
  if (actor.kind === "human") return { requesterId: actor.participantId, causeId: null };
  if (!causeId) {
    const processing = await processingMessage(actor.participantId);
    return { requesterId: processing ? requesterOf(processing) : null, causeId: processing?.id ?? null };
  }
  const cause = await getDb().message.findFirst({
    where: { id: causeId, room: { workspaceId: actor.workspaceId, members: { some: { participantId: actor.participantId } } } },
    select: requesterSelect,
  });
  if (!cause) throw new AppError("MESSAGE_NOT_FOUND", "causeId: no such message in a room you are a member of");
  return { requesterId: requesterOf(cause), causeId };
}

/** The requester of the message the agent most recently started processing and has not finished. */
export async function processingRequester(agentId: string): Promise<string | null> {
  const message = await processingMessage(agentId);
  return message ? requesterOf(message) : null;
}

async function processingMessage(agentId: string) {
  const receipt = await getDb().messageReceipt.findFirst({
    where: { participantId: agentId, state: "processing" },
    orderBy: { updatedAt: "desc" },
    select: { message: { select: { id: true, ...requesterSelect } } },
  });
  return receipt?.message ?? null;
}
