"use client";
// Members and their roles. Owners set any role but owner; admins manage members and guests. The
// server decides; its refusals (FORBIDDEN) are shown next to the table.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useDirectory } from "@/components/providers/directory";
import { useSocket } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Avatar } from "@/components/ui/avatar";
import { Spinner } from "@/components/ui/button";
import { appErrorOf } from "@/components/ui/errors";
import { inputClass } from "@/components/ui/field";
import { AlertIcon, UsersIcon, XIcon } from "@/components/ui/icons";
import { Pill } from "@/components/ui/pill";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { dateTime, relativeTime, shortDate } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import type { MemberRow } from "./types";

type Role = "admin" | "member" | "guest";

export function MembersTab() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { me, role: myRole } = useViewer();
  const { presence } = useSocket();
  const { byId } = useDirectory();
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

  const editable = (m: MemberRow) => m.role !== "owner" && m.participantId !== me.id && !(myRole === "admin" && m.role === "admin");
  const why = (m: MemberRow) =>
    m.role === "owner" ? "The owner's role cannot be changed" : m.participantId === me.id ? "You cannot change your own role" : myRole === "admin" && m.role === "admin" ? "Only the owner manages admins" : undefined;

  return (
    <div className="space-y-3">
      {failure && (
        <div role="alert" className="flex items-start gap-2.5 rounded-lg bg-rose-50 px-3.5 py-2.5 text-sm text-rose-800 ring-1 ring-rose-200 ring-inset" data-testid="role-error" data-code={failure.code}>
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
      <div className="overflow-x-auto rounded-xl border border-zinc-200 bg-white shadow-xs">
        <table className="w-full min-w-[44rem] text-left text-sm" data-testid="members-table">
          <thead className="border-b border-zinc-200 bg-zinc-50 text-xs text-zinc-500">
            <tr>
              <th className="px-4 py-2 font-medium">Person</th>
              <th className="px-4 py-2 font-medium">Role</th>
              <th className="px-4 py-2 font-medium">Agents</th>
              <th className="px-4 py-2 font-medium">Joined</th>
              <th className="px-4 py-2 font-medium">Last seen</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {members.data.map((m) => {
              const online = presence.get(m.participantId) ?? byId.get(m.participantId)?.online;
              const busy = setRole.isPending && setRole.variables?.participantId === m.participantId;
              return (
                <tr key={m.participantId} data-testid="member-row" data-handle={m.handle} data-role={m.role}>
                  <td className="px-4 py-2.5">
                    <div className="flex items-center gap-3">
                      <Avatar id={m.participantId} name={m.displayName} kind="human" size={32} online={online} />
                      <div className="min-w-0">
                        <div className="flex items-center gap-1.5 font-medium text-zinc-900">
                          <span className="truncate">{m.displayName}</span>
                          {m.participantId === me.id && <span className="text-xs font-normal text-zinc-400">(you)</span>}
                          {m.status === "suspended" && <Pill tone="rose">Suspended</Pill>}
                        </div>
                        <div className="truncate text-xs text-zinc-500">
                          @{m.handle} · {m.email}
                        </div>
                      </div>
                    </div>
                  </td>
                  <td className="px-4 py-2.5">
                    {m.role === "owner" ? (
                      <Pill tone="indigo" title={why(m)}>
                        Owner
                      </Pill>
                    ) : (
                      <div className="flex items-center gap-2">
                        <div className="w-32">
                          <select
                            value={m.role}
                            disabled={!editable(m) || busy}
                            title={why(m)}
                            aria-label={`Role of ${m.displayName}`}
                            onChange={(e) => setRole.mutate({ participantId: m.participantId, role: e.target.value as Role })}
                            className={`${inputClass} h-8`}
                            data-testid="member-role"
                          >
                            <option value="admin" disabled={myRole !== "owner"}>
                              Admin
                            </option>
                            <option value="member">Member</option>
                            <option value="guest">Guest</option>
                          </select>
                        </div>
                        {busy && <Spinner className="h-3.5 w-3.5 text-zinc-400" />}
                      </div>
                    )}
                  </td>
                  <td className="px-4 py-2.5 text-zinc-700">{m.agents}</td>
                  <td className="px-4 py-2.5 whitespace-nowrap text-zinc-600" title={dateTime(m.joinedAt)}>
                    {shortDate(m.joinedAt)}
                  </td>
                  <td className="px-4 py-2.5 whitespace-nowrap text-zinc-600" title={m.lastSeenAt ? dateTime(m.lastSeenAt) : undefined}>
                    {online ? <span className="text-emerald-700">Online</span> : relativeTime(m.lastSeenAt)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-zinc-500">
        Owners set any role but owner. Admins manage members and guests, invite people and run the kill switch. Guests join channels only when invited.
      </p>
    </div>
  );
}
