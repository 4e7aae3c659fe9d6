"use client";
// Desktop notifications while the tab is hidden: new messages `notificationFor` says the person wants
// (a mention; under `all`, every dm and group message), never their own, and questions asked of them.
// A visible tab shows these itself, so it raises nothing.
import { useQuery } from "@tanstack/react-query";
import { excerptOf, notificationFor, type MessageView } from "@switchboard/sdk/contract";
import { useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { notifyInBrowser } from "./browser-notifications";
import { useRouter } from "@/components/nav/workspace-routing";

export function useMessageNotifications(): void {
  const trpc = useTRPC();
  const router = useRouter();
  const { me } = useViewer();
  const settings = useQuery(trpc.notifications.settings.queryOptions());
  // The sidebar's query: already loaded, so this costs no request.
  const rooms = useQuery(trpc.rooms.mine.queryOptions());

  const onMessage = async (roomId: string, message: MessageView) => {
    if (document.visibilityState !== "hidden" || !settings.data) return;
    const { notifications } = settings.data;
    // A room joined since the list was read (the sidebar keeps its own copy fresh) is read again once.
    const room = rooms.data?.find((r) => r.id === roomId) ?? (await rooms.refetch({ cancelRefetch: false })).data?.find((r) => r.id === roomId);
    if (!room) return;
    const why = notificationFor(message, { id: me.id, notifications }, room.kind);
    if (!why) return;
    const author = message.author.displayName;
    const where = room.kind === "channel" ? `#${room.title}` : room.title;
    notifyInBrowser({
      title: why === "mention" ? `${author} mentioned you in ${where}` : `${author} in ${where}`,
      body: excerptOf(message.body, 140),
      url: `/r/${roomId}`,
      // One per room: a burst updates the room's notification instead of stacking a pile of them.
      tag: `room:${roomId}`,
      open: (url) => router.push(url),
    });
  };
  // A question for me (the server says whom it is for): asked while I am away from the tab.
  useSocketEvent("question:updated", ({ question, forYou }) => {
    if (!forYou || question.status !== "open" || question.asker.id === me.id) return;
    if (document.visibilityState !== "hidden" || !settings.data || settings.data.notifications === "none") return;
    notifyInBrowser({
      title: `${question.asker.displayName} asks you`,
      body: excerptOf(question.prompt, 140),
      url: `/r/${question.roomId}`,
      tag: `question:${question.id}`,
      open: (url) => router.push(url),
    });
  });
  useSocketEvent("message:new", ({ roomId, message }) => void onMessage(roomId, message));
  useSocketEvent("message:batch", ({ roomId, messages }) => {
    for (const message of messages) void onMessage(roomId, message);
  });
}
