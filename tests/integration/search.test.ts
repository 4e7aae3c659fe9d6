// Message search on the real server, on both databases: a participant finds what it may read and
// nothing else (its rooms, the public channels unless it is a guest), by stemmed words, phrases and
// the operators; the index follows edits and deletes in the same transaction; the same search answers
// over tRPC, the socket and the MCP tools; bad queries get INVALID_PAYLOAD, never a database error.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Ack } from "@switchboard/sdk";
import type { SearchResult } from "@switchboard/sdk/contract";
import { closeSockets, createAgent, dialects, emitAck, errorCode, openAgentSocket, unwrap, type Person } from "./harness";
import { startWorkspace, type Workspace } from "./factories";

describe.each(dialects)("message search (%s)", (dialect) => {
  let ws: Workspace<"dana" | "erin" | "fay" | "gus">;
  let dana: Person; // the owner
  let erin: Person; // in #ops and Dana's DM
  let fay: Person; // a member in no room: public channels only
  let gus: Person; // a guest in no room: nothing
  let bot: { id: string; apiKey: string };
  const ids: Record<string, string> = {};
  let ops: { id: string };

  beforeAll(async () => {
    ws = await startWorkspace(dialect, { people: { dana: "owner", erin: "member", fay: "member", gus: "guest" } });
    ({ dana, erin, fay, gus } = ws.people);
    bot = await createAgent(dana, `seeker-${dialect}`);
    ops = await dana.api.rooms.createChannel.mutate({ name: `ops-${dialect}`, visibility: "public", memberIds: [erin.participantId, bot.id] });
    const secret = await dana.api.rooms.createChannel.mutate({ name: `secret-${dialect}`, visibility: "private", memberIds: [] });
    const dm = await dana.api.rooms.openDirect.mutate({ participantIds: [erin.participantId] });
    const send = async (key: string, who: Person, roomId: string, body: string, threadRootId?: string) => {
      ids[key] = (await who.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID(), ...(threadRootId ? { threadRootId } : {}) })).id;
    };
    await send("flaky", dana, ops.id, "The deploy pipeline is flaky on Fridays");
    await send("hotfix", erin, ops.id, "I'm deploying the hotfix now: https://ci.example.com/runs/42");
    await send("green", dana, ops.id, `Deployed, all green @${erin.handle}`, ids.flaky);
    await send("plan", dana, secret.id, "The secret deploy plan");
    await send("notes", dana, dm.id, "Deploy notes, just for you");
    await send("lunch", erin, ops.id, "Lunch at noon?");
  });
  afterEach(() => closeSockets());
  afterAll(() => ws?.server.dispose());

  const search = (who: Person, query: string, more: { sort?: "relevance" | "date"; limit?: number; cursor?: string } = {}) =>
    who.api.search.messages.query({ query, ...more });
  const found = async (who: Person, query: string, more: Parameters<typeof search>[2] = {}) =>
    (await search(who, query, more)).hits.map((h) => Object.entries(ids).find(([, id]) => id === h.message.id)?.[0] ?? h.message.id);

  it("finds by stemmed words what each may read: members their rooms, anyone but a guest the public channels", async () => {
    expect((await found(erin, "deploy")).sort()).toEqual(["flaky", "green", "hotfix", "notes"]);
    expect((await found(dana, "deploy")).sort()).toEqual(["flaky", "green", "hotfix", "notes", "plan"]);
    expect((await found(fay, "deploy")).sort()).toEqual(["flaky", "green", "hotfix"]); // #ops is public; the DM and #secret are not hers
    expect(await found(gus, "deploy")).toEqual([]); // a guest reads only the rooms it is in
    // Each hit in its room, as the searcher sees it, with where the words matched.
    const [hit] = (await search(erin, "flaky pipeline")).hits;
    expect(hit.room).toMatchObject({ id: ops.id, name: `ops-${dialect}`, kind: "channel" });
    expect(hit.highlights.map(([a, b]) => hit.message.body.slice(a, b))).toEqual(["pipeline", "flaky"]);
  });

  it("narrows by phrase, exclusion and operators, sorts by date, and pages", async () => {
    expect(await found(erin, '"hotfix now"')).toEqual(["hotfix"]);
    expect((await found(erin, "deploy -fridays")).sort()).toEqual(["green", "hotfix", "notes"]);
    expect(await found(erin, `deploy from:@${erin.handle}`)).toEqual(["hotfix"]);
    expect(await found(erin, "deploy from:me")).toEqual(["hotfix"]);
    expect((await found(erin, `deploy in:#ops-${dialect}`)).sort()).toEqual(["flaky", "green", "hotfix"]);
    expect(await found(erin, `in:@${dana.handle}`)).toEqual(["notes"]); // operators alone: the newest they select
    expect(await found(erin, "is:thread")).toEqual(["green"]);
    expect(await found(erin, "mentions:me")).toEqual(["green"]);
    expect(await found(erin, "has:link")).toEqual(["hotfix"]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await found(erin, `deploy on:${today}`)).length).toBe(4);
    expect(await found(erin, `deploy before:${today}`)).toEqual([]);
    expect(await found(erin, `deploy after:${today}`)).toEqual([]);
    expect(await found(erin, "deploy", { sort: "date" })).toEqual(["notes", "green", "hotfix", "flaky"]);
    const first = await search(erin, "deploy", { sort: "date", limit: 3 });
    expect(first.hits).toHaveLength(3);
    const second = await search(erin, "deploy", { sort: "date", limit: 3, cursor: first.nextCursor! });
    expect(second.hits.map((h) => h.message.id)).toEqual([ids.flaky]);
    expect(second.nextCursor).toBeNull();
  });

  it("follows edits and deletes, in the same transaction as the write", async () => {
    const { id } = await dana.api.messages.send.mutate({ roomId: ops.id, body: "Rollback the canary", clientMsgId: randomUUID() });
    expect(await found(erin, "canary")).toEqual([id]);
    await dana.api.messages.edit.mutate({ messageId: id, body: "Rollback the blue-green switch" });
    expect(await found(erin, "canary")).toEqual([]);
    expect(await found(erin, "switch")).toEqual([id]);
    await dana.api.messages.delete.mutate({ messageId: id });
    expect(await found(erin, "switch")).toEqual([]);
  });

  it("refuses what it cannot read as a query, and what names a room the searcher may not read; what people type is never query syntax", async () => {
    expect(await errorCode(search(erin, "before:yesterday"))).toBe("INVALID_PAYLOAD");
    expect(await errorCode(search(erin, "has:everything"))).toBe("INVALID_PAYLOAD");
    expect(await errorCode(search(erin, "-deploy"))).toBe("INVALID_PAYLOAD");
    expect(await errorCode(search(erin, "   "))).toBe("INVALID_PAYLOAD");
    expect(await errorCode(search(erin, "the of and"))).toBe("INVALID_PAYLOAD"); // words too common to search by, on both databases
    expect(await found(erin, "the flaky")).toEqual(["flaky"]);
    expect(await errorCode(search(erin, `deploy in:#secret-${dialect}`))).toBe("ROOM_NOT_FOUND");
    expect(await errorCode(search(gus, `deploy in:#ops-${dialect}`))).toBe("NOT_A_MEMBER");
    expect(await errorCode(search(erin, "x".repeat(501)))).toBe("INVALID_PAYLOAD");
    for (const odd of ['deploy" OR "secret', "NEAR(deploy plan)", "deploy*", "deploy AND NOT x", "'; DROP TABLE x; --", "col:deploy", "(((", "ünïcödé 配置"]) {
      // An answer (never one from a room Erin may not read), or a query with no words: never a database error.
      const answer: SearchResult | Error = await search(erin, odd).catch((error: Error) => error);
      if (answer instanceof Error) expect(await errorCode(Promise.reject(answer)), odd).toBe("INVALID_PAYLOAD");
      else
        expect(
          answer.hits.every((h) => h.message.id !== ids.plan),
          odd,
        ).toBe(true);
    }
  });

  it("answers agents over the socket and the MCP tool the same way, within the agent's rooms", async () => {
    const socket = await openAgentSocket(ws.server.url, bot.apiKey);
    const page = unwrap(await emitAck<Ack<SearchResult>>(socket, "search:messages", { query: "deploy", sort: "date" }));
    expect(page.hits.map((h) => h.message.id)).toEqual([ids.green, ids.hotfix, ids.flaky]); // #ops only: not the DM, not #secret
    const tool = unwrap(
      await emitAck<Ack<{ messages: { id: string; room: string }[] }>>(socket, "tool:call", { name: "search_messages", args: { query: "hotfix" } }),
    );
    expect(tool.messages).toEqual([expect.objectContaining({ id: ids.hotfix, room: `#ops-${dialect}` })]);
    const bad = await emitAck<Ack<unknown>>(socket, "search:messages", { query: "on:2026-13-45" });
    expect(bad.ok ? "ok" : bad.error.code).toBe("INVALID_PAYLOAD");
  });

  it("has:reaction finds what someone reacted to, and forgets it when the last reaction goes", async () => {
    expect(await found(erin, "has:reaction")).toEqual([]);
    await erin.api.messages.react.mutate({ messageId: ids.lunch, emoji: "🍕" });
    expect(await found(fay, "has:reaction")).toEqual(["lunch"]); // anyone who may read #ops
    expect(await found(erin, "lunch has:reaction")).toEqual(["lunch"]);
    expect(await found(erin, "deploy has:reaction")).toEqual([]);
    await erin.api.messages.react.mutate({ messageId: ids.lunch, emoji: "🍕", on: false });
    expect(await found(erin, "has:reaction")).toEqual([]);
  });
});
