// The send path at its edges: one lock order across processes (no deadlock when two processes write one
// room with the same agent), database errors that neither crash the server nor stall a room, and a
// bound on what one room may queue.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ack, MessageView } from "@switchboard/sdk/contract";
import {
  closeSockets,
  createAgent,
  dialects,
  emitAck,
  openAgentSocket,
  pgClient,
  queryDb,
  signUpPerson,
  type ClientSocket,
  type Person,
  type TestServer,
  liftMessageRates,
  startTwoProcesses,
} from "./harness";
import { startWorkspace } from "./factories";

const send = (socket: ClientSocket, roomId: string, body: string) =>
  emitAck<Ack<MessageView>>(socket, "message:send", { roomId, body, clientMsgId: randomUUID() });

describe.runIf(dialects.includes("postgresql"))("two processes writing one room as one agent, under a low deadlock_timeout", () => {
  let a: TestServer;
  let b: TestServer;
  let ana: Person;

  beforeAll(async () => {
    // Deadlocks, if any, are found in 20 ms and end a statement with an error instead of a 1 s stall.
    [a, b] = await startTwoProcesses({ PGOPTIONS: "-c deadlock_timeout=20ms" });
    ana = await signUpPerson(a, { handle: "ana" });
    await liftMessageRates(ana);
  });
  afterAll(async () => {
    closeSockets();
    await b.dispose();
    await a.dispose();
  });

  it("takes the agents' rows and the room's in one order on every path: every send is stored, none fails", async () => {
    await ana.api.workspace.setLimits.mutate({ agentMessagesPerMinute: 10_000, agentBurst: 1000, loopGuardMessages: 10_000 });
    const agent = await createAgent(ana, "twofold");
    const room = await ana.api.rooms.createChannel.mutate({ name: "contended", visibility: "private", memberIds: [agent.id] });
    const sockets = await Promise.all([openAgentSocket(a.url, agent.apiKey), openAgentSocket(b.url, agent.apiKey)]);
    // Each process's batches keep finding the room moved by the other's: many are decided again holding
    // the room, while the other process's conditional writes hold the agent.
    const failures: string[] = [];
    let stored = 0;
    await Promise.all(
      sockets.flatMap((socket, p) =>
        Array.from({ length: 6 }, async (_, w) => {
          for (let i = 0; i < 40; i++) {
            const ack = await send(socket, room.id, `p${p} w${w} ${i}`);
            if (ack.ok) stored++;
            else failures.push(`${ack.error.code}: ${ack.error.message}`);
          }
        }),
      ),
    );
    expect(failures).toEqual([]);
    expect(stored).toBe(480);
    expect(a.output() + b.output()).not.toMatch(/deadlock/i);
    const rows = await queryDb<{ n: number }>(a, `SELECT COUNT(*) AS n FROM "Message" WHERE "roomId" = $1 AND "kind" = 'text'`, [room.id]);
    expect(Number(rows[0].n)).toBe(480);
  });
});

