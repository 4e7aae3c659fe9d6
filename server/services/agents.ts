// Agents: participants of kind "agent", each owned by a person. Keys and the socket API come with the
// agent protocol; here an agent exists, is listed, and can act under its own identity.
import { getDb, type Tx } from "../db";
import { AppError } from "../errors";
import { newId } from "../ids";
import type { Actor } from "../policies";

export interface NewAgent {
  handle: string;
  displayName: string;
  description: string;
  framework: string;
  capabilities: string[];
}

export async function createAgent(tx: Tx, owner: Actor, agent: NewAgent): Promise<string> {
  const id = newId();
  await tx.participant.create({
    data: {
      id,
      workspaceId: owner.workspaceId,
      kind: "agent",
      handle: agent.handle,
      displayName: agent.displayName,
      description: agent.description,
      framework: agent.framework,
      capabilities: agent.capabilities,
      ownerId: owner.participantId,
    },
  });
  return id;
}

/** The actor an agent acts as: its own identity, never more than a plain member. */
export async function actorForAgent(participantId: string): Promise<Actor> {
  const agent = await getDb().participant.findUnique({ where: { id: participantId } });
  if (!agent || agent.kind !== "agent") throw new AppError("PARTICIPANT_NOT_FOUND", "No such agent");
  return { participantId: agent.id, workspaceId: agent.workspaceId, kind: "agent", role: "member", handle: agent.handle };
}
