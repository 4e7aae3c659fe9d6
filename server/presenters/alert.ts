import type { AlertView } from "@switchboard/sdk/contract";

export interface AlertEvent {
  id: string;
  action: AlertView["kind"];
  subjectId: string | null;
  actorId: string | null;
  data: unknown;
  createdAt: Date;
}

/** Who the alert is about and who acted, as the viewer reads them. */
export interface AlertNames {
  viewerId: string;
  /** Participants by id: "@handle". */
  handles: Map<string, string>;
  /** Connections by id: who asked, and whom. */
  connections: Map<string, { requesterId: string; addresseeId: string }>;
}

const PERIOD = { day: "daily", month: "monthly" } as Record<string, string>;

function amount(unit: unknown, value: unknown): string {
  const n = Number(value);
  return unit === "usd" ? `$${n.toFixed(2)}` : `${Math.round(n).toLocaleString("en-US")} tokens`;
}

/** An audit event of the viewer's as one sentence and a link, or null for one the alerts do not say. */
export function presentAlert(e: AlertEvent, names: AlertNames): AlertView | null {
  const handle = (id: string | null | undefined) => (id ? (names.handles.get(id) ?? "someone") : "someone");
  const data = (e.data ?? {}) as Record<string, unknown>;
  const base = { id: e.id, kind: e.action, at: e.createdAt.toISOString() };
  switch (e.action) {
    case "budget.warned":
    case "budget.exceeded": {
      const yours = e.subjectId === names.viewerId;
      const who = yours ? "You" : handle(e.subjectId);
      const whose = yours ? "your" : "its";
      const spent = `${amount(data.unit, data.spent)} of ${amount(data.unit, data.amount)}`;
      const period = PERIOD[String(data.period)] ?? "";
      const text =
        e.action === "budget.warned"
          ? `${who} reached 80% of ${whose} ${period} budget (${spent}).`
          : `${who} reached ${whose} ${period} budget (${spent}) and ${yours ? "your agents were" : "was"} suspended.`;
      return { ...base, text, href: "/usage" };
    }
    case "agent.suspended": {
      if (data.by === "budget") return null; // the budget's own alert says so
      const by = e.actorId ? ` by ${e.actorId === names.viewerId ? "you" : handle(e.actorId)}` : "";
      const reason = typeof data.reason === "string" && data.reason ? `: ${data.reason}` : "";
      return { ...base, text: `${handle(e.subjectId)} was suspended${by}${reason}.`, href: "/agents" };
    }
    case "connection.accepted":
    case "connection.declined": {
      const pair = e.subjectId ? names.connections.get(e.subjectId) : undefined;
      if (!pair) return null;
      const decided = e.action === "connection.accepted" ? "accepted" : "declined";
      const by = e.actorId ? handle(e.actorId) : "Its owner's policy";
      const whose = pair.requesterId === names.viewerId ? "your" : `${handle(pair.requesterId)}'s`;
      return { ...base, text: `${by} ${decided} ${whose} request to connect with ${handle(pair.addresseeId)}.`, href: "/inbox" };
    }
  }
}
