// Rights follow roles: a role change reaches open sockets at once, on every process, the person's and
// their agents'; an agent never has more rights than its owner; an onboarding token only registers
// agents while its creator may still create them.
//
// The probe: reading a public channel one has not joined. Members (and their agents) may preview it;
// guests (and a guest's agents) are refused with NOT_A_MEMBER. It changes nothing, so it can be asked
// again and again.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Ack } from "@switchboard/sdk/contract";
import {
  closeSockets,
  createAgent,
  dialects,
  emitAck,
  openAgentSocket,
  openSocket,
  signUpPerson,
  startTestServer,
  type ClientSocket,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

const preview = (socket: ClientSocket, roomId: string) =>
  emitAck<Ack<unknown>>(socket, "room:sync", { roomId, afterSeq: 0 }).then((r) => (r.ok ? "OK" : r.error.code));

/** Asks until the socket is refused; answers how long that took (ms), or fails after `ms`. */
async function refusedWithin(socket: ClientSocket, roomId: string, ms: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if ((await preview(socket, roomId)) === "NOT_A_MEMBER") return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`still allowed after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function registerWith(url: string, onboardingToken: string, handle: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/agents/register`, { method: "POST", body: JSON.stringify({ onboardingToken, handle, displayName: handle }) });
  const body = (await response.json()) as { ok: boolean; error?: { code: string } };
  return body.ok ? "OK" : body.error!.code;
}

describe.each(dialects)("rights follow roles on %s", (dialect) => {
  let server: TestServer;
  let owner: Person;
  let lobby: string;
  const join = async (role: "admin" | "member", handle: string) =>
    signUpPerson(server, { handle, inviteToken: (await owner.api.workspace.createInvite.mutate({ role })).token });

  beforeAll(async () => {
    ({
      server,
      people: { olga: owner },
    } = await startWorkspace(dialect, { people: { olga: "owner" } }));
    lobby = (await owner.api.rooms.createChannel.mutate({ name: "lobby", visibility: "public" })).id;
  });
  afterEach(closeSockets);
  afterAll(() => server?.dispose());

  it("takes a demoted person's rights from their open socket and their agents' at once, without closing them", async () => {
    const dana = await join("admin", "dana");
    const { apiKey } = await createAgent(dana, "danas-bot");
    const [person, agent] = await Promise.all([dana.socket(), openAgentSocket(server.url, apiKey)]);
    expect(await preview(person, lobby)).toBe("OK");
    expect(await preview(agent, lobby)).toBe("OK");

    await owner.api.admin.setRole.mutate({ participantId: dana.participantId, role: "guest" });
    expect(await refusedWithin(person, lobby, 1000)).toBeLessThan(1000);
    expect(await refusedWithin(agent, lobby, 1000)).toBeLessThan(1000);
    expect(person.connected && agent.connected).toBe(true);

    // Promoted again: the same sockets get the rights back.
    await owner.api.admin.setRole.mutate({ participantId: dana.participantId, role: "member" });
    const allowed = async (socket: ClientSocket) => {
      for (let i = 0; i < 50 && (await preview(socket, lobby)) !== "OK"; i++) await new Promise((r) => setTimeout(r, 20));
      return preview(socket, lobby);
    };
    expect(await allowed(person)).toBe("OK");
    expect(await allowed(agent)).toBe("OK");
  });

  it("gives a guest's agent a guest's rights, however it connects", async () => {
    const gus = await join("member", "gus");
    const { apiKey } = await createAgent(gus, "gus-bot");
    await owner.api.admin.setRole.mutate({ participantId: gus.participantId, role: "guest" });
    const agent = await openAgentSocket(server.url, apiKey);
    expect(await preview(agent, lobby)).toBe("NOT_A_MEMBER");
    const message = await emitAck<Ack<unknown>>(agent, "room:create", { name: `bots-${randomUUID().slice(0, 8)}`, visibility: "public" });
    expect(message.ok ? "OK" : message.error.code).toBe("FORBIDDEN");
  });

  it("refuses registration with an onboarding token whose creator may no longer create agents", async () => {
    const tara = await join("member", "tara");
    const { token } = await tara.api.agents.createOnboardingToken.mutate({ label: "laptop", expiresInDays: 1 });
    expect(await registerWith(server.url, token, "tara-one")).toBe("OK");
    await owner.api.admin.setRole.mutate({ participantId: tara.participantId, role: "guest" });
    expect(await registerWith(server.url, token, "tara-two")).toBe("FORBIDDEN");
    // The refusal did not spend a use: promoted again, the token still works.
    await owner.api.admin.setRole.mutate({ participantId: tara.participantId, role: "member" });
    expect(await registerWith(server.url, token, "tara-three")).toBe("OK");
  });
});

