// Thousands of malformed socket payloads and tRPC inputs: each gets a clear error code, the server
// keeps serving, and nothing is written. Deterministic: a seeded generator.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ack } from "@switchboard/sdk/contract";
import { closeSockets, createAgent, dialects, openAgentSocket, prng, queryDb, type ClientSocket, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

const NASTY_KEYS = ["__proto__", "constructor", "prototype", "toString", "$where", "", "roomId ", "\u0000"];

function junk(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * 12);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return Math.floor(rand() * 2 ** 40) * (rand() < 0.5 ? -1 : 1);
    case 2:
      return rand() < 0.5 ? NaN : 1e308 * 10;
    case 3:
      return "x".repeat(Math.floor(rand() * 70_000));
    case 4:
      return rand() < 0.5;
    case 5:
      return [junk(rand, depth + 1), junk(rand, depth + 1)];
    case 6:
      return "<script>alert(1)</script>' OR 1=1 --";
    case 7:
      return depth > 3
        ? {}
        : JSON.parse(`{${JSON.stringify(NASTY_KEYS[Math.floor(rand() * NASTY_KEYS.length)])}: ${JSON.stringify(junk(rand, depth + 1) ?? null)}}`);
    case 8:
      return { a: { b: { c: { d: [1, { e: "f" }] } } } };
    case 9:
      return -1;
    case 10:
      return "\ud800";
    default:
      return undefined;
  }
}

/** A valid payload (of required fields only) with one thing made invalid: a wrong type, a missing field, or an unknown key. */
function broken(valid: Record<string, unknown>, rand: () => number): unknown {
  const keys = Object.keys(valid);
  const copy: Record<string, unknown> = { ...valid };
  const how = Math.floor(rand() * 4);
  const key = keys[Math.floor(rand() * keys.length)];
  if (how === 0) copy[key] = rand() < 0.5 ? { not: "this type" } : [valid[key]];
  else if (how === 1) delete copy[key];
  else if (how === 2) return JSON.parse(JSON.stringify(copy).replace(/^\{/, `{"__proto__":{"isAdmin":true},"${NASTY_KEYS[Math.floor(rand() * 3)]}x":1,`));
  else copy[`extra${Math.floor(rand() * 100)}`] = junk(rand) ?? 0; // undefined would vanish in transit
  return copy;
}

const KNOWN_CODES = new Set([
  "INVALID_PAYLOAD",
  "UNKNOWN_EVENT",
  "ROOM_NOT_FOUND",
  "MESSAGE_NOT_FOUND",
  "NOT_FOUND",
  "PARTICIPANT_NOT_FOUND",
  "NOT_A_MEMBER",
  "FORBIDDEN",
]);

describe.each(dialects)("fuzzing on %s", (dialect) => {
  let server: TestServer;
  let person: Person;
  let agentSocket: ClientSocket;
  let personSocket: ClientSocket;
  let roomId: string;

  beforeAll(async () => {
    ({
      server,
      people: { fuzz: person },
    } = await startWorkspace(dialect, { people: { fuzz: "owner" } }));
    const agent = await createAgent(person, "target");
    roomId = (await person.api.rooms.createChannel.mutate({ name: "fuzz", visibility: "private", memberIds: [agent.id] })).id;
    agentSocket = await openAgentSocket(server.url, agent.apiKey);
    personSocket = await person.socket();
  });
  afterAll(async () => {
    closeSockets();
    await server.dispose();
  });

  const counts = async () =>
    Promise.all(
      ["Message", "Room", "RoomMember", "Participant", "Connection", "MessageReceipt", "ApiKey"].map(async (t) =>
        Number((await queryDb<{ n: number }>(server, `SELECT COUNT(*) AS n FROM "${t}"`))[0].n),
      ),
    );

  it("answers 2,000 malformed socket requests with error codes, and writes nothing", async () => {
    const before = await counts();
    const rand = prng(42);
    const valid: Record<string, Record<string, unknown>> = {
      "message:send": { roomId, body: "hi", clientMsgId: "c1" },
      "message:edit": { messageId: "m", body: "hi" },
      "message:delete": { messageId: "m" },
      "room:sync": { roomId, afterSeq: 0 },
      "room:read": { roomId, seq: 1 },
      "room:mode": { roomId, mode: "all" },
      "room:join": { roomId },
      "room:leave": { roomId },
      "delivery:ack": { roomId, seq: 1 },
      "message:receipt": { messageId: "m", state: "processed" },
      "connection:request": { participantId: "p" },
      "connection:respond": { connectionId: "c", decision: "accept" },
      "room:create": { name: "room-x" },
      "room:invite": { roomId, participantIds: ["p"] },
      "room:dm": { participantIds: ["p"] },
      "me:status": { workStatus: "w" },
    };
    const events = [...Object.keys(valid), "directory:search", "admin:nuke", "__proto__", "constructor", "x".repeat(300)];
    const codes = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const event = events[Math.floor(rand() * events.length)];
      const socket = rand() < 0.5 ? agentSocket : personSocket;
      const payload = Object.hasOwn(valid, event) && rand() < 0.7 ? broken(valid[event], rand) : junk(rand);
      const reply = (await socket.timeout(10_000).emitWithAck(event as "room:list", payload as never)) as Ack<unknown>;
      const code = reply.ok ? "OK" : reply.error.code;
      codes.set(code, (codes.get(code) ?? 0) + 1);
      if (reply.ok || !KNOWN_CODES.has(code)) throw new Error(`${event} ${JSON.stringify(payload)?.slice(0, 200)} -> ${code}`);
    }
    expect(agentSocket.connected && personSocket.connected).toBe(true);
    expect(await counts()).toEqual(before);
    expect(codes.get("INVALID_PAYLOAD")).toBeGreaterThan(1000);
    // Still serving, and serving correctly.
    const ok = await person.api.messages.send.mutate({ roomId, body: "still here", clientMsgId: randomUUID() });
    expect(ok.body).toBe("still here");
  });

  it("answers 600 malformed tRPC calls with 4xx and an error code, and writes nothing", async () => {
    const before = await counts();
    const rand = prng(7);
    const procedures = [
      "messages.send",
      "messages.edit",
      "rooms.createChannel",
      "rooms.invite",
      "agents.create",
      "connections.request",
      "workspace.signUp",
      "admin.setRole",
      "messages.history",
      "nope.nothing",
    ];
    for (let i = 0; i < 600; i++) {
      const procedure = procedures[Math.floor(rand() * procedures.length)];
      const query = procedure.endsWith("history");
      const body = rand() < 0.2 ? "{not json" : (JSON.stringify(rand() < 0.5 ? { json: junk(rand) } : junk(rand)) ?? "null");
      const url = `${server.url}/api/trpc/${procedure}${query ? `?input=${encodeURIComponent(body)}` : ""}`;
      const res = await fetch(url, {
        method: query ? "GET" : "POST",
        headers: { cookie: person.cookie, "content-type": "application/json" },
        body: query ? undefined : body,
      });
      expect(res.status, `${procedure} ${body.slice(0, 120)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${procedure} ${body.slice(0, 120)}`).toBeLessThan(500);
      if (res.status === 431 || res.status === 414) continue; // the HTTP parser refused an oversized URL
      const reply = (await res.json()) as { error?: { json?: { data?: { app?: { code: string } } } } };
      expect(reply.error?.json?.data?.app?.code, procedure).toBeTruthy();
    }
    expect(await counts()).toEqual(before);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
