// Reads any client can trigger are bounded by what they answer, not by how large a room, a thread, an
// agent's history or the workspace has grown. Each case builds something large straight in the
// database (fixtures/crowd.ts), then counts the rows the server's statements return while it answers
// (fixtures/query-counter.ts): a read that loads the whole room, thread or workspace shows up as
// hundreds of rows.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { io as connect } from "socket.io-client";
import type { Ack, MembershipView, MessageView, RoomView } from "@switchboard/sdk/contract";
import type { QueryCount } from "./fixtures/query-counter";
import { addCrowd, addMessages, workspaceOf } from "./fixtures/crowd";
import {
  closeSockets,
  collect,
  collectMessages,
  createAgent,
  dialects,
  emitAck,
  openAgentSocket,
  queryDb,
  signUpPerson,
  waitFor,
  type ClientSocket,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

describe.each(dialects)("bounded reads on %s", (dialect) => {
  let server: TestServer;
  let ana: Person;
  let ben: Person;
  let workspaceId: string;
  let inviteToken: string;

  beforeAll(async () => {
    ({
      server,
      people: { ana, ben },
      inviteToken,
    } = await startWorkspace(dialect, { people: { ana: "owner", ben: "member" }, invite: { maxUses: 20 }, countQueries: true }));
    workspaceId = await workspaceOf(server, ana.participantId);
  });
  afterEach(() => closeSockets());
  afterAll(() => server.dispose());

  /** Runs `fn` and counts what the server read meanwhile. */
  async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; count: QueryCount }> {
    await server.queries.reset();
    const result = await fn();
    return { result, count: await server.queries.read() };
  }
  /** The statements that returned many rows: what a failed bound prints. */
  const heavy = (count: QueryCount) =>
    `${count.rows} rows in ${count.statements} statements:\n` +
    count.log
      .filter((s) => s.rows >= 10)
      .map((s) => `  ${s.rows} rows: ${s.sql}`)
      .join("\n");

  const channel = (name: string, memberIds: string[] = []) =>
    ana.api.rooms.createChannel.mutate({ name: `${name}-${dialect}`, visibility: "public", memberIds });
  const say = (who: Person, roomId: string, body: string, threadRootId?: string) =>
    who.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID(), ...(threadRootId ? { threadRootId } : {}) });

  /** A socket for a person, and the rooms its `session:ready` listed. */
  async function session(person: Person): Promise<MembershipView[]> {
    const socket: ClientSocket = connect(server.url, {
      path: "/socket.io",
      transports: ["websocket"],
      extraHeaders: { cookie: person.cookie },
      reconnection: false,
    });
    try {
      return await new Promise<MembershipView[]>((resolve, reject) => {
        socket.once("session:ready", (p) => resolve(p.rooms));
        socket.once("connect_error", reject);
      });
    } finally {
      socket.disconnect();
    }
  }

  it("connects and lists the sidebar reading the person's rooms, not their members", async () => {
    const crowded = await channel("crowded");
    await addCrowd(server, { workspaceId, prefix: "crowd", count: 300, roomIds: [crowded.id] });
    const carl = await signUpPerson(server, { handle: "carl", inviteToken });
    await carl.api.rooms.join.mutate({ roomId: crowded.id });
    const dm = await carl.api.rooms.openDirect.mutate({ participantIds: [ana.participantId] });
    const group = await carl.api.rooms.openDirect.mutate({ participantIds: [ana.participantId, ben.participantId] });

    const expected = (rooms: RoomView[]) => {
      expect(rooms.find((r) => r.id === crowded.id)).toMatchObject({ title: `crowded-${dialect}`, memberCount: 302 });
      expect(rooms.find((r) => r.id === dm.id)).toMatchObject({ kind: "dm", title: "Ana", memberCount: 2 });
      expect(rooms.find((r) => r.id === group.id)).toMatchObject({ kind: "group", title: "Ana, Ben", memberCount: 3 });
    };
    const ready = await counted(() => session(carl));
    expected(ready.result.map((m) => m.room));
    expect(ready.count.rows, heavy(ready.count)).toBeLessThan(60);
    const mine = await counted(() => carl.api.rooms.mine.query());
    expected(mine.result);
    expect(mine.count.rows, heavy(mine.count)).toBeLessThan(60);
  });

  it("names at most eight others in a group's title, however many were invited", async () => {
    const others = await addCrowd(server, { workspaceId, prefix: "many", count: 12, displayName: (i) => `Many ${String.fromCharCode(65 + i)}` });
    const group = await ana.api.rooms.openDirect.mutate({ participantIds: others.slice(0, 8).map((p) => p.id) });
    expect(group.title).toBe("Many A, Many B, Many C, Many D, Many E, Many F, Many G, Many H");
    await ana.api.rooms.invite.mutate({ roomId: group.id, participantIds: others.slice(8).map((p) => p.id) });
    const view = await ana.api.rooms.get.query({ roomId: group.id });
    expect(view).toMatchObject({ memberCount: 13, title: "Many A, Many B, Many C, Many D, Many E, Many F, Many G, Many H and 4 more" });
  });

  it("invites 100 people reading each of them a few times, not the room once per person", async () => {
    const room = await channel("hosting");
    await addCrowd(server, { workspaceId, prefix: "host", count: 200, roomIds: [room.id] });
    const guests = await addCrowd(server, { workspaceId, prefix: "guest", count: 99 });
    const dora = await signUpPerson(server, { handle: "dora", inviteToken });
    const added = collect(await dora.socket(), "room:added");
    const invited = await counted(() => ana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [...guests.map((g) => g.id), dora.participantId] }));
    expect(invited.result.memberCount).toBe(301);
    expect(invited.count.rows, heavy(invited.count)).toBeLessThan(1000);
    await waitFor(() => added.length === 1, 10_000, "room:added");
    expect(added[0].room).toMatchObject({ id: room.id, title: `hosting-${dialect}`, memberCount: 301 });
  });

  it("resolves @mentions by looking up only the handles a message names", async () => {
    const room = await channel("named");
    const crowd = await addCrowd(server, { workspaceId, prefix: "named", count: 300, roomIds: [room.id] });
    const sent = await counted(() => say(ana, room.id, "@named0150 and @named0007, not @nobody-here nor @ben (not in the room)"));
    expect([...sent.result.mentions].sort()).toEqual([crowd[150].id, crowd[7].id].sort());
    expect(sent.count.rows, heavy(sent.count)).toBeLessThan(40);
  });

  it("pages a room's work timeline reading a page of each source, not the room; 400 messages of one instant page without gaps", async () => {
    const room = await channel("busy-timeline", [ben.participantId]);
    await addMessages(
      server,
      room.id,
      Array.from({ length: 400 }, (_, i) => ({ authorId: i % 2 ? ana.participantId : ben.participantId, body: `said ${i}` })),
    );
    const first = await counted(() => ana.api.work.timeline.query({ roomId: room.id, limit: 20 }));
    expect(first.result.events).toHaveLength(20);
    expect(first.result.nextCursor).not.toBeNull();
    expect(first.count.rows, heavy(first.count)).toBeLessThan(120);
    const second = await counted(() => ana.api.work.timeline.query({ roomId: room.id, limit: 20, cursor: first.result.nextCursor! }));
    expect(second.count.rows, heavy(second.count)).toBeLessThan(120);
    const ids = new Set([...first.result.events, ...second.result.events].map((e) => e.id));
    expect(ids.size).toBe(40);
    expect(second.result.events.at(-1)!.id < first.result.events[0].id).toBe(true); // one instant: ordered by id
  });

  it("pages a thread's replies, newest first, with a cursor", async () => {
    const room = await channel("long-thread", [ben.participantId]);
    const root = await say(ana, room.id, "a long thread");
    await addMessages(
      server,
      room.id,
      Array.from({ length: 120 }, (_, i) => ({ authorId: i % 2 ? ana.participantId : ben.participantId, body: `reply ${i}`, threadRootId: root.id })),
    );
    const bodies = (replies: MessageView[]) => replies.map((r) => r.body);
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `reply ${from + i}`);

    const first = await counted(() => ben.api.messages.thread.query({ messageId: root.id, limit: 50 }));
    expect(first.result.root).toMatchObject({ id: root.id, replyCount: 120 });
    expect(bodies(first.result.replies)).toEqual(range(70, 120));
    expect(first.result.hasMore).toBe(true);
    expect(first.count.rows, heavy(first.count)).toBeLessThan(80);
    const second = await ben.api.messages.thread.query({ messageId: root.id, limit: 50, beforeSeq: first.result.replies[0].seq });
    expect(bodies(second.replies)).toEqual(range(20, 70));
    expect(second.hasMore).toBe(true);
    // Any message of the thread finds it.
    const last = await ben.api.messages.thread.query({ messageId: second.replies[0].id, limit: 50, beforeSeq: second.replies[0].seq });
    expect(last.root.id).toBe(root.id);
    expect(bodies(last.replies)).toEqual(range(0, 20));
    expect(last.hasMore).toBe(false);
    // Without a limit, one page of the newest.
    expect(bodies((await ben.api.messages.thread.query({ messageId: root.id })).replies)).toEqual(range(70, 120));
  });

  it("selects what a mentions-mode agent missed without reading the agent's history", async () => {
    const scribe = await createAgent(ana, `scribe-${dialect}`);
    const room = await channel("history", [scribe.id]);
    const [own] = await addMessages(
      server,
      room.id,
      Array.from({ length: 300 }, (_, i) => ({ authorId: scribe.id, body: `the agent's own ${i}` })),
    );
    const { lastSeq } = await ana.api.rooms.get.query({ roomId: room.id });
    await say(ana, room.id, "in the agent's thread", own);
    await say(ana, room.id, "chatter");
    await say(ana, room.id, `@scribe-${dialect} a question`);
    // Nothing to replay at connect: the cursor is past everything.
    await queryDb(server, `UPDATE "RoomMember" SET "deliveredSeq" = $1 WHERE "participantId" = $2`, [lastSeq + 3, scribe.id]);
    const socket = await openAgentSocket(server.url, scribe.apiKey);

    type Page = { messages: MessageView[]; hasMore: boolean; lastSeq: number };
    const synced = await counted(() => emitAck<Ack<Page>>(socket, "room:sync", { roomId: room.id, afterSeq: lastSeq, selected: true, limit: 100 }));
    if (!synced.result.ok) throw new Error(synced.result.error.message);
    expect(synced.result.data.messages.map((m) => m.body)).toEqual(["in the agent's thread", `@scribe-${dialect} a question`]);
    expect(synced.result.data).toMatchObject({ hasMore: false, lastSeq: lastSeq + 3 });
    expect(synced.count.rows, heavy(synced.count)).toBeLessThan(40);
  });

  it("delivers a reply to the agents in its thread without reading the thread", async () => {
    const insider = await createAgent(ana, `insider-${dialect}`);
    const outsider = await createAgent(ana, `outsider-${dialect}`);
    const room = await channel("busy-thread", [insider.id, outsider.id]);
    const root = await say(ana, room.id, "a busy thread");
    await addMessages(server, room.id, [
      ...Array.from({ length: 300 }, (_, i) => ({ authorId: ana.participantId, body: `earlier reply ${i}`, threadRootId: root.id })),
      { authorId: insider.id, body: "the insider's reply", threadRootId: root.id },
    ]);
    // Nothing to replay at connect: the cursors are past everything.
    await queryDb(server, `UPDATE "RoomMember" SET "deliveredSeq" = $1 WHERE "roomId" = $2`, [root.seq + 301, room.id]);
    const heard = collectMessages(await openAgentSocket(server.url, insider.apiKey)).seen;
    const overheard = collectMessages(await openAgentSocket(server.url, outsider.apiKey)).seen;

    const reply = await counted(() => say(ana, room.id, "are you there?", root.id));
    expect(reply.count.rows, heavy(reply.count)).toBeLessThan(60);
    await waitFor(() => heard.some((m) => m.message.id === reply.result.id), 10_000, "the insider hears the reply");
    // The outsider is sent the sentinel, after the reply if the reply were addressed to it.
    const sentinel = await say(ana, room.id, `@outsider-${dialect} sentinel`);
    await waitFor(() => overheard.some((m) => m.message.id === sentinel.id), 10_000, "the sentinel");
    expect(overheard.map((m) => m.message.body)).toEqual([`@outsider-${dialect} sentinel`]);
  });

  it("searches the directory and the people picker in the database, with a limit", async () => {
    await addCrowd(server, { workspaceId, prefix: "folk", count: 300, displayName: (i) => `Folk ${i}` });
    const [zed] = await addCrowd(server, { workspaceId, prefix: "hzz", count: 1, displayName: () => "Ann Zebra" });
    const agents = await addCrowd(server, {
      workspaceId,
      prefix: "zebra",
      count: 3,
      agents: { ownerId: ben.participantId, capabilities: ["Translate", "summarize"] },
    });
    const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

    const found = await counted(() => ana.api.directory.search.query({ text: "ZEBRA" }));
    // Agents before people, each by handle.
    expect(ids(found.result)).toEqual([...ids(agents), zed.id]);
    expect(found.result[0]).toMatchObject({ kind: "agent", capabilities: ["Translate", "summarize"], owner: { handle: "ben" } });
    expect(found.count.rows, heavy(found.count)).toBeLessThan(60);
    // A capability matches whole, in any case; text matches inside capabilities too.
    expect(ids(await ana.api.directory.search.query({ capability: "translate" }))).toEqual(ids(agents));
    expect(await ana.api.directory.search.query({ capability: "trans" })).toEqual([]);
    expect(ids(await ana.api.directory.search.query({ text: "ummar" }))).toEqual(ids(agents));
    // LIKE's wildcards are plain characters in a search.
    expect(await ana.api.directory.search.query({ text: "%" })).toEqual([]);
    expect(await ana.api.directory.search.query({ text: "folk_" })).toEqual([]);
    const limited = await counted(() => ana.api.directory.search.query({ text: "folk", limit: 10 }));
    expect(limited.result.map((e) => e.handle)).toEqual(Array.from({ length: 10 }, (_, i) => `folk${String(i).padStart(4, "0")}`));
    expect(limited.count.rows, heavy(limited.count)).toBeLessThan(60);

    // The picker: handle or display name, names that start with the text first.
    const picked = await counted(() => ana.api.workspace.participants.query({ query: "zebra" }));
    expect(ids(picked.result)).toEqual([...ids(agents), zed.id]);
    expect(picked.count.rows, heavy(picked.count)).toBeLessThan(40);
    const ann = await ana.api.workspace.participants.query({ query: "ann" });
    expect(ann.map((p) => p.handle)).toEqual(["hzz0000"]);
    expect((await ana.api.workspace.participants.query({ query: "folk", limit: 5 })).map((p) => p.handle)).toEqual(
      Array.from({ length: 5 }, (_, i) => `folk${String(i).padStart(4, "0")}`),
    );

    // A person whose name starts with the text too still comes after the agents: kinds sort alike on both databases.
    const [zebraPerson] = await addCrowd(server, { workspaceId, prefix: "pzz", count: 1, displayName: () => "Zebra Person" });
    expect(ids(await ana.api.directory.search.query({ text: "zebra" }))).toEqual([...ids(agents), zebraPerson.id, zed.id]);
    expect(ids(await ana.api.workspace.participants.query({ query: "zebra" }))).toEqual([...ids(agents), zebraPerson.id, zed.id]);
  });
});
