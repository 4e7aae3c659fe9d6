// Two companies that each run their own Switchboard reach each other's agents over A2A: an agent of
// deployment 1, served over A2A there, is registered in deployment 2 as a remote A2A agent, and answers
// in a room of deployment 2. Consent holds on both sides: in deployment 1, the agent's owner accepts the
// person whose access token deployment 2 calls with; in deployment 2, the person who registered it
// introduces it, and the person it is introduced to accepts before it is in their room. The requests
// and answers stay visible in deployment 1, in the caller's conversation with the agent. Both servers
// are real (two processes, two databases); deployment 1's agent is an SDK client.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SwitchboardClient, type MessageView } from "@switchboard/sdk";
import { closeAgentClients, createAgent, dialects, errorCode, FAST_PASSES, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

describe("A2A between two deployments", () => {
  let one: TestServer; // Northwind's deployment
  let two: TestServer; // Acme's deployment
  let kim: Person; // deployment 1: owns the assistant @atlas
  let ivan: Person; // deployment 1: the person whose token deployment 2 calls with
  let dana: Person; // deployment 2
  let bea: Person; // deployment 2: registers the remote agent
  let atlas: SwitchboardClient;
  let atlasId: string;

  beforeAll(async () => {
    const d1 = await startWorkspace(dialects[0], { people: { kim: "owner", ivan: "member" } });
    one = d1.server;
    ({ kim, ivan } = d1.people);
    const d2 = await startWorkspace(dialects[0], { people: { dana: "owner", bea: "member" }, env: { A2A_RETRY_MAX_MS: "1000", ...FAST_PASSES } });
    two = d2.server;
    ({ dana, bea } = d2.people);
    const made = await createAgent(kim, "atlas", { capabilities: ["scheduling"] });
    atlasId = made.id;
    atlas = new SwitchboardClient({ url: one.url, apiKey: made.apiKey, reconnectDelayMs: { min: 50, max: 500 } });
    atlas.onMessage(async (m: MessageView) => {
      if (m.author.id === atlasId || m.kind !== "text") return;
      await atlas.reply(m, `Report from Northwind's Atlas: Tuesday 14:00 is free (asked: "${m.body}")`);
    });
    await atlas.connect();
  });
  afterAll(async () => {
    await atlas?.close();
    await closeAgentClients();
    await two?.dispose();
    await one?.dispose();
  });

  it("answers in a room of deployment 2, under consent on both sides, its tasks visible in deployment 1", async () => {
    // Deployment 1: Kim serves Atlas over A2A, and accepts Ivan, whose token deployment 2 will call with.
    await kim.api.agents.setA2aServed.mutate({ agentId: atlasId, served: true });
    const token = (await ivan.api.tokens.create.mutate({ name: "Acme's Switchboard", scope: "write" })).token;
    const asked = await ivan.api.connections.request.mutate({ participantId: atlasId, message: "Acme's deployment will ask you over A2A" });
    await kim.api.connections.respond.mutate({ connectionId: asked.id, decision: "accept" });

    // Deployment 2: Bea registers it by its card, with that token, and introduces it to Dana.
    const remote = await bea.api.a2a.register.mutate({
      cardUrl: `${one.url}/a2a/atlas/.well-known/agent-card.json`,
      handle: "northwind-atlas",
      credential: { kind: "bearer", token },
      introduceTo: { participantIds: [dana.participantId], message: "Northwind's assistant, from their own Switchboard" },
    });
    expect(remote.agent).toMatchObject({ framework: "a2a", capabilities: ["scheduling"] });
    const room = await dana.api.rooms.createChannel.mutate({ name: `northwind-${randomUUID().slice(0, 6)}`, memberIds: [] });
    // Until Dana accepts, it does not come into her room.
    expect(await errorCode(dana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [remote.agent.id] }))).toBe("NOT_CONNECTED");
    const request = (await dana.api.connections.list.query({ status: "pending" })).connections.find((c) => c.requester.id === remote.agent.id)!;
    await dana.api.connections.respond.mutate({ connectionId: request.id, decision: "accept" });
    await dana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [remote.agent.id] });

    await dana.api.messages.send.mutate({ roomId: room.id, body: "@northwind-atlas when is Kim free next week?", clientMsgId: randomUUID() });
    let answer: MessageView | undefined;
    await waitFor(
      () => !!answer,
      20_000,
      "the remote agent's answer in deployment 2's room",
      async () => {
        const page = await dana.api.messages.history.query({ roomId: room.id, limit: 50 });
        answer = page.messages.find((m) => m.author.id === remote.agent.id && m.kind === "text");
      },
    );
    expect(answer!.body).toContain("Tuesday 14:00 is free");

    // Deployment 1: the request is in Ivan's conversation with Atlas, and the answer in its thread, for
    // him (and Kim, its owner) to read.
    const dm = (await ivan.api.rooms.mine.query()).find((r) => r.kind === "dm" && r.title === "Atlas")!;
    const requestInOne = (await ivan.api.messages.history.query({ roomId: dm.id, limit: 50 })).messages.find((m) => m.body.includes("when is Kim free"))!;
    expect(requestInOne.body).toBe("@dana: @northwind-atlas when is Kim free next week?");
    const thread = await ivan.api.messages.thread.query({ messageId: requestInOne.id });
    expect(thread.replies.map((m) => m.body)).toEqual([expect.stringContaining("Tuesday 14:00 is free")]);
  });
});
