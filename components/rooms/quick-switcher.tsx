"use client";
// Ctrl/Cmd+K: type a few letters, arrow to a room or a person, Enter to go.
import { useMutation } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type KeyboardEvent } from "react";
import type { RoomView } from "@switchboard/sdk/contract";
import { useDirectory } from "@/components/providers/directory";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { Dialog } from "@/components/ui/dialog";
import { HashIcon, LockIcon, SearchIcon } from "@/components/ui/icons";
import { useRouter } from "@/components/nav/workspace-routing";

const optionId = (index: number) => `switcher-option-${index}`;

type Option =
  | { key: string; type: "room"; room: RoomView; label: string }
  | { key: string; type: "person"; id: string; label: string; handle: string; kind: "human" | "agent" };

export function QuickSwitcher({ open, onClose, rooms }: { open: boolean; onClose: () => void; rooms: RoomView[] }) {
  return (
    <Dialog open={open} onClose={onClose} title="Jump to a conversation" width="max-w-xl" testId="quick-switcher">
      {open && <SwitcherBody rooms={rooms} onClose={onClose} />}
    </Dialog>
  );
}

function SwitcherBody({ rooms, onClose }: { rooms: RoomView[]; onClose: () => void }) {
  const router = useRouter();
  const trpc = useTRPC();
  const { me } = useViewer();
  const { participants } = useDirectory();
  const [query, setQuery] = useState("");
  const [index, setIndex] = useState(0);
  const openDirect = useMutation(trpc.rooms.openDirect.mutationOptions());

  const options = useMemo<Option[]>(() => {
    const q = query.trim().toLowerCase().replace(/^[#@]/, "");
    const roomOptions: Option[] = rooms
      .filter((r) => !q || r.title.toLowerCase().includes(q))
      .map((r) => ({ key: `r:${r.id}`, type: "room", room: r, label: r.title }));
    const people: Option[] = q
      ? participants
          .filter((p) => p.id !== me.id && (p.handle.includes(q) || p.displayName.toLowerCase().includes(q)))
          .map((p) => ({ key: `p:${p.id}`, type: "person", id: p.id, label: p.displayName, handle: p.handle, kind: p.kind }))
      : [];
    return [...roomOptions, ...people].slice(0, 12);
  }, [query, rooms, participants, me.id]);

  useEffect(() => setIndex(0), [query]);

  const choose = async (option: Option | undefined) => {
    if (!option) return;
    if (option.type === "room") {
      onClose();
      router.push(`/r/${option.room.id}`);
      return;
    }
    const room = await openDirect.mutateAsync({ participantIds: [option.id] });
    onClose();
    router.push(`/r/${room.id}`);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setIndex((i) => Math.min(i + 1, options.length - 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setIndex((i) => Math.max(i - 1, 0));
    } else if (e.key === "Enter") {
      e.preventDefault();
      void choose(options[index]);
    }
  };

  return (
    <div>
      <div className="relative">
        <SearchIcon size={18} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-zinc-400" />
        <input
          autoFocus
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Channels, people and agents"
          className="block w-full rounded-lg border-0 bg-zinc-100 py-2.5 pr-3 pl-10 text-[15px] placeholder:text-zinc-600 focus:bg-white focus:ring-2 focus:ring-indigo-500 focus:outline-none"
          data-testid="switcher-input"
          role="combobox"
          aria-label="Jump to"
          aria-expanded="true"
          aria-controls="switcher-options"
          aria-activedescendant={options[index] ? optionId(index) : undefined}
        />
      </div>
      {options.length === 0 && <p className="px-3 py-6 text-center text-sm text-zinc-500">Nothing matches “{query}”.</p>}
      {/* The options are the listbox's own (focus stays in the field, arrows move the active one): a button
          inside an option would nest one control in another. */}
      <ul id="switcher-options" role="listbox" aria-label="Conversations" className="mt-3 space-y-px">
        {options.map((o, i) => (
          <li key={o.key} id={optionId(i)} role="option" aria-selected={i === index} onMouseEnter={() => setIndex(i)} onClick={() => void choose(o)}>
            <div
              className={`flex w-full cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-left text-sm ${i === index ? "bg-indigo-600 text-white" : "text-zinc-800"}`}
            >
              {o.type === "room" ? (
                o.room.kind === "channel" ? (
                  o.room.visibility === "private" ? (
                    <LockIcon size={16} />
                  ) : (
                    <HashIcon size={16} />
                  )
                ) : (
                  <Avatar id={o.room.id} name={o.room.title} kind="human" size={20} />
                )
              ) : (
                <Avatar id={o.id} name={o.label} kind={o.kind} size={20} />
              )}
              <span className="flex-1 truncate font-medium">{o.label}</span>
              {o.type === "person" && (
                <>
                  <KindBadge kind={o.kind} />
                  <span className={`text-xs ${i === index ? "text-indigo-100" : "text-zinc-500"}`}>@{o.handle}</span>
                </>
              )}
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-3 border-t border-zinc-100 pt-3 text-xs text-zinc-500">↑↓ to move · Enter to open · Esc to close</p>
    </div>
  );
}
