// Who may reach whom: the `connection.reach` rule's inputs, loaded for the actor and each target in
// at most three queries (four with someone of another workspace: whether the two are connected). A block stops it; a person and their own agents, and (by workspace setting)
// people of one workspace, need no connection; everyone else an accepted, unexpired one. Used by
// everything that addresses someone (DMs, invitations, mentions, A2A calls); consent/ writes the
// connections this reads.
import { getDb, type Prisma } from "../../db";
import { AppError } from "../../errors";
import { authorize, can, connectionStanding, type Actor } from "../../policies";
import { acrossFacts, type LinkedWorkspace } from "../workspace-connections/links";

export const pairKey = (a: string, b: string) => [a, b].sort().join(":");

export const partySelect = { id: true, kind: true, workspaceId: true, ownerId: true, handle: true } as const;
export type Party = Prisma.ParticipantGetPayload<{ select: typeof partySelect }>;

/**
 * What the connection rules decide on between the actor and each of `ids` (the actor itself
 * included, as a pair with itself): at most three queries, however many ids.
 */
export async function pairsWith(actor: Actor, ids: string[], linked?: Map<string, LinkedWorkspace>) {
  const db = getDb();
  const others = [...new Set(ids)];
  const [parties, edges] = await Promise.all([
    db.participant.findMany({ where: { id: { in: [actor.participantId, ...others] } }, select: partySelect }),
    db.connection.findMany({
      where: { liveKey: { in: others.map((id) => pairKey(actor.participantId, id)) } },
      select: { liveKey: true, status: true, expiresAt: true, scope: true },
    }),
  ]);
  const byId = new Map(parties.map((p) => [p.id, p]));
  const me = byId.get(actor.participantId)!;
  const people = me.kind === "human" && parties.some((p) => p.id !== me.id && p.kind === "human");
  const ws = people ? await db.workspace.findUnique({ where: { id: actor.workspaceId }, select: { peopleTalkFreely: true } }) : null;
  const edgeOf = new Map(edges.map((e) => [e.liveKey!, e]));
  // Someone of another workspace: whether the two are connected, and the other side lets this one find them.
  const across = await acrossFacts(actor.workspaceId, parties, linked);
  const pairs = new Map(
    others.flatMap((id) => {
      const other = byId.get(id);
      if (!other) return [];
      const pair = { me, other, peopleTalkFreely: ws?.peopleTalkFreely ?? false, edge: edgeOf.get(pairKey(me.id, id)) ?? null, across: across.get(id) ?? null };
      return [[id, pair] as const];
    }),
  );
  return { me, pairs };
}

/**
 * Throws unless the actor may reach every target (the `connection.reach` rule): for a DM (`roomId`
 * absent) or an invitation into `roomId` (a connection scoped to rooms covers only those rooms).
 */
export async function assertCanReach(actor: Actor, targetIds: string[], roomId?: string): Promise<void> {
  const others = [...new Set(targetIds)].filter((id) => id !== actor.participantId);
  if (others.length === 0) return;
  const { pairs } = await pairsWith(actor, others);
  for (const id of others) {
    const pair = pairs.get(id);
    if (!pair) throw new AppError("PARTICIPANT_NOT_FOUND", "No such participant");
    authorize(actor, "connection.reach", { ...pair, roomId });
  }
}

/** The subset of `ids` the author may address in `roomId` (mentions of anyone else are not delivered). */
export async function reachable(actor: Actor, ids: string[], roomId: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const { pairs } = await pairsWith(actor, ids);
  return ids.filter((id) => {
    const pair = pairs.get(id);
    return !!pair && can(actor, "connection.reach", { ...pair, roomId });
  });
}

/** The viewer's standing with each participant, for the directory. */
export async function standings(
  actor: Actor,
  ids: string[],
  linked?: Map<string, LinkedWorkspace>,
): Promise<Map<string, "self" | "connected" | "pending" | "blocked" | "none">> {
  const { pairs } = await pairsWith(actor, ids, linked);
  return new Map(ids.map((id) => [id, id === actor.participantId ? "self" : connectionStanding(pairs.get(id) ?? null)]));
}
