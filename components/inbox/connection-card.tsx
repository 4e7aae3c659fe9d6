"use client";
// One connection request or decided connection, as the consent inbox shows it.
import type { ReactNode } from "react";
import type { ConnectionView } from "@switchboard/sdk/contract";
import { frameworkLabel } from "@/components/agents/labels";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { BuildingIcon, CheckCircleIcon } from "@/components/ui/icons";
import { Pill, Tag, type Tone } from "@/components/ui/pill";
import { WorkspaceTag } from "@/components/workspace/workspace-marks";
import { dateTime, relativeTime, shortDate } from "@/components/ui/time";

type Side = ConnectionView["requester"];

export function Who({ side, meId, size = 20 }: { side: Side; meId: string; size?: number }) {
  const you = side.id === meId;
  return (
    <span className="inline-flex max-w-full min-w-0 items-center gap-1.5 align-middle">
      <Avatar id={side.id} name={side.displayName} kind={side.kind} size={size} />
      <span className="truncate font-medium text-zinc-900">{you ? "you" : side.displayName}</span>
      {!you && <span className="truncate text-zinc-500">@{side.handle}</span>}
      {!you && <WorkspaceTag workspace={side.workspace} />}
    </span>
  );
}

/** "you", or the name of `id` among the connection's sides and their owners (who may end it). */
export function participantName(c: ConnectionView, id: string, meId: string): string {
  if (id === meId) return "you";
  const known = [c.requester, c.addressee, c.requester.owner, c.addressee.owner].find((p) => p?.id === id);
  return known?.displayName ?? "someone";
}

/** "to you" or "to your agent X". */
export function addresseeLabel(c: ConnectionView, meId: string): ReactNode {
  if (c.addressee.id === meId) return "you";
  return (
    <>
      your agent <strong className="font-semibold text-zinc-900">{c.addressee.displayName}</strong> <span className="text-zinc-500">@{c.addressee.handle}</span>
    </>
  );
}

export function Scope({ scope }: { scope: ConnectionView["scope"] }) {
  if (!scope || (!scope.purposes?.length && !scope.roomIds?.length)) return <span className="text-zinc-500">Anywhere in the workspace</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {scope.purposes?.map((p) => (
        <Tag key={p}>{p}</Tag>
      ))}
      {scope.roomIds?.length ? (
        <span className="text-zinc-600">
          {scope.purposes?.length ? "· " : ""}limited to {scope.roomIds.length} room{scope.roomIds.length === 1 ? "" : "s"}
        </span>
      ) : null}
    </span>
  );
}

export function Expiry({ expiresAt }: { expiresAt: string | null }) {
  if (!expiresAt) return <span className="text-zinc-500">Until revoked</span>;
  const past = new Date(expiresAt).getTime() <= Date.now();
  return (
    <span title={dateTime(expiresAt)} className={past ? "text-rose-600" : "text-zinc-700"}>
      {past ? `Expired ${relativeTime(expiresAt)}` : `Expires ${relativeTime(expiresAt)}`}
      <span className="text-zinc-500"> · {shortDate(expiresAt)}</span>
    </span>
  );
}

const STATUS: Record<ConnectionView["status"], [string, Tone]> = {
  pending: ["Pending", "amber"],
  accepted: ["Accepted", "emerald"],
  declined: ["Declined", "zinc"],
  cancelled: ["Cancelled", "zinc"],
  revoked: ["Revoked", "rose"],
  blocked: ["Blocked", "rose"],
};

export function StatusPill({ status }: { status: ConnectionView["status"] }) {
  const [label, tone] = STATUS[status];
  return (
    <Pill tone={tone} dot testId="connection-status">
      {label}
    </Pill>
  );
}

/** The requester in full: who asks, what kind, whose agent, what it can do. */
export function RequesterBlock({ side }: { side: Side }) {
  return (
    <div className="flex min-w-0 items-start gap-3">
      <Avatar id={side.id} name={side.displayName} kind={side.kind} size={40} />
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
          <span className="truncate text-[15px] font-semibold text-zinc-900" data-testid="requester-name">
            {side.displayName}
          </span>
          <KindBadge kind={side.kind} />
          <span className="text-sm text-zinc-500">@{side.handle}</span>
        </div>
        {side.workspace && (
          <p className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-violet-800" data-testid="requester-workspace">
            <BuildingIcon size={13} className="shrink-0" />
            <span>
              From another workspace: <strong className="font-semibold">{side.workspace.name}</strong>
            </span>
            {side.workspace.verifiedDomain && (
              <span className="inline-flex items-center gap-1 font-medium text-emerald-700" title="Verified domain" data-testid="requester-verified-domain">
                <CheckCircleIcon size={12} /> {side.workspace.verifiedDomain}
              </span>
            )}
          </p>
        )}
        <div className="mt-0.5 text-xs text-zinc-500" data-testid="requester-owner">
          {side.kind === "agent" ? (
            <>
              {frameworkLabel(side.framework)} agent ·{" "}
              {side.owner ? (
                <>
                  owned by <span className="font-medium text-zinc-700">{side.owner.displayName}</span>
                </>
              ) : (
                "no owner"
              )}
            </>
          ) : (
            "Person"
          )}
        </div>
        {side.description && <p className="mt-1 line-clamp-2 text-sm text-zinc-600">{side.description}</p>}
        {side.capabilities.length > 0 && (
          <div className="mt-1.5 flex flex-wrap gap-1" aria-label="Capabilities">
            {side.capabilities.map((c) => (
              <Tag key={c}>{c}</Tag>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
