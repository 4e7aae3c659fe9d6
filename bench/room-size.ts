// `npm run bench` (third part): what a room's size costs. A 50-member and a 5,000-member channel in one
// workspace, on SQLite and PostgreSQL; in each, a person whose only room it is connects a socket
// (until `session:ready`), loads the sidebar (`rooms.mine`), sends a message that @mentions a member
// (until its ack), and the room's owner invites 100 people at once (`rooms.invite`). The members are
// bulk-inserted (tests/integration/fixtures/crowd.ts): people, plus 5 agents in `mentions` mode in
// each room. Operations alternate between the two rooms, so both see the same conditions; each
// figure is the median of its samples, and the ratio (5,000 over 50) is taken within the run. Target:
// within 2x. Results go to bench/results.json (key "roomSize", under the label of the code measured)
// and to bench/RESULTS.md between the room-size markers, with the other label's figures if recorded.
//
// Env: BENCH_DIALECTS (sqlite,postgresql), BENCH_ROOM_SIZE_LABEL (after; "before" records the code
// before bounded reads; any other label is an experiment, described by BENCH_ROOM_SIZE_NOTE),
// BENCH_ROOM_SIZE_SAMPLES (30), BENCH_ROOM_SIZE_INVITES (3).
import { execSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { addCrowd, workspaceOf, type CrowdMember } from "../tests/integration/fixtures/crowd";
import { closeSockets, dialects, queryDb, signUpPerson, startTestServer, type Dialect, type Person, type TestServer } from "../tests/integration/harness";
import { readResults, recordSection } from "./sections";
import { BENCH_SERVER_ENV, sendAcked } from "./switchboard";
import { percentile, round } from "./stats";

const ROOT = path.resolve(import.meta.dirname, "..");
const SIZES = [50, 5000] as const;
const AGENTS_PER_ROOM = 5;
const INVITED = 100;
const SAMPLES = Number(process.env.BENCH_ROOM_SIZE_SAMPLES ?? 30);
const INVITES = Number(process.env.BENCH_ROOM_SIZE_INVITES ?? 3);
const LABEL = process.env.BENCH_ROOM_SIZE_LABEL ?? "after";
const NOTE = process.env.BENCH_ROOM_SIZE_NOTE;
const ONLY = process.env.BENCH_DIALECTS?.split(",") as Dialect[] | undefined;
const OPERATIONS = ["connect", "sidebar", "send", "invite"] as const;
type Operation = (typeof OPERATIONS)[number];
type Figures = Record<Operation, { small: number; big: number; ratio: number }>;

const log = (line: string) => console.log(`[bench room-size ${new Date().toISOString().slice(11, 19)}] ${line}`);

interface Room {
  size: number;
  id: string;
  member: Person;
  /** Someone to @mention in each send. */
  mentioned: CrowdMember;
}

async function setUp(server: TestServer): Promise<{ owner: Person; rooms: Room[]; spares: CrowdMember[] }> {
  const owner = await signUpPerson(server, { handle: "owner" });
  const workspaceId = await workspaceOf(server, owner.participantId);
  const { token } = await owner.api.workspace.createInvite.mutate({ maxUses: 10 });
  const general = (await owner.api.rooms.mine.query()).find((r) => r.name === "general")!;
  const rooms: Room[] = [];
  for (const size of SIZES) {
    const channel = await owner.api.rooms.createChannel.mutate({ name: `members-${size}`, visibility: "public" });
    const member = await signUpPerson(server, { handle: `member${size}`, inviteToken: token });
    await member.api.rooms.join.mutate({ roomId: channel.id });
    await member.api.rooms.leave.mutate({ roomId: general.id }); // this room is the member's only one
    await addCrowd(server, { workspaceId, prefix: `a${size}x`, count: AGENTS_PER_ROOM, roomIds: [channel.id], agents: { ownerId: owner.participantId } });
    const people = await addCrowd(server, { workspaceId, prefix: `p${size}x`, count: size - 2 - AGENTS_PER_ROOM, roomIds: [channel.id] });
    rooms.push({ size, id: channel.id, member, mentioned: people[Math.floor(people.length / 2)] });
  }
  const spares = await addCrowd(server, { workspaceId, prefix: "spare", count: INVITED });
  return { owner, rooms, spares };
}

/** Runs `op` on each room in turn, `n` times, and returns each room's samples (ms). */
async function alternate(rooms: Room[], n: number, op: (room: Room, i: number) => Promise<void>): Promise<number[][]> {
  const samples = rooms.map(() => [] as number[]);
  for (let i = 0; i < n; i++) {
    for (const [r, room] of rooms.entries()) {
      const t0 = performance.now();
      await op(room, i);
      samples[r].push(performance.now() - t0);
    }
  }
  return samples;
}

async function measure(server: TestServer): Promise<Figures> {
  const { owner, rooms, spares } = await setUp(server);
  log(`${server.dialect}: rooms of ${SIZES.join(" and ")} members ready`);
  const sockets = await Promise.all(rooms.map((r) => r.member.socket({ features: ["message:batch"] })));
  const samples: Partial<Record<Operation, number[][]>> = {};
  // One round of each, not measured: statements prepared, caches warm.
  await alternate(rooms, 1, async (room) => void (await room.member.socket({ features: ["message:batch"] })).disconnect());
  samples.connect = await alternate(rooms, SAMPLES, async (room) => {
    const socket = await room.member.socket({ features: ["message:batch"] });
    socket.disconnect();
  });
  await alternate(rooms, 1, async (room) => void (await room.member.api.rooms.mine.query()));
  samples.sidebar = await alternate(rooms, SAMPLES, async (room) => void (await room.member.api.rooms.mine.query()));
  const send = (room: Room, i: number, kind: string) =>
    sendAcked(sockets[rooms.indexOf(room)], room.id, `${kind}-${room.size}-${i}`, `@${room.mentioned.handle} a question #${i}`);
  await alternate(rooms, 3, (room, i) => send(room, i, "warm").then(() => undefined));
  samples.send = await alternate(rooms, SAMPLES, (room, i) => send(room, i, "send").then(() => undefined));
  samples.invite = await alternate(rooms, INVITES, async (room) => {
    await owner.api.rooms.invite.mutate({ roomId: room.id, participantIds: spares.map((s) => s.id) });
    // Out again, straight in the database, so every invite finds the room at its size.
    await removeMembers(server, room.id, spares);
  });
  for (const s of sockets) s.disconnect();
  const figures = {} as Figures;
  for (const op of OPERATIONS) {
    const [small, big] = samples[op]!.map((s) => round(percentile(s, 50), 1));
    figures[op] = { small, big, ratio: round(big / small, 2) };
    log(`${server.dialect} ${op}: ${small} ms (50 members) / ${big} ms (5,000 members) = ${figures[op].ratio}`);
  }
  return figures;
}

async function removeMembers(server: TestServer, roomId: string, members: { id: string }[]): Promise<void> {
  const ids = members.map((m) => m.id);
  const list = ids.map((_, i) => `$${i + 2}`).join(",");
  await queryDb(server, `DELETE FROM "RoomMember" WHERE "roomId" = $1 AND "participantId" IN (${list})`, [roomId, ...ids]);
}

async function main(): Promise<void> {
  const results: Partial<Record<Dialect, Figures>> = {};
  for (const dialect of dialects.filter((d) => !ONLY || ONLY.includes(d))) {
    const server = await startTestServer(dialect, BENCH_SERVER_ENV);
    try {
      results[dialect] = await measure(server);
    } finally {
      closeSockets();
      await server.dispose();
    }
  }
  record(results);
}

function record(results: Partial<Record<Dialect, Figures>>): void {
  const kept = (readResults("roomSize") ?? {}) as Record<string, unknown>;
  const commit = execSync("git rev-parse --short HEAD", { cwd: ROOT }).toString().trim();
  kept[LABEL] = {
    date: new Date().toISOString(),
    commit,
    note: NOTE,
    machine: { cpus: os.cpus().length, node: process.version },
    samples: SAMPLES,
    invites: INVITES,
    ...results,
  };

  type Run = { date: string; commit: string; note?: string } & Partial<Record<Dialect, Figures>>;
  const order = (label: string) => ["before", "after"].indexOf(label) + 1 || 3;
  const runs = Object.entries(kept as Record<string, Run>).sort(([a], [b]) => order(a) - order(b));
  const title = (label: string, run: Run) => ({ before: "Before bounded reads", after: "After bounded reads" })[label] ?? run.note ?? label;
  const cell = (f: Figures | undefined, op: Operation) => (f ? `${f[op].small} / ${f[op].big} / **${f[op].ratio}**` : "skipped");
  const labels: Record<Operation, string> = {
    connect: "socket connect, until `session:ready`",
    sidebar: "sidebar, `rooms.mine`",
    send: "send with an @mention, until its ack",
    invite: `owner invites ${INVITED} people, \`rooms.invite\``,
  };
  recordSection("roomSize", kept, "room-size", [
    "## Room size: 50 members against 5,000",
    "",
    "`bench/room-size.ts`: a 50-member and a 5,000-member public channel in one workspace (members bulk-inserted: people, and 5 agents in `mentions` mode in each room). In each, a person whose only room it is connects, loads the sidebar and sends; the room's owner invites 100 people (then they are removed in the database, so each invite finds the room at its size). The two rooms take turns; median milliseconds of " +
      `${SAMPLES} samples (invites: ${INVITES}), 50-member room / 5,000-member room / **ratio**. Target: every ratio within 2.`,
    "",
    ...runs.flatMap(([label, run]) => [
      `**${title(label, run)}** (commit ${run.commit}, ${run.date.slice(0, 16).replace("T", " ")} UTC):`,
      "",
      "| operation | SQLite | PostgreSQL |",
      "|---|---|---|",
      ...OPERATIONS.map((op) => `| ${labels[op]} | ${cell(run.sqlite, op)} | ${cell(run.postgresql, op)} |`),
      "",
    ]),
    "Measured on 2 cores shared with other work: noisy figures; the ratios, taken within one run, are what to read.",
    "",
  ]);
  log("recorded in bench/results.json and bench/RESULTS.md");
}

await main();
process.exit(0);
