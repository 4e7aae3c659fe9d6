"use client";
// "Mark unread from here", in every tab of the viewer: the server tells the viewer's sockets
// (`room:unread`) and the sidebar shows the room's badge again from the server's counts.
import { useEffect } from "react";
import { useSocket } from "@/components/providers/socket-provider";
import { useSidebarCache } from "./sidebar-cache";

/** Mount once (the sidebar does). */
export function useUnreadMarks(): void {
  const { socket } = useSocket();
  const sidebar = useSidebarCache();
  useEffect(() => {
    if (!socket) return;
    const onUnread = (p: { roomId: string }) => void sidebar.markUnread(p.roomId);
    socket.on("room:unread", onUnread);
    return () => {
      socket.off("room:unread", onUnread);
    };
  }, [socket, sidebar]);
}
