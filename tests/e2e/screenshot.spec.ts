// The README's picture: a channel where people and agents work together, with a thread and the
// member list open. Agents connect over the real socket API with API keys, as any agent would.
import { mkdirSync } from "node:fs";
import { expect, test } from "./fixtures";
import { io, type Socket } from "socket.io-client";
import type { ClientToServerEvents, MessageView, RoomView, ServerToClientEvents } from "@switchboard/sdk/contract";
import { createInviteLink, messageWithText, people, send, signUpFirstOrSignIn, signUpWithInvite, trpc } from "./helpers";

type AgentSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

test("docs screenshot: a room where people and agents work together", async ({ browser, baseURL }) => {
  const ctxA = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 2 });
  const ctxM = await browser.newContext();
  const a = await ctxA.newPage();
  const m = await ctxM.newPage();
  const agents: AgentSocket[] = [];

  try {
    await signUpFirstOrSignIn(a, people.alice);
    await signUpWithInvite(m, await createInviteLink(a), people.maya, people.alice.name);

    const newAgent = async (handle: string, displayName: string, description: string, framework: string) => {
      const { agent, apiKey } = await trpc<{ agent: { id: string }; apiKey: string }>(a, "agents.create", {
        handle,
        displayName,
        description,
        framework,
        capabilities: [],
      });
      const socket: AgentSocket = io(baseURL!, { path: "/socket.io", auth: { apiKey }, transports: ["websocket"] });
      agents.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once("session:ready", () => resolve());
        socket.once("connect_error", reject);
      });
      return { id: agent.id, socket };
    };
    const scout = await newAgent("scout", "Scout", "Reviews pull requests and hunts flaky tests.", "claude-code");
    const scribe = await newAgent("scribe", "Scribe", "Keeps the changelog and docs current.", "langgraph");

    const participants = await trpc<{ id: string; handle: string }[]>(a, "workspace.participants", undefined, "query");
    const maya = participants.find((p) => p.handle === "maya")!;
    const room = await trpc<RoomView>(a, "rooms.createChannel", {
      name: "sdk-launch",
      visibility: "public",
      topic: "Shipping the TypeScript SDK v1 with people and agents",
      memberIds: [maya.id, scout.id, scribe.id],
    });

    // Alice watches the room while the conversation happens: everything below arrives live.
    await a.goto(`/r/${room.id}`);
    await expect(a.getByTestId("room-title")).toHaveText("sdk-launch");

    let n = 0;
    const agentSays = async (agent: AgentSocket, body: string, threadRootId?: string, roomId = room.id) => {
      const reply = await agent
        .timeout(10_000)
        .emitWithAck("message:send", { roomId, body, clientMsgId: `shot-${++n}`, ...(threadRootId ? { threadRootId } : {}) });
      if (!reply.ok) throw new Error(reply.error.message);
      return reply.data;
    };
    const personSays = async (page: typeof a, body: string, threadRootId?: string, roomId = room.id) =>
      trpc<MessageView>(page, "messages.send", { roomId, body, clientMsgId: `shot-${++n}`, ...(threadRootId ? { threadRootId } : {}) });

    await personSays(a, "Morning all. Goal for today: cut **v1.0** of the TypeScript SDK.");
    const review = await agentSays(
      scout.socket,
      "I went through the open PRs. Two block the release:\n\n1. `reconnect()` drops the delivery cursor when the socket flaps\n2. the `send_message` tool schema has no `threadRootId`\n\nI'll take the first one.",
    );
    const ask = await personSays(m, "@scout yes please. I'll pair with @scribe on the tool schema.");
    const receipt = async (agent: AgentSocket, state: "processing" | "processed") => {
      const reply = await agent.timeout(10_000).emitWithAck("message:receipt", { messageId: ask.id, state });
      if (!reply.ok) throw new Error(reply.error.message);
    };
    await receipt(scout.socket, "processed");
    await agentSays(scribe.socket, "Changelog draft is up in `docs/changelog.md`; I'll keep it current as PRs land.");
    await personSays(m, "Is the cursor bug the one behind the flaky integration test?", review.id);
    await agentSays(scout.socket, "Same root cause: replay restarted from seq 0 after a reconnect. It now resumes from the server-side cursor.", review.id);
    await personSays(a, "Nice catch. Can you add a test that kills the socket mid-replay?", review.id);
    await agentSays(
      scout.socket,
      "Added: `replays after a dropped connection` kills the socket after 3 of 5 pages. Green on SQLite and PostgreSQL.",
      review.id,
    );
    await agentSays(scout.socket, "Fix is in **#142**: the cursor survives reconnects, with the new test. Ready for review.");
    await personSays(a, "Great work. We ship at **3 pm** unless CI turns red.");

    // Something waiting elsewhere, so the sidebar shows unread and mention badges.
    const dm = await trpc<RoomView>(a, "rooms.openDirect", { participantIds: [scout.id] });
    await agentSays(scout.socket, "Your review queue: #142 and #145 are waiting on you.", undefined, dm.id);
    const general = (await trpc<(RoomView & { name: string | null })[]>(a, "rooms.mine", undefined, "query")).find((r) => r.name === "general")!;
    await personSays(m, "@alice the onboarding doc for new agents is ready for a look.", undefined, general.id);

    const root = messageWithText(a, "I went through the open PRs. Two block the release:");
    await expect(messageWithText(a, "Great work. We ship at 3 pm unless CI turns red.")).toBeVisible();
    await root.getByTestId("thread-summary").click();
    await expect(a.getByTestId("thread-replies").getByTestId("message")).toHaveCount(4);
    await a.getByTestId("toggle-members").click();
    await expect(a.locator('[data-testid="member"][data-online="true"]')).toHaveCount(4);
    await expect(a.locator('[data-testid="sidebar-room"][data-title="general"] [data-testid="mention-badge"]')).toHaveText("@1");
    await expect(a.locator('[data-testid="sidebar-room"][data-title="Scout"] [data-testid="unread-count"]')).toHaveText("1");

    // Live: an agent's receipt, Maya's reply, and Scribe typing.
    const asked = messageWithText(a, "@scout yes please. I'll pair with @scribe on the tool schema.");
    await expect(asked.getByTestId("receipt")).toHaveCount(1);
    await receipt(scribe.socket, "processing");
    await expect(asked.getByTestId("receipt")).toHaveCount(2);
    await expect(asked.locator('[data-testid="receipt"][data-state="processing"]')).toContainText("Scribe");
    await m.goto(`/r/${room.id}`);
    await send(m, "Reviewing #142 now.");
    await expect(messageWithText(a, "Reviewing #142 now.")).toBeVisible();
    scribe.socket.emit("room:typing", { roomId: room.id });
    await expect(a.getByTestId("typing-indicator").first()).toContainText("Scribe is typing");
    await a.mouse.move(0, 0);

    mkdirSync("docs", { recursive: true });
    await a.screenshot({ path: "docs/screenshot.png" });
  } finally {
    for (const s of agents) s.close();
    await Promise.all([ctxA.close(), ctxM.close()]);
  }
});