describe.runIf(dialects.includes("postgresql"))("rights follow roles across two processes with Redis", () => {
  let a: TestServer;
  let b: TestServer;
  let owner: Person;

  beforeAll(async () => {
    // Open sign-up: the last test makes a second workspace on the same two processes.
    const redis = { REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", REDIS_KEY_PREFIX: `sb-test-${randomUUID()}`, WORKSPACE_SIGNUP: "open" };
    a = await startTestServer("postgresql", redis);
    b = await startTestServer("postgresql", redis, { peerOf: a });
    owner = await signUpPerson(a, { handle: "olga" });
  });
  afterAll(async () => {
    closeSockets();
    await b?.dispose();
    await a?.dispose();
  });

  it("reaches a demoted person's and their agents' sockets on the other process within a second", async () => {
    const lobby = (await owner.api.rooms.createChannel.mutate({ name: "lobby", visibility: "public" })).id;
    const dana = await signUpPerson(b, { handle: "dana", inviteToken: (await owner.api.workspace.createInvite.mutate({ role: "admin" })).token });
    const { apiKey } = await createAgent(dana, "danas-bot");
    const sockets = await Promise.all([
      openSocket(b.url, dana.cookie),
      openSocket(a.url, dana.cookie),
      openAgentSocket(b.url, apiKey),
      openAgentSocket(a.url, apiKey),
    ]);
    for (const socket of sockets) expect(await preview(socket, lobby)).toBe("OK");

    await owner.api.admin.setRole.mutate({ participantId: dana.participantId, role: "guest" }); // on process A
    const took = await Promise.all(sockets.map((socket) => refusedWithin(socket, lobby, 1000)));
    for (const ms of took) expect(ms).toBeLessThan(1000);
  });

  it("takes another workspace's people out of a shared channel on both processes within a second of a disconnect", async () => {
    // Olga's workspace shares #launch with Globex (on process A); Gus of Globex is in it, with sockets on both.
    const gus = await signUpPerson(b, { handle: "gus" });
    const globex = (await gus.api.workspace.me.query())!.workspace.id;
    const { code } = await owner.api.workspaceConnections.invite.mutate({ side: { approveRooms: false } });
    const { id: connectionId } = await gus.api.workspaceConnections.accept.mutate({ code, side: { approveRooms: false } });
    const launch = (await owner.api.rooms.createChannel.mutate({ name: "launch", visibility: "public" })).id;
    await owner.api.workspaceConnections.share.mutate({ roomId: launch, workspaceId: globex });
    await gus.api.rooms.join.mutate({ roomId: launch });
    const sockets = await Promise.all([openSocket(a.url, gus.cookie), openSocket(b.url, gus.cookie)]);
    for (const socket of sockets) expect(await preview(socket, launch)).toBe("OK");
    const removed = sockets.map((socket) => new Promise<number>((resolve) => socket.on("room:removed", () => resolve(Date.now()))));

    const start = Date.now();
    await owner.api.workspaceConnections.disconnect.mutate({ connectionId }); // on process A
    for (const at of await Promise.all(removed)) expect(at - start).toBeLessThan(1000);
    // And refused at once after, on both.
    for (const socket of sockets) expect(await preview(socket, launch)).toBe("ROOM_NOT_FOUND");
  });
});
