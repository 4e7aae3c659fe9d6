"use client";
// The person's workspaces, one tile each, down the sidebar's left edge (shown once they belong to
// more than one; the workspace menu creates one): the current one marked, each other's unread messages and
// mentions as a badge, a click to switch. A mention in another workspace asks its counts again at once
// (`workspace:activity`, and each time the socket is subscribed again); other unread messages, every
// 20 s and when the tab comes back. The current
// one's move live with the sidebar.
import { useQuery } from "@tanstack/react-query";
import NextLink from "next/link";
import { useEffect, useState } from "react";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { colorFor, initials } from "@/components/ui/avatar";
import { PlusIcon } from "@/components/ui/icons";
import { CreateWorkspaceDialog } from "@/components/workspace/create-workspace-dialog";
import { workspacePath } from "./workspace-paths";

const REFRESH_MS = 20_000;

export function WorkspaceRail() {
  const trpc = useTRPC();
  const { workspace } = useViewer();
  const [creating, setCreating] = useState(false);
  const mine = useQuery({ ...trpc.workspaces.mine.queryOptions(), refetchInterval: REFRESH_MS, refetchOnWindowFocus: true });
  const options = useQuery(trpc.workspace.signUpOptions.queryOptions());
  useSocketEvent("workspace:activity", ({ workspaceId }) => {
    if (workspaceId !== workspace.id) void mine.refetch({ cancelRefetch: false });
  });
  // Each time the socket is subscribed (again): what it may have missed before.
  const { readyEpoch } = useSocket();
  const { refetch } = mine;
  useEffect(() => {
    if (readyEpoch > 0) void refetch({ cancelRefetch: false });
  }, [readyEpoch, refetch]);
  const workspaces = mine.data ?? [];
  const mayCreate = options.data?.mayCreate ?? false;
  if (workspaces.length < 2) return null;

  return (
    <div className="flex h-full w-[60px] shrink-0 flex-col items-center gap-2 overflow-y-auto bg-zinc-950 py-3" data-testid="workspace-rail">
      <ul className="flex flex-col items-center gap-2" aria-label="Your workspaces">
        {workspaces.map((w) => {
          const current = w.id === workspace.id;
          const label = `${w.name}${current ? " (this workspace)" : ""}${!current && w.mentions ? `, ${w.mentions} mentions` : ""}${!current && w.unread ? `, ${w.unread} unread` : ""}`;
          return (
            <li key={w.id} className="relative">
              <NextLink
                href={workspacePath(w.id, "/")}
                aria-label={label}
                aria-current={current ? "page" : undefined}
                title={w.name}
                data-testid="workspace-tile"
                data-workspace={w.id}
                className={`flex h-10 w-10 items-center justify-center rounded-xl text-sm font-bold text-white transition focus-visible:ring-2 focus-visible:ring-indigo-300 focus-visible:outline-none ${colorFor(w.id)} ${
                  current ? "ring-2 ring-white ring-offset-2 ring-offset-zinc-950" : "hover:rounded-lg"
                }`}
              >
                {initials(w.name)}
              </NextLink>
              {!current && <Badge unread={w.unread} mentions={w.mentions} />}
            </li>
          );
        })}
      </ul>
      {mayCreate && (
        <button
          type="button"
          onClick={() => setCreating(true)}
          aria-label="Create a workspace"
          title="Create a workspace"
          data-testid="create-workspace"
          className="flex h-10 w-10 items-center justify-center rounded-xl border border-dashed border-zinc-600 text-zinc-400 hover:border-zinc-400 hover:text-white focus-visible:ring-2 focus-visible:ring-indigo-300 focus-visible:outline-none"
        >
          <PlusIcon size={18} />
        </button>
      )}
      <CreateWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}

/** Mentions as a red count; other unread messages as a white dot. */
function Badge({ unread, mentions }: { unread: number; mentions: number }) {
  if (mentions > 0) {
    return (
      <span
        className="absolute -top-1 -right-1 min-w-[18px] rounded-full bg-rose-500 px-1 text-center text-[11px] leading-[18px] font-bold text-white ring-2 ring-zinc-950"
        data-testid="workspace-mentions"
        aria-hidden="true"
      >
        {mentions > 99 ? "99+" : mentions}
      </span>
    );
  }
  if (unread > 0)
    return (
      <span className="absolute top-0 -right-0.5 h-2.5 w-2.5 rounded-full bg-white ring-2 ring-zinc-950" data-testid="workspace-unread" aria-hidden="true" />
    );
  return null;
}
