"use client";
// Every public channel in the workspace, with a filter; open one to preview it, or join it here.
// Archived channels (and private archived ones the viewer is in) come last, to read, not to join.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { inputClass } from "@/components/ui/field";
import { CheckIcon, HashIcon, SearchIcon } from "@/components/ui/icons";
import { Pill } from "@/components/ui/pill";
import { useRouter } from "@/components/nav/workspace-routing";

export function BrowseChannelsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Browse channels"
      description="Public channels of this workspace, and those connected workspaces share with it."
      testId="browse-dialog"
    >
      {open && <BrowseBody onClose={onClose} />}
    </Dialog>
  );
}

function BrowseBody({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [query, setQuery] = useState("");
  const channels = useQuery({ ...trpc.rooms.browse.queryOptions(), staleTime: 0 });
  const join = useMutation(
    trpc.rooms.join.mutationOptions({
      onSuccess: (room) => {
        void queryClient.invalidateQueries({ queryKey: trpc.rooms.mine.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.rooms.browse.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.rooms.get.queryKey({ roomId: room.id }) });
        onClose();
        router.push(`/r/${room.id}`);
      },
    }),
  );
  const q = query.trim().toLowerCase();
  const list = (channels.data ?? [])
    .filter((c) => !q || c.name.includes(q) || c.topic.toLowerCase().includes(q))
    .sort((a, b) => Number(a.archived) - Number(b.archived));

  return (
    <div className="space-y-3">
      <div className="relative">
        <SearchIcon size={16} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-zinc-400" />
        <input className={`${inputClass} pl-9`} placeholder="Search channels" value={query} onChange={(e) => setQuery(e.target.value)} autoFocus />
      </div>
      {join.isError && <p className="text-sm text-rose-600">{errorMessage(join.error)}</p>}
      {channels.isPending ? (
        <div className="flex justify-center py-8 text-zinc-500">
          <Spinner />
        </div>
      ) : channels.isError ? (
        <p className="py-6 text-center text-sm text-rose-600">{errorMessage(channels.error)}</p>
      ) : list.length === 0 ? (
        <p className="py-8 text-center text-sm text-zinc-500">{q ? `No channels match “${query}”.` : "No public channels yet."}</p>
      ) : (
        <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200">
          {list.map((c) => (
            <li
              key={c.id}
              className="flex items-center gap-3 px-3 py-2.5 hover:bg-zinc-50"
              data-testid="browse-channel"
              data-name={c.name}
              data-archived={c.archived || undefined}
            >
              <button
                type="button"
                className="min-w-0 flex-1 text-left"
                onClick={() => {
                  onClose();
                  router.push(`/r/${c.id}`);
                }}
              >
                <span className="flex items-center gap-1 text-sm font-semibold text-zinc-900">
                  <HashIcon size={14} className="text-zinc-400" />
                  {c.name}
                  {c.sharedFrom && (
                    <Pill tone="violet" className="ml-1" testId="browse-shared-from" title={`Shared with your workspace by ${c.sharedFrom.name}`}>
                      From {c.sharedFrom.name}
                    </Pill>
                  )}
                </span>
                <span className="block truncate text-xs text-zinc-500">
                  {c.memberCount} member{c.memberCount === 1 ? "" : "s"}
                  {c.topic ? ` · ${c.topic}` : ""}
                </span>
              </button>
              {c.archived ? (
                <Pill tone="zinc" testId="browse-archived" title="Read-only: its owner or an admin can unarchive it">
                  Archived
                </Pill>
              ) : c.joined ? (
                <span className="inline-flex items-center gap-1 text-xs font-medium text-emerald-700">
                  <CheckIcon size={14} /> Joined
                </span>
              ) : (
                <Button size="sm" variant="secondary" disabled={join.isPending} onClick={() => join.mutate({ roomId: c.id })} data-testid="browse-join">
                  Join
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
