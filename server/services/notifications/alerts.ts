// What the Inbox lists under Alerts: the last two weeks' news of the viewer's own budget, their agents
// (a budget crossing 80% or running out, a suspension) and the connection requests they or their
// agents made (accepted or declined by someone else), read from the audit log, which records each
// of them once. The same news reaches an open page live, as a toast (components/notifications/alerts.tsx).
import type { AlertView } from "@switchboard/sdk/contract";
import { getDb } from "../../db";
import { authorize, type Actor } from "../../policies";
import { presentAlert, type AlertEvent } from "../../presenters/alert";

const ALERT_DAYS = 14;
const ALERTS_SHOWN = 30;
const ABOUT_SUBJECT = ["budget.warned", "budget.exceeded", "agent.suspended"];
const ABOUT_CONNECTION = ["connection.accepted", "connection.declined"];

export async function recentAlerts(actor: Actor): Promise<AlertView[]> {
  authorize(actor, "notifications.read", { workspaceId: actor.workspaceId, participantId: actor.participantId });
  const db = getDb();
  const since = new Date(Date.now() - ALERT_DAYS * 86_400_000);
  const agents = await db.participant.findMany({ where: { workspaceId: actor.workspaceId, ownerId: actor.participantId }, select: { id: true } });
  const mine = [actor.participantId, ...agents.map((a) => a.id)];
  const asked = await db.connection.findMany({
    where: { workspaceId: actor.workspaceId, requesterId: { in: mine }, decidedAt: { gte: since } },
    select: { id: true, requesterId: true, addresseeId: true },
  });
  const events = await db.auditEvent.findMany({
    where: {
      workspaceId: actor.workspaceId,
      createdAt: { gte: since },
      // Decided by someone else: a decision of the viewer's own is no news to them.
      OR: [
        { action: { in: ABOUT_SUBJECT }, subjectId: { in: mine } },
        {
          action: { in: ABOUT_CONNECTION },
          subjectId: { in: asked.map((c) => c.id) },
          OR: [{ actorId: null }, { actorId: { not: actor.participantId } }], // a policy's decision has no actor
        },
      ],
    },
    orderBy: { seq: "desc" },
    take: ALERTS_SHOWN,
    select: { id: true, action: true, subjectId: true, actorId: true, data: true, createdAt: true },
  });
  const connections = new Map(asked.map((c) => [c.id, { requesterId: c.requesterId, addresseeId: c.addresseeId }]));
  const ids = new Set(events.flatMap((e) => [e.subjectId, e.actorId]).filter((id): id is string => !!id));
  for (const c of asked) ids.add(c.requesterId).add(c.addresseeId);
  const people = await db.participant.findMany({ where: { id: { in: [...ids] } }, select: { id: true, handle: true } });
  const names = { viewerId: actor.participantId, handles: new Map(people.map((p) => [p.id, `@${p.handle}`])), connections };
  return events.flatMap((e) => presentAlert(e as AlertEvent, names) ?? []);
}
