// A message's link: its room, the message to show and highlight there, and the thread it replies in.
import type { MessageView } from "@switchboard/sdk/contract";

export function messageHref(m: Pick<MessageView, "id" | "roomId" | "threadRootId">): string {
  const params = new URLSearchParams({ message: m.id });
  if (m.threadRootId) params.set("thread", m.threadRootId);
  return `/r/${m.roomId}?${params}`;
}