/** A trigger that refuses to store a message whose body is exactly "poison": a database error on one row. */
async function poisonMessages(server: TestServer): Promise<void> {
  if (server.dialect === "sqlite") {
    await queryDb(server, `CREATE TRIGGER "poison" BEFORE INSERT ON "Message" WHEN NEW."body" = 'poison' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    return;
  }
  await queryDb(
    server,
    `CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."body" = 'poison' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`,
  );
  await queryDb(server, `CREATE TRIGGER "poison" BEFORE INSERT ON "Message" FOR EACH ROW EXECUTE FUNCTION poison()`);
}

describe.each(dialects)("the send path's failures on %s", (dialect) => {
  let server: TestServer;
  let ana: Person;

  beforeAll(async () => {
    ({
      server,
      people: { ana },
    } = await startWorkspace(dialect, { people: { ana: "owner" }, liftRates: true, env: { SEND_QUEUE_PER_ROOM: "40" } }));
    await poisonMessages(server);
  });
  afterAll(async () => {
    closeSockets();
    await server.dispose();
  });

  it("fails only the send the database refuses, keeps the room's queue moving, and stays up", async () => {
    const room = await ana.api.rooms.createChannel.mutate({ name: "poisoned", visibility: "public" });
    const socket = await ana.socket();
    // All in flight at once, so the poisoned send shares its batch with others.
    const bodies = Array.from({ length: 20 }, (_, i) => (i === 7 ? "poison" : `fine ${i}`));
    const acks = await Promise.all(bodies.map((body) => send(socket, room.id, body)));
    expect(acks.map((a) => (a.ok ? "ok" : a.error.code))).toEqual(bodies.map((b) => (b === "poison" ? "INTERNAL" : "ok")));
    const stored = acks.flatMap((a) => (a.ok ? [a.data.seq] : []));
    expect(new Set(stored).size).toBe(19);
    // The room goes on: later sends are stored right after, with no gap.
    const after = await send(socket, room.id, "after");
    expect(after.ok && after.data.seq).toBe(Math.max(...stored) + 1);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.output()).not.toMatch(/unhandled|UnhandledPromiseRejection/i);
  });
});

// Its own server, with a queue bound of 3: four sockets' first sends are read in one turn of the event
// loop, before the room's first batch (which waits a turn), so the fourth finds the queue full whatever
// the machine's load (with a bound the queue reaches only on a busy machine, this was a matter of timing).
describe.each(dialects)("a room's send queue past its bound on %s", (dialect) => {
  let server: TestServer;
  let ana: Person;

  beforeAll(async () => {
    ({
      server,
      people: { ana },
    } = await startWorkspace(dialect, { people: { ana: "owner" }, liftRates: true, env: { SEND_QUEUE_PER_ROOM: "3" } }));
  });
  afterAll(async () => {
    closeSockets();
    await server.dispose();
  });

  it("refuses sends past a room's queue bound with RATE_LIMITED and retryAfterMs, and stores every send it accepted", async () => {
    const room = await ana.api.rooms.createChannel.mutate({ name: "flooded", visibility: "public" });
    const sockets = await Promise.all(Array.from({ length: 4 }, () => ana.socket()));
    const acks = await Promise.all(sockets.flatMap((socket, s) => Array.from({ length: 50 }, (_, i) => send(socket, room.id, `flood ${s}-${i}`))));
    const refused = acks.flatMap((a) => (a.ok ? [] : [a.error]));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((e) => e.code === "RATE_LIMITED" && e.retryable && (e.retryAfterMs ?? 0) > 0)).toBe(true);
    const accepted = acks.flatMap((a) => (a.ok ? [a.data] : []));
    const rows = await queryDb<{ n: number }>(server, `SELECT COUNT(*) AS n FROM "Message" WHERE "roomId" = $1 AND "kind" = 'text'`, [room.id]);
    expect(Number(rows[0].n)).toBe(accepted.length);
    // Once the queue drains the room takes sends again.
    expect((await send(sockets[0], room.id, "after the flood")).ok).toBe(true);
  });
});

describe.runIf(dialects.includes("postgresql"))("a mention of someone who leaves the room while the send waits its turn", () => {
  let server: TestServer;
  let ana: Person;
  let bo: Person;

  beforeAll(async () => {
    ({
      server,
      people: { ana, bo },
    } = await startWorkspace("postgresql", { people: { ana: "owner", bo: "member" }, liftRates: true }));
  });
  afterAll(async () => {
    closeSockets();
    await server.dispose();
  });

  it("is not stored: whom a send mentions is found on arrival, whether they are still in the room when it is stored", async () => {
    const room = await ana.api.rooms.createChannel.mutate({ name: "leaving", visibility: "private", memberIds: [bo.participantId] });
    const socket = await ana.socket();
    const [lock, watch] = await Promise.all([pgClient(server), pgClient(server)]);
    // Asked outside the lock's transaction, which would see one snapshot of the activity throughout: the
    // backends waiting behind the lock's, directly or behind another waiter (other tests' waits, on
    // the same database at the same time, are not counted).
    const lockPid = Number((await lock.query("SELECT pg_backend_pid() AS pid")).rows[0].pid);
    const waiting = async () =>
      Number(
        (
          await watch.query(
            `WITH RECURSIVE behind(pid) AS (
               SELECT pid FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))
               UNION SELECT a.pid FROM pg_stat_activity a JOIN behind b ON b.pid = ANY(pg_blocking_pids(a.pid))
             ) SELECT COUNT(*) AS n FROM behind`,
            [lockPid],
          )
        ).rows[0].n,
      );
    try {
      // The room's row held: bo's leaving waits for it first, then the send mentioning @bo (found on
      // arrival, while bo is still a member). PostgreSQL hands the row to its waiters in turn, so bo
      // has left when the send is stored, and it is stored held, decided again.
      await lock.query("BEGIN");
      await lock.query(`SELECT 1 FROM "Room" WHERE "id" = $1 FOR UPDATE`, [room.id]);
      const left = bo.api.rooms.leave.mutate({ roomId: room.id });
      await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
      // Waiting to be stored means the send's checks on arrival are done.
      const mention = send(socket, room.id, "@bo still there?");
      await expect.poll(waiting, { timeout: 10_000 }).toBe(2);
      await lock.query("COMMIT");
      await left;
      const sent = await mention;
      expect(sent.ok).toBe(true);
      const [leftEvent] = await queryDb<{ seq: number }>(server, `SELECT "seq" FROM "Message" WHERE "roomId" = $1 AND "data"->>'type' = 'member.left'`, [
        room.id,
      ]);
      expect(sent.ok && sent.data.seq).toBeGreaterThan(Number(leftEvent.seq));
      expect(sent.ok && sent.data.mentions).toEqual([]);
      const rows = await queryDb(server, `SELECT * FROM "MessageMention" WHERE "roomId" = $1`, [room.id]);
      expect(rows).toEqual([]);
    } finally {
      await lock.query("ROLLBACK").catch(() => undefined);
      await Promise.all([lock.end(), watch.end()]);
    }
  });
});
