// Reactions, pins and "mark unread" on the real server, on both databases: a reaction toggled by a
// person reaches the room live and stays on the message in history; an agent reacts over the socket
// and over MCP; refusals have stable codes (a non-member, a bad emoji, too many kinds of emoji); an
// approval that allows it is answered by a reaction of someone it is for, and only then; pins are
// live, listed and audited; "mark unread" moves the member's read cursor back and the unread count up.
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Ack } from "@switchboard/sdk";
import type { MessageView } from "@switchboard/sdk/contract";
import type { QuestionForViewer } from "@switchboard/sdk/questions";
import { COMMON_EMOJI, MAX_REACTIONS_PER_MESSAGE, type ReactionsChange } from "@switchboard/sdk/reactions";
import { closeSockets, collect, createAgent, dialects, emitAck, errorCode, openAgentSocket, unwrap, waitFor, type Person } from "./harness";
import { startWorkspace, type Workspace } from "./factories";

describe.each(dialects)("reactions, pins and mark unread (%s)", (dialect) => {
  let ws: Workspace<"dana" | "erin" | "fay">;
  let dana: Person; // the owner; owns the bot
  let erin: Person; // a member of #crew
  let fay: Person; // in no room
  let bot: { id: string; apiKey: string };
  let crew: { id: string };
  let hidden: { id: string };
  const mcp = new Set<Client>();

  beforeAll(async () => {
    ws = await startWorkspace(dialect, { people: { dana: "owner", erin: "member", fay: "member" }, liftRates: true });
    ({ dana, erin, fay } = ws.people);
    bot = await createAgent(dana, `reactor-${dialect}`);
    crew = await dana.api.rooms.createChannel.mutate({ name: `crew-${dialect}`, visibility: "public", memberIds: [erin.participantId, bot.id] });
    hidden = await dana.api.rooms.createChannel.mutate({ name: `hidden-${dialect}`, visibility: "private", memberIds: [] });
  });
  afterEach(async () => {
    closeSockets();
    await Promise.all([...mcp].map((c) => c.close()));
    mcp.clear();
  });
  afterAll(() => ws?.server.dispose());

  const send = (who: Person, body: string, roomId = crew.id) => who.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID() });
  const inHistory = async (who: Person, id: string): Promise<MessageView> =>
    (await who.api.messages.history.query({ roomId: crew.id, limit: 200 })).messages.find((m) => m.id === id)!;

  it("toggles a person's reaction, live to the room, and keeps it on the message in history and sync", async () => {
    const message = await send(erin, "Shipping the release at noon");
    const socket = await erin.socket();
    const seen = collect(socket, "message:reactions");
    const added = await dana.api.messages.react.mutate({ messageId: message.id, emoji: "🎉" });
    expect(added).toEqual({
      roomId: crew.id,
      seq: message.seq,
      messageId: message.id,
      reactions: [{ emoji: "🎉", count: 1, participantIds: [dana.participantId] }],
    });
    await waitFor(() => seen.length === 1, 10_000, "the reaction event");
    expect(seen[0]).toEqual(added);
    // Erin adds the same emoji, and another; doing it twice changes nothing.
    await erin.api.messages.react.mutate({ messageId: message.id, emoji: "🎉" });
    await erin.api.messages.react.mutate({ messageId: message.id, emoji: "🎉" });
    const both = await erin.api.messages.react.mutate({ messageId: message.id, emoji: "👍" });
    expect(both.reactions).toEqual([
      { emoji: "🎉", count: 2, participantIds: [dana.participantId, erin.participantId] },
      { emoji: "👍", count: 1, participantIds: [erin.participantId] },
    ]);
    expect((await inHistory(dana, message.id)).reactions).toEqual(both.reactions);
    const synced = await dana.api.messages.sync.query({ roomId: crew.id, afterSeq: message.seq - 1, limit: 1 });
    expect(synced.messages[0].reactions).toEqual(both.reactions);
    // Taking it back: Dana's goes, Erin's stays; an emoji nobody uses any more is gone.
    await dana.api.messages.react.mutate({ messageId: message.id, emoji: "🎉", on: false });
    const after = await erin.api.messages.react.mutate({ messageId: message.id, emoji: "👍", on: false });
    expect(after.reactions).toEqual([{ emoji: "🎉", count: 1, participantIds: [erin.participantId] }]);
    await waitFor(() => seen.length === 5, 10_000, "every change told"); // not the repeated add: nothing changed
    expect(seen.at(-1)).toEqual(after);
  });

  it("refuses non-members, bad emoji and a message's 21st kind of emoji, with stable codes", async () => {
    const message = await send(dana, "React to me");
    const secret = await send(dana, "Nobody else sees this", hidden.id);
    expect(await errorCode(fay.api.messages.react.mutate({ messageId: secret.id, emoji: "👍" }))).toBe("MESSAGE_NOT_FOUND");
    expect(await errorCode(fay.api.messages.react.mutate({ messageId: message.id, emoji: "👍" }))).toBe("NOT_A_MEMBER"); // a public channel she has not joined
    expect(await errorCode(erin.api.messages.react.mutate({ messageId: "no-such-message", emoji: "👍" }))).toBe("MESSAGE_NOT_FOUND");
    for (const bad of ["", "a", "ok", "👍👍", "👍 x", "🙂x", "1", "x".repeat(40), "<b>"]) {
      expect(await errorCode(erin.api.messages.react.mutate({ messageId: message.id, emoji: bad })), JSON.stringify(bad)).toBe("INVALID_PAYLOAD");
    }
    // One grapheme of many code points is one emoji: a family, a flag, a skin tone, a keycap.
    for (const good of ["👨‍👩‍👧‍👦", "🇫🇷", "👍🏽", "1️⃣"]) await erin.api.messages.react.mutate({ messageId: message.id, emoji: good });
    const more = COMMON_EMOJI.filter((e) => !["👍"].includes(e)).slice(0, MAX_REACTIONS_PER_MESSAGE - 4);
    for (const emoji of more) await erin.api.messages.react.mutate({ messageId: message.id, emoji });
    expect((await inHistory(erin, message.id)).reactions).toHaveLength(MAX_REACTIONS_PER_MESSAGE);
    expect(await errorCode(dana.api.messages.react.mutate({ messageId: message.id, emoji: "🦄" }))).toBe("LIMIT_REACHED");
    // Joining one already there is no new kind.
    const joined = await dana.api.messages.react.mutate({ messageId: message.id, emoji: more[0] });
    expect(joined.reactions.find((r) => r.emoji === more[0])?.count).toBe(2);
    // A deleted message takes none.
    await dana.api.messages.delete.mutate({ messageId: message.id });
    expect(await errorCode(erin.api.messages.react.mutate({ messageId: message.id, emoji: "👍" }))).toBe("FORBIDDEN");
  });

  it("lets an agent react over the socket and over MCP, seen live by people", async () => {
    const message = await send(dana, "Bot, did you see the failing build?");
    const people = collect(await dana.socket(), "message:reactions");
    const socket = await openAgentSocket(ws.server.url, bot.apiKey);
    const change = unwrap(await emitAck<Ack<ReactionsChange>>(socket, "message:react", { messageId: message.id, emoji: "👀" }));
    expect(change.reactions).toEqual([{ emoji: "👀", count: 1, participantIds: [bot.id] }]);
    const bad = await emitAck<Ack<unknown>>(socket, "message:react", { messageId: message.id, emoji: "looking" });
    expect(bad.ok ? "ok" : bad.error.code).toBe("INVALID_PAYLOAD");

    const client = new Client({ name: "reactions-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/api/mcp", ws.server.url), { requestInit: { headers: { Authorization: `Bearer ${bot.apiKey}` } } }),
    );
    mcp.add(client);
    const result = (await client.callTool({ name: "react", arguments: { message_id: message.id, emoji: "✅" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      message_id: message.id,
      reactions: [
        { emoji: "👀", count: 1 },
        { emoji: "✅", count: 1 },
      ],
    });
    const off = (await client.callTool({ name: "react", arguments: { message_id: message.id, emoji: "👀", on: false } })) as CallToolResult;
    expect(off.structuredContent).toEqual({ message_id: message.id, reactions: [{ emoji: "✅", count: 1 }] });
    const refused = (await client.callTool({ name: "react", arguments: { message_id: message.id, emoji: "no" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    await waitFor(() => people.length === 3, 10_000, "the agent's reactions, live");
    expect(people.map((p) => p.reactions.map((r) => r.emoji))).toEqual([["👀"], ["👀", "✅"], ["✅"]]);
    // What the agent reads of the message says so too.
    const read = (await client.callTool({ name: "read_messages", arguments: { room: crew.id, after_seq: message.seq - 1, limit: 1 } })) as CallToolResult;
    expect((read.structuredContent as { messages: { reactions?: unknown }[] }).messages[0].reactions).toEqual([{ emoji: "✅", count: 1 }]);
  });

  it("answers an approval by a reaction only where the question allows it, and only by someone it is for", async () => {
    const socket = await openAgentSocket(ws.server.url, bot.apiKey);
    const ask = async (allowReactions: boolean) =>
      unwrap(
        await emitAck<Ack<QuestionForViewer>>(socket, "question:ask", {
          roomId: crew.id,
          clientMsgId: randomUUID(),
          prompt: "Deploy v2 to production?",
          kind: "approval",
          audience: { type: "owner" },
          ...(allowReactions ? { allowReactions: true } : {}),
        }),
      );
    const status = async (q: QuestionForViewer) => dana.api.questions.get.query({ questionId: q.id });

    const allowed = await ask(true);
    expect(allowed.allowReactions).toBe(true);
    await erin.api.messages.react.mutate({ messageId: allowed.messageId, emoji: "✅" }); // not hers to answer
    await dana.api.messages.react.mutate({ messageId: allowed.messageId, emoji: "👀" }); // not a decision
    expect((await status(allowed)).status).toBe("open");
    const reacted = await dana.api.messages.react.mutate({ messageId: allowed.messageId, emoji: "👍" });
    expect(reacted.reactions.map((r) => r.emoji)).toEqual(["✅", "👀", "👍"]); // the reaction stays a reaction too
    expect(await status(allowed)).toMatchObject({ status: "answered", answer: { approved: true }, answeredBy: { id: dana.participantId } });
    // Answered: a later ❌ changes nothing.
    await dana.api.messages.react.mutate({ messageId: allowed.messageId, emoji: "❌" });
    expect((await status(allowed)).answer).toEqual({ approved: true });

    const denied = await ask(true);
    await dana.api.messages.react.mutate({ messageId: denied.messageId, emoji: "👎" });
    expect(await status(denied)).toMatchObject({ status: "answered", answer: { approved: false } });

    const plain = await ask(false);
    expect(plain.allowReactions).toBe(false);
    await dana.api.messages.react.mutate({ messageId: plain.messageId, emoji: "✅" });
    expect((await status(plain)).status).toBe("open");

    // Only an approval may allow it.
    const notApproval = await emitAck<Ack<unknown>>(socket, "question:ask", {
      roomId: crew.id,
      clientMsgId: randomUUID(),
      prompt: "Which region?",
      kind: "text",
      audience: { type: "owner" },
      allowReactions: true,
    });
    expect(notApproval.ok ? "ok" : notApproval.error.code).toBe("INVALID_PAYLOAD");
  });

  it("pins and unpins live, lists the pinned messages, and audits both", async () => {
    const first = await send(erin, "Runbook: https://example.test/runbook");
    const second = await send(dana, "On call this week: @erin");
    const seen = collect(await erin.socket(), "message:pinned");
    const pinned = await erin.api.messages.pin.mutate({ messageId: first.id });
    expect(pinned.pinned).toMatchObject({ byId: erin.participantId });
    await dana.api.messages.pin.mutate({ messageId: second.id });
    await dana.api.messages.pin.mutate({ messageId: second.id }); // pinned already: no change, no event
    expect((await fay.api.messages.pinned.query({ roomId: crew.id })).map((m) => m.id)).toEqual([second.id, first.id]); // a public channel: readable
    await waitFor(() => seen.length === 2, 10_000, "the pin events");
    expect(seen.map((p) => [p.message.id, p.message.pinned !== null])).toEqual([
      [first.id, true],
      [second.id, true],
    ]);
    expect((await inHistory(erin, first.id)).pinned).toEqual(pinned.pinned);

    const unpinned = await dana.api.messages.pin.mutate({ messageId: first.id, pinned: false });
    expect(unpinned.pinned).toBeNull();
    expect((await erin.api.messages.pinned.query({ roomId: crew.id })).map((m) => m.id)).toEqual([second.id]);
    await waitFor(() => seen.length === 3, 10_000, "the unpin event");
    expect(seen[2].message).toMatchObject({ id: first.id, pinned: null });

    expect(await errorCode(fay.api.messages.pin.mutate({ messageId: second.id }))).toBe("NOT_A_MEMBER");
    expect(await errorCode(fay.api.messages.pinned.query({ roomId: hidden.id }))).toBe("ROOM_NOT_FOUND");
    const audit = await dana.api.admin.audit.query({ subjectId: first.id });
    expect(audit.map((e) => e.action)).toEqual(["message.unpinned", "message.pinned"]);
  });

  it("marks a room unread from a message: the read cursor moves back, the unread count up, the member's sockets hear it", async () => {
    const room = await dana.api.rooms.createChannel.mutate({
      name: `unread-${dialect}-${randomUUID().slice(0, 6)}`,
      visibility: "public",
      memberIds: [erin.participantId],
    });
    const sent = [];
    for (const body of ["one", "two", "three"]) sent.push(await send(dana, body, room.id));
    await erin.api.messages.markRead.mutate({ roomId: room.id, seq: sent[2].seq });
    const unread = async () => (await erin.api.rooms.mine.query()).find((r) => r.id === room.id)!;
    expect(await unread()).toMatchObject({ unread: 0, readSeq: sent[2].seq });

    const told = collect(await erin.socket(), "room:unread");
    expect(await erin.api.messages.markUnread.mutate({ messageId: sent[1].id })).toEqual({ roomId: room.id, readSeq: sent[1].seq - 1 });
    expect(await unread()).toMatchObject({ unread: 2, readSeq: sent[1].seq - 1 });
    await waitFor(() => told.length === 1, 10_000, "room:unread");
    expect(told[0]).toEqual({ roomId: room.id, readSeq: sent[1].seq - 1 });
    // Never forward: marking unread from a later message leaves the earlier mark.
    await erin.api.messages.markUnread.mutate({ messageId: sent[2].id });
    expect((await unread()).unread).toBe(2);
    // Dana's cursor is hers alone.
    expect((await dana.api.rooms.mine.query()).find((r) => r.id === room.id)?.unread).toBe(0);
    // Over the socket (a read: a read-only token may do it).
    const socket = await openAgentSocket(ws.server.url, bot.apiKey);
    const notMember = await emitAck<Ack<unknown>>(socket, "room:unread", { messageId: sent[0].id });
    expect(notMember.ok ? "ok" : notMember.error.code).toBe("NOT_A_MEMBER");
  });
});
