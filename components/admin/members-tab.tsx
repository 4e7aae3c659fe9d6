"use client";
// Members and their roles. The server says which roles the viewer may give each member (`can.roles`)
// and why not when none (`roleLocked`); its refusals (FORBIDDEN) are shown next to the table.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Spinner } from "@/components/ui/button";
import { appErrorOf } from "@/components/ui/errors";
import { inputClass } from "@/components/ui/field";
import { AlertIcon, UsersIcon, XIcon } from "@/components/ui/icons";
import { Pill } from "@/components/ui/pill";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { DataTable } from "@/components/ui/table";
import { dateTime, shortDate } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { LastSeenCell, ParticipantCell, useOnline } from "./participant-cells";

type Role = "admin" | "member" | "guest";
const ROLES: [Role, string][] = [
  ["admin", "Admin"],
  ["member", "Member"],
  ["guest", "Guest"],
];

export function MembersTab() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { me } = useViewer();
  const isOnline = useOnline();
  const members = useQuery(trpc.admin.members.queryOptions());
  const [failure, setFailure] = useState<{ name: string; code: string; message: string } | null>(null);
  const setRole = useMutation(
    trpc.admin.setRole.mutationOptions({
      onSuccess: (rows, input) => {
        queryClient.setQueryData(trpc.admin.members.queryKey(), rows);
        setFailure(null);
        const who = rows.find((r) => r.participantId === input.participantId);
        toast(`${who?.displayName ?? "Member"} is now ${input.role === "admin" ? "an admin" : `a ${input.role}`}`);
      },
      onError: (e, input) => {
        const app = appErrorOf(e);
        const who = members.data?.find((m) => m.participantId === input.participantId);
        setFailure({ name: who?.displayName ?? "this member", code: app.code, message: app.message });
        void members.refetch();
      },
    }),
  );

  if (members.isPending) return <SkeletonRows rows={4} />;
  if (members.isError) return <ErrorState error={members.error} onRetry={() => void members.refetch()} title="Couldn't load the members" />;
  if (members.data.length === 0) return <EmptyState icon={<UsersIcon size={22} />} title="No members" body="Create an invite link to bring people in." />;

  return (
    <div className="space-y-3">
      {failure && (
        <div
          role="alert"
          className="flex items-start gap-2.5 rounded-lg bg-rose-50 px-3.5 py-2.5 text-sm text-rose-800 ring-1 ring-rose-200 ring-inset"
          data-testid="role-error"
          data-code={failure.code}
        >
          <AlertIcon size={17} className="mt-px shrink-0 text-rose-600" />
          <div className="flex-1">
            <strong className="font-semibold">Couldn&apos;t change {failure.name}&apos;s role.</strong> {failure.message}
            {failure.code === "FORBIDDEN" && <span className="text-rose-700"> Your role doesn&apos;t allow this change.</span>}
          </div>
          <button type="button" onClick={() => setFailure(null)} aria-label="Dismiss" className="rounded p-0.5 text-rose-500 hover:bg-rose-100">
            <XIcon size={15} />
          </button>
        </div>
      )}
      <DataTable columns={["Person", "Role", "Agents", "Joined", "Last seen"]} minWidth="min-w-[44rem]" testId="members-table">
        {members.data.map((m) => {
          const online = isOnline(m.participantId);
          const busy = setRole.isPending && setRole.variables?.participantId === m.participantId;
          return (
            <tr key={m.participantId} data-testid="member-row" data-handle={m.handle} data-role={m.role}>
              <ParticipantCell
                id={m.participantId}
                name={m.displayName}
                kind="human"
                online={online}
                badges={
                  <>
                    {m.participantId === me.id && <span className="text-xs font-normal text-zinc-500">(you)</span>}
                    {m.status === "suspended" && <Pill tone="rose">Suspended</Pill>}
                  </>
                }
                detail={`@${m.handle} · ${m.email}`}
              />
              <td className="px-4 py-2.5">
                {m.role === "owner" ? (
                  <Pill tone="indigo" title={m.roleLocked ?? undefined}>
                    Owner
                  </Pill>
                ) : (
                  <div className="flex items-center gap-2">
                    <div className="w-32">
                      <select
                        value={m.role}
                        disabled={!m.can.setRole || busy}
                        title={m.roleLocked ?? undefined}
                        aria-label={`Role of ${m.displayName}`}
                        onChange={(e) => setRole.mutate({ participantId: m.participantId, role: e.target.value as Role })}
                        className={`${inputClass} h-8`}
                        data-testid="member-role"
                      >
                        {ROLES.map(([role, label]) => (
                          <option key={role} value={role} disabled={role !== m.role && !m.can.roles.includes(role)}>
                            {label}
                          </option>
                        ))}
                      </select>
                    </div>
                    {busy && <Spinner className="h-3.5 w-3.5 text-zinc-500" />}
                  </div>
                )}
              </td>
              <td className="px-4 py-2.5 text-zinc-700">{m.agents}</td>
              <td className="px-4 py-2.5 whitespace-nowrap text-zinc-600" title={dateTime(m.joinedAt)}>
                {shortDate(m.joinedAt)}
              </td>
              <LastSeenCell online={online} lastSeenAt={m.lastSeenAt} />
            </tr>
          );
        })}
      </DataTable>
      <p className="text-xs text-zinc-500">
        Owners set any role but owner. Admins manage members and guests, invite people and run the kill switch. Guests join channels only when invited.
      </p>
    </div>
  );
}
