import { router } from "./init";
import { messagesRouter } from "./routers/messages";
import { roomsRouter } from "./routers/rooms";
import { workspaceRouter } from "./routers/workspace";

export const appRouter = router({
  workspace: workspaceRouter,
  rooms: roomsRouter,
  messages: messagesRouter,
});

export type AppRouter = typeof appRouter;
