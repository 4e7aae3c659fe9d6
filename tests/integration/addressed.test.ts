// What is addressed to an agent in `mentions` mode is one rule (server/services/messaging/addressed.ts): an agent
// replayed from scratch is given exactly what it was sent live, message for message, in channels
// (mentions, threads it was in by then) and in direct conversations (everything but its own).
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { io as connect } from "socket.io-client";
import type { Ack, MessageView, ReplayPage } from "@switchboard/sdk/contract";
import { addMessages } from "./fixtures/crowd";
import { closeSockets, collectMessages, createAgent, dialects, emitAck, queryDb, waitFor, type ClientSocket, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

describe.each(dialects)("what is addressed to an agent, on %s", (dialect) => {
  let server: TestServer;
  let ana: Person;
  let ben: Person;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    ({
      server,
      people: { ana, ben },
    } = await startWorkspace(dialect, { people: { ana: "owner", ben: "member" } }));
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
    closeSockets();
  });
  afterAll(() => server.dispose());

  /** An agent's socket that acks every replay page, keeping them; handlers are set before it connects. */
  async function agentSocket(apiKey: string) {
    const socket: ClientSocket = connect(server.url, { path: "/socket.io", transports: ["websocket"], reconnection: false, auth: { apiKey, protocol: 1 } });
    sockets.push(socket);
    const pages: ReplayPage[] = [];
    socket.on("room:replay", (page, ack) => {
      pages.push(page);
      ack({ ok: true });
    });
    const live = collectMessages(socket).seen;
    await new Promise<void>((resolve, reject) => {
      socket.once("session:ready", () => resolve());
      socket.once("connect_error", reject);
    });
    return { socket, pages, live };
  }
  const say = (who: Person, roomId: string, body: string, threadRootId?: string) =>
    who.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID(), ...(threadRootId ? { threadRootId } : {}) });
  const replayed = (pages: ReplayPage[], roomId: string) => pages.filter((p) => p.roomId === roomId).flatMap((p) => p.messages.map((m) => m.body));

  it("replays exactly what it sent live, in channels and direct conversations", async () => {
    const { id, apiKey, agent } = await createAgent(ana, `aide-${dialect}`);
    const at = `@${agent.handle}`;
    const room = await ana.api.rooms.createChannel.mutate({ name: `rule-${dialect}`, visibility: "public", memberIds: [id, ben.participantId] });
    const dm = await ana.api.rooms.openDirect.mutate({ participantIds: [id] });
    const first = await agentSocket(apiKey);
    const own = (roomId: string, body: string, threadRootId?: string) =>
      emitAck<Ack<MessageView>>(first.socket, "message:send", { roomId, body, clientMsgId: randomUUID(), ...(threadRootId ? { threadRootId } : {}) });

    await say(ana, room.id, "chatter");
    const question = await say(ana, room.id, `${at} a question`);
    await own(room.id, "the agent answers in the thread", question.id);
    await say(ben, room.id, "a reply in a thread the agent is in", question.id);
    const other = await say(ben, room.id, "another thread");
    await say(ben, room.id, "a reply before the agent is in it", other.id);
    await say(ana, room.id, `${at} brought in by a mention`, other.id);
    await say(ben, room.id, "a reply after it is in", other.id);
    const unrelated = await say(ben, room.id, "a thread the agent is not in");
    await say(ana, room.id, "a reply there", unrelated.id);
    await say(ana, dm.id, "a direct question");
    await own(dm.id, "the agent's own direct answer");
    const sentinel = await say(ana, room.id, `${at} sentinel`);
    await waitFor(() => first.live.some((m) => m.message.id === sentinel.id), 10_000, "the sentinel");

    const live = (roomId: string) => first.live.filter((m) => m.roomId === roomId).map((m) => m.message.body);
    expect(live(room.id)).toEqual([
      `${at} a question`,
      "a reply in a thread the agent is in",
      `${at} brought in by a mention`,
      "a reply after it is in",
      `${at} sentinel`,
    ]);
    expect(live(dm.id)).toEqual(["a direct question"]);

    // From scratch: every cursor back to the start, and a new connection is replayed all it missed.
    first.socket.disconnect();
    await queryDb(server, `UPDATE "RoomMember" SET "deliveredSeq" = 0 WHERE "participantId" = $1`, [id]);
    const again = await agentSocket(apiKey);
    const done = (roomId: string) => again.pages.some((p) => p.roomId === roomId && !p.hasMore);
    await waitFor(() => done(room.id) && done(dm.id), 10_000, "both rooms replayed");
    expect(replayed(again.pages, room.id)).toEqual(live(room.id));
    expect(replayed(again.pages, dm.id)).toEqual(live(dm.id));
  });

  it("replays a long silence a window at a time: empty pages move the cursor on", async () => {
    const { id, apiKey, agent } = await createAgent(ana, `sleeper-${dialect}`);
    const room = await ana.api.rooms.createChannel.mutate({ name: `silence-${dialect}`, visibility: "public", memberIds: [id] });
    const { lastSeq: before } = await ana.api.rooms.get.query({ roomId: room.id });
    await addMessages(
      server,
      room.id,
      Array.from({ length: 21_000 }, (_, i) => ({ authorId: ben.participantId, body: `chatter ${i}`, mentions: i === 20_500 ? [id] : [] })),
    );
    await say(ana, room.id, `@${agent.handle} are you awake?`);
    const { lastSeq } = await ana.api.rooms.get.query({ roomId: room.id });
    await queryDb(server, `UPDATE "RoomMember" SET "deliveredSeq" = $1 WHERE "participantId" = $2`, [before, id]);

    const { pages } = await agentSocket(apiKey);
    await waitFor(() => pages.some((p) => !p.hasMore), 30_000, "the replay's last page");
    expect(pages.map((p) => p.messages.map((m) => m.body))).toEqual([[], ["chatter 20500", `@${agent.handle} are you awake?`]]);
    expect(pages.map((p) => p.throughSeq)).toEqual([before + 20_000, lastSeq]);
    // The last ack moves the server's cursor to the end.
    let deliveredSeq = 0;
    const cursor = async () => {
      const [row] = await queryDb<{ deliveredSeq: number }>(server, `SELECT "deliveredSeq" FROM "RoomMember" WHERE "participantId" = $1`, [id]);
      deliveredSeq = Number(row.deliveredSeq);
    };
    await waitFor(() => deliveredSeq === lastSeq, 10_000, `the cursor at ${lastSeq} (it is at ${deliveredSeq})`, cursor);
  });
});
