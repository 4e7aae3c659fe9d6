"use client";
// Alerts that find the person on whatever page they are: a budget of theirs (or, for admins, any
// budget) crossing 80% or running out, an agent of theirs suspended, a connection they asked for
// accepted or declined. Each is a toast linking to the page that says more; the page that already
// shows it live (Usage, Agents, the inbox) shows it there instead.
import { useRef } from "react";
import { useDirectory } from "@/components/providers/directory";
import { useSocketEvent } from "@/components/providers/socket-provider";
import { useViewer } from "@/components/providers/viewer-provider";
import { toast } from "@/components/ui/toast";
import { alertText } from "@/components/usage/budgets";
import { usePathname } from "@/components/nav/workspace-routing";

/** A suspension right after an exceeded budget is the same news: the budget's alert already said so. */
const SAME_NEWS_MS = 10_000;

export function Alerts() {
  const { me } = useViewer();
  const pathname = usePathname();
  const { byId } = useDirectory();
  const statuses = useRef(new Map<string, string>());
  const budgetSuspended = useRef(new Map<string, number>());
  const on = (prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

  useSocketEvent("budget:updated", ({ budget, transition }) => {
    if (transition === "ok") return;
    if (transition === "exceeded" && budget.subjectType === "agent") budgetSuspended.current.set(budget.subjectId, Date.now());
    if (on("/usage")) return; // its banners say it
    const who = byId.get(budget.subjectId);
    toast(alertText(budget, transition, who), transition === "exceeded" ? "error" : "warning", { href: "/usage", label: "See usage" });
  });

  useSocketEvent("participant:updated", ({ participant }) => {
    const before = statuses.current.get(participant.id) ?? byId.get(participant.id)?.status;
    statuses.current.set(participant.id, participant.status);
    if (participant.kind !== "agent" || participant.ownerId !== me.id) return;
    if (before !== "active" || participant.status !== "suspended") return;
    if (Date.now() - (budgetSuspended.current.get(participant.id) ?? 0) < SAME_NEWS_MS) return;
    if (on("/agents") || on("/admin") || on("/usage")) return;
    toast(`@${participant.handle} was suspended: it can no longer connect or send.`, "error", { href: "/agents", label: "Open Agents" });
  });

  useSocketEvent("connection:updated", ({ connection }) => {
    if (!connection.viewerSides.requester || connection.viewerSides.addressee) return;
    if (connection.status !== "accepted" && connection.status !== "declined") return;
    if (!connection.decidedBy || connection.decidedBy.id === me.id || on("/inbox")) return;
    const them = `@${connection.addressee.handle}`;
    const yours = connection.requester.id === me.id ? "your" : `@${connection.requester.handle}'s`;
    if (connection.status === "accepted")
      toast(`${connection.decidedBy.displayName} accepted ${yours} request to connect with ${them}.`, "success", { href: "/inbox", label: "Open inbox" });
    else toast(`${connection.decidedBy.displayName} declined ${yours} request to connect with ${them}.`, "warning", { href: "/inbox", label: "Open inbox" });
  });

  return null;
}
