"use client";
// An avatar for a participant known by id (a message's author): its image from the directory, when
// it has one, else its initials.
import type { ParticipantKind } from "@switchboard/sdk/contract";
import { Avatar } from "@/components/ui/avatar";
import { useDirectoryEntry } from "./directory-entry";

export function ParticipantAvatar({ id, name, kind, size }: { id: string; name: string; kind: ParticipantKind; size?: number }) {
  const entry = useDirectoryEntry(id);
  return <Avatar id={id} name={name} kind={kind} size={size} src={entry?.avatarUrl} />;
}
