// Pausing an agent in one room (services/membership/pauses.ts): the SDK's Agent, in this process, is
// handed nothing of that room while paused (no live push, no replay, not after a server restart
// either) while its other room carries on; resumed, it is handed what waited, once and in order. An
// agent following the whole room leaves its audience while paused. Who may pause, and what the room
// sees (`agent:paused`, `turns.forRoom`).
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "@switchboard/sdk";
import { generic } from "@switchboard/sdk/adapters/generic";
import { closeSockets, collect, createAgent, dialects, errorCode, openAgentSocket, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

describe.each(dialects)("pausing an agent in a room (%s)", (dialect) => {
  let server: TestServer;
  let olga: Person;
  let sam: Person;
  let lee: Person;
  const agents: Agent[] = [];

  beforeAll(async () => {
    ({
      server,
      people: { olga, sam, lee },
    } = await startWorkspace(dialect, { people: { olga: "owner", sam: "member", lee: "member" }, ownServer: true }));
  });
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.stop({ abandonTurns: true })));
    closeSockets();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  const say = (roomId: string, body: string) => sam.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID() });

  it("holds a paused room's messages, across a server restart, while its other rooms carry on; resumed, hands them over once and in order", async () => {
    const handle = `held-${dialect}`.slice(0, 38);
    const made = await createAgent(sam, handle);
    const [held, other] = await Promise.all(
      ["held", "other"].map((name) =>
        sam.api.rooms.createChannel.mutate({ name: `${name}-${dialect}`, visibility: "private", memberIds: [made.id, lee.participantId] }),
      ),
    );
    const handled: string[] = [];
    const agent = Agent.create({
      url: server.url,
      apiKey: made.apiKey,
      handleSignals: false,
      log: () => undefined,
      adapter: generic((input) => void handled.push(input.messages.at(-1)!.body.replace(`@${handle} `, ""))),
    });
    agents.push(agent);
    await agent.start();
    const watcher = collect(await lee.socket(), "agent:paused");

    // lee is neither its owner nor an admin, and the room lets no member steer.
    expect(await errorCode(lee.api.turns.pause.mutate({ roomId: held.id, agentId: made.id }))).toBe("FORBIDDEN");
    const paused = await sam.api.turns.pause.mutate({ roomId: held.id, agentId: made.id });
    expect(paused.paused).toMatchObject({ at: expect.any(String), by: { handle: "sam" } });
    await waitFor(() => watcher.some((e) => e.roomId === held.id && e.agentId === made.id && e.paused !== null), 10_000, "the room told");
    // The Work page says where it is paused, to whoever may read that room.
    const card = (await lee.api.work.board.query({ sinceHours: 24 })).agents.find((a) => a.agent.id === made.id)!;
    expect([card.pausedIn, (await lee.api.work.board.query({ sinceHours: 24 })).rooms.map((r) => r.id)]).toEqual([
      [held.id],
      expect.arrayContaining([held.id]),
    ]);
    expect((await lee.api.turns.forRoom.query({ roomId: held.id })).agents).toEqual([
      expect.objectContaining({ id: made.id, handle, paused: expect.objectContaining({ by: expect.objectContaining({ handle: "sam" }) }) }),
    ]);

    for (const n of [1, 2]) await say(held.id, `@${handle} held ${n}`);
    await say(other.id, `@${handle} elsewhere 1`);
    await waitFor(() => handled.includes("elsewhere 1"), 15_000, "the other room's message");
    expect(handled).toEqual(["elsewhere 1"]);

    // Across a restart: the agent reconnects, its replay leaves the paused room out.
    await server.restart();
    await say(held.id, `@${handle} held 3`);
    await say(other.id, `@${handle} elsewhere 2`);
    await waitFor(() => handled.includes("elsewhere 2"), 30_000, "the other room after the restart");
    expect(handled).toEqual(["elsewhere 1", "elsewhere 2"]);

    const resumed = await sam.api.turns.resume.mutate({ roomId: held.id, agentId: made.id });
    expect(resumed.paused).toBeNull();
    await waitFor(() => handled.length === 5, 15_000, `what waited (handled: ${handled.join(" | ")})`);
    expect(handled).toEqual(["elsewhere 1", "elsewhere 2", "held 1", "held 2", "held 3"]);
    // Live again.
    await say(held.id, `@${handle} held 4`);
    await waitFor(() => handled.includes("held 4"), 15_000, "live again");
    expect(handled.filter((h) => h.startsWith("held"))).toEqual(["held 1", "held 2", "held 3", "held 4"]);
  });

  it("an agent that follows the whole room leaves its audience while paused; anyone may pause where the room allows; the audit log says who", async () => {
    const made = await createAgent(sam, `whole-${dialect}`.slice(0, 38));
    const room = await sam.api.rooms.createChannel.mutate({ name: `whole-${dialect}`, visibility: "private", memberIds: [made.id, lee.participantId] });
    await sam.api.agents.setDeliveryMode.mutate({ roomId: room.id, mode: "all", participantId: made.id });
    const socket = await openAgentSocket(server.url, made.apiKey);
    const pushed = collect(socket, "message:new");
    await sam.api.turns.setMembersMayStop.mutate({ roomId: room.id, membersMayStopTurns: true });

    await lee.api.turns.pause.mutate({ roomId: room.id, agentId: made.id });
    await say(room.id, "while paused");
    // A marker it does get: a message in a room it is not paused in would do, but a DM reaches it anyway.
    const dm = await sam.api.rooms.openDirect.mutate({ participantIds: [made.id] });
    await say(dm.id, "marker");
    await waitFor(() => pushed.some((p) => p.message.body === "marker"), 10_000, "the marker");
    expect(pushed.map((p) => p.message.body)).not.toContain("while paused");

    const replayed = collect(socket, "room:replay");
    await lee.api.turns.resume.mutate({ roomId: room.id, agentId: made.id });
    await waitFor(() => replayed.some((p) => p.roomId === room.id && p.messages.some((m) => m.body === "while paused")), 10_000, "handed what waited");
    await say(room.id, "after");
    await waitFor(() => pushed.some((p) => p.message.body === "after"), 10_000, "following the room again");

    const audit = await olga.api.admin.audit.query({ subjectId: made.id });
    expect(audit.map((e) => [e.action, e.actor?.handle])).toEqual(
      expect.arrayContaining([
        ["agent.paused_in_room", "lee"],
        ["agent.resumed_in_room", "lee"],
      ]),
    );
  });
});
