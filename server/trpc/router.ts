import { router } from "./init";
import { a2aRouter } from "./routers/a2a";
import { adminRouter } from "./routers/admin";
import { agentsRouter } from "./routers/agents";
import { connectionsRouter, directoryRouter } from "./routers/connections";
import { messagesRouter } from "./routers/messages";
import { bindingsRouter } from "./routers/bindings";
import { questionsRouter } from "./routers/questions";
import { notificationsRouter } from "./routers/notifications";
import { profileRouter } from "./routers/profile";
import { roomsRouter } from "./routers/rooms";
import { searchRouter } from "./routers/search";
import { tokensRouter } from "./routers/tokens";
import { usageRouter } from "./routers/usage";
import { workRouter } from "./routers/work";
import { turnsRouter } from "./routers/turns";
import { workspaceRouter } from "./routers/workspace";
import { workspacesRouter } from "./routers/workspaces";
import { workspaceConnectionsRouter } from "./routers/workspace-connections";

export const appRouter = router({
  workspace: workspaceRouter,
  workspaces: workspacesRouter,
  workspaceConnections: workspaceConnectionsRouter,
  rooms: roomsRouter,
  messages: messagesRouter,
  search: searchRouter,
  agents: agentsRouter,
  directory: directoryRouter,
  connections: connectionsRouter,
  admin: adminRouter,
  usage: usageRouter,
  tokens: tokensRouter,
  questions: questionsRouter,
  bindings: bindingsRouter,
  notifications: notificationsRouter,
  profile: profileRouter,
  work: workRouter,
  turns: turnsRouter,
  a2a: a2aRouter,
});

export type AppRouter = typeof appRouter;
