"use client";
// A list of invite links or onboarding tokens: who made each, when, until when, how often it was
// used, its state, and a Revoke button behind a confirmation. Active ones come first; the ones that
// stopped working stay listed for a while (the server decides how long), dimmed.
import type { UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import { useMemo, useState, type ReactNode } from "react";
import type { InvitationState, InvitationView } from "@/server/presenters/invitation";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Pill, type Tone } from "@/components/ui/pill";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { DataTable } from "@/components/ui/table";
import { dateTime, relativeTime, shortDate } from "@/components/ui/time";

const STATES: Record<InvitationState, [string, Tone]> = {
  active: ["Active", "emerald"],
  expired: ["Expired", "zinc"],
  used_up: ["Used up", "amber"],
  revoked: ["Revoked", "rose"],
};

export function InvitationStatePill({ state }: { state: InvitationState }) {
  const [label, tone] = STATES[state];
  return (
    <Pill tone={tone} dot testId="invitation-state">
      {label}
    </Pill>
  );
}

/** "in 6 days", "expired 2 days ago" or "revoked 1 hour ago", with the full date on hover. */
function Until({ row }: { row: InvitationView }) {
  if (row.state === "revoked" && row.revokedAt) {
    return <span title={dateTime(row.revokedAt)}>Revoked {relativeTime(row.revokedAt)}</span>;
  }
  const past = row.state === "expired";
  return (
    <span title={dateTime(row.expiresAt)} className={past ? "text-zinc-500" : "text-zinc-700"}>
      {past ? `Expired ${relativeTime(row.expiresAt)}` : relativeTime(row.expiresAt)}
      <span className="block text-xs text-zinc-500">{shortDate(row.expiresAt)}</span>
    </span>
  );
}

function Uses({ row }: { row: InvitationView }) {
  const limit = row.maxUses === null ? "unlimited" : String(row.maxUses);
  return (
    <span className="tabular-nums" aria-label={`${row.uses} used of ${limit}`}>
      {row.uses}
      <span className="text-zinc-500"> / {row.maxUses ?? "∞"}</span>
    </span>
  );
}

export interface InvitationListProps<T extends InvitationView, V> {
  query: UseQueryResult<T[], unknown>;
  revoke: UseMutationResult<unknown, unknown, V>;
  /** The revoke mutation's input for a row. */
  revokeInput: (row: T) => V;
  /** "invite link", "onboarding token": in headings, buttons and the confirmation. */
  noun: string;
  /** What identifies a row for people: a role, a label. */
  name: (row: T) => ReactNode;
  /** What revoking this row does, for the confirmation. */
  consequence: (row: T) => ReactNode;
  empty: { icon: ReactNode; title: string; body: ReactNode };
  /** Hide the creator column when every row is the viewer's own. */
  showCreator?: boolean;
  testId: string;
}

export function InvitationList<T extends InvitationView, V>({
  query,
  revoke,
  revokeInput,
  noun,
  name,
  consequence,
  empty,
  showCreator = true,
  testId,
}: InvitationListProps<T, V>) {
  const [confirming, setConfirming] = useState<T | null>(null);
  const rows = useMemo(() => [...(query.data ?? [])].sort((a, b) => Number(a.state !== "active") - Number(b.state !== "active")), [query.data]);

  if (query.isPending) return <SkeletonRows rows={2} testId={`${testId}-loading`} />;
  if (query.isError)
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} title={`Couldn't load the ${noun}s`} testId={`${testId}-error`} />;
  if (rows.length === 0) return <EmptyState icon={empty.icon} title={empty.title} body={empty.body} testId={`${testId}-empty`} />;

  const close = () => {
    revoke.reset();
    setConfirming(null);
  };
  const capitalised = noun[0].toUpperCase() + noun.slice(1);

  return (
    <>
      <DataTable
        columns={[capitalised, showCreator && "Created by", "Created", "Expires", "Uses", "State", { label: <span className="sr-only">Actions</span> }]}
        minWidth="min-w-[46rem]"
        testId={testId}
      >
        {rows.map((row) => (
          <tr key={row.id} className={row.state === "active" ? "" : "text-zinc-500"} data-testid={`${testId}-row`} data-id={row.id} data-state={row.state}>
            <td className="px-4 py-2.5">{name(row)}</td>
            {showCreator && (
              <td className="px-4 py-2.5">
                <span className="inline-flex min-w-0 items-center gap-2">
                  <Avatar id={row.createdBy.id} name={row.createdBy.displayName} kind="human" size={22} />
                  <span className="truncate">{row.createdBy.displayName}</span>
                </span>
              </td>
            )}
            <td className="px-4 py-2.5 whitespace-nowrap" title={dateTime(row.createdAt)}>
              {relativeTime(row.createdAt)}
            </td>
            <td className="px-4 py-2.5 whitespace-nowrap">
              <Until row={row} />
            </td>
            <td className="px-4 py-2.5">
              <Uses row={row} />
            </td>
            <td className="px-4 py-2.5">
              <InvitationStatePill state={row.state} />
            </td>
            <td className="px-4 py-2.5 text-right">
              {row.state === "active" && (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setConfirming(row)}
                  data-testid={`${testId}-revoke`}
                  aria-label={`Revoke the ${noun} created ${shortDate(row.createdAt)}${showCreator ? ` by ${row.createdBy.displayName}` : ""}`}
                >
                  Revoke
                </Button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      <ConfirmDialog
        open={confirming !== null}
        onClose={close}
        title={`Revoke this ${noun}?`}
        testId={`${testId}-revoke-dialog`}
        error={revoke.error}
        confirm={{
          label: `Revoke ${noun}`,
          variant: "danger",
          busy: revoke.isPending,
          onConfirm: () => confirming && revoke.mutate(revokeInput(confirming), { onSuccess: () => setConfirming(null) }),
          testId: `${testId}-confirm-revoke`,
        }}
      >
        {confirming && (
          <>
            <p>{consequence(confirming)}</p>
            <p className="text-zinc-500">This cannot be undone; create a new one if it is needed again.</p>
          </>
        )}
      </ConfirmDialog>
    </>
  );
}
