// Renders bench/RESULTS.md from the run's results. The hand-written analysis between the
// `analysis:start` / `analysis:end` markers of the previous file is kept as it is.
import { OTHER_BENCHMARKS } from "./sections";

export interface Measured {
  calls: number;
  wallMeanMs: number;
  wallP50Ms: number;
  statementsPerCall: number;
  statementMsPerCall: number;
}
export interface Breakdown {
  sends: number;
  sendMessage: Measured;
  /** The same sends 32 at a time (group commit), per send. */
  batched?: { sends: number; wallMeanMsPerSend: number; statementsPerSend: number; statementMsPerSend: number };
  statements: { sql: string; perSend: number; meanMs: number; msPerSend: number }[];
  floors: Record<string, Measured>;
  replay: ReplayBreakdown | null;
  cpuProfile?: { sends: number; wallMsPerSend: number; groups: { group: string; share: number; msPerSend: number }[] };
}
export interface ReplayBreakdown {
  messages: number;
  pages: number;
  readMs: number;
  statementsPerPage: number;
  statementMsPerPage: number;
  stringifyMs: number;
  bytesPerPage: number;
  statements?: { sql: string; perSend: number; meanMs: number; msPerSend: number }[];
}

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const START = "<!-- analysis:start -->";
const END = "<!-- analysis:end -->";

const fmt = (x: unknown, digits = 1): string =>
  typeof x === "number" && Number.isFinite(x) ? x.toFixed(digits) : x === null || x === undefined ? "–" : String(x);
const verdict = (t: Any | undefined): string => (!t ? "–" : t.met ? "**met**" : "**not met**");

export function renderResults(results: Any, previous: string): string {
  const m = results.machine as Any;
  const c = results.config as Any;
  const dialects = ["sqlite", "postgresql"].filter((d) => results[d]);
  const ran = dialects.filter((d) => !results[d].skipped);
  const col = (f: (r: Any) => string) => dialects.map((d) => (results[d].skipped ? "skipped" : f(results[d]))).join(" | ");
  const header = `| | ${dialects.map((d) => (d === "sqlite" ? "SQLite" : "PostgreSQL")).join(" | ")} |\n|---|${dialects.map(() => "---:").join("|")}|`;
  const kept =
    previous.includes(START) && previous.includes(END)
      ? previous.slice(previous.indexOf(START), previous.indexOf(END) + END.length)
      : `${START}\n_(no analysis yet)_\n${END}`;
  const sw = (r: Any) => r.detail.switchboard as Any;
  const lines: string[] = [];
  const busy = ran.map((d) => results[d].background_busy_before as number);
  const loaded = busy.some((b) => b > 0.25);

  lines.push(`# Switchboard benchmark results`, ``);
  lines.push(
    `\`npm run bench\` (bench/run.ts) wrote this file and \`bench/results.json\` on ${m.date} in ${fmt(results.totalSeconds, 0)} s${results.secondsWaitingForQuiet > 1 ? ` (of which ${fmt(results.secondsWaitingForQuiet, 0)} s waiting for other work on the machine to settle, BENCH_WAIT_QUIET)` : ""}.`,
  );
  lines.push(`Not part of \`npm test\`. Everything runs on one machine over loopback.`, ``);
  lines.push(`## Machine`, ``);
  lines.push(`- ${m.cpus} cores (${m.cpuModel}), ${m.memoryGiB} GiB memory, ${m.platform}`);
  lines.push(`- Node ${m.node}; SQLite ${m.sqlite}; PostgreSQL ${m.postgresql ?? "not reachable"} (local, same machine)`);
  lines.push(`- The server process, the 51 client sockets (one Node process), PostgreSQL and anything else running share these ${m.cpus} cores.`);
  lines.push(
    `- Background CPU measured for 1 s before each database's run while the bench was idle: ${ran.map((d) => `${d} ${Math.round(results[d].background_busy_before * 100)}% of the machine (load ${results[d].loadavg_1m_before})`).join(", ")}.`,
  );
  if (loaded) {
    lines.push(
      ``,
      `> **Warning: the machine was busy with other work during this run** (background CPU above 25%). All figures are`,
      `> lower, and latencies higher, than on an idle machine; ratios between raw and persisted runs taken minutes apart are noisy.`,
    );
  }
  lines.push(``, `## Method`, ``);
  lines.push(
    `One room, ${c.receivers} receiving clients (socket.io-client, WebSocket transport) plus one sender that is also in the room. Clocks are \`performance.now()\` in the bench process, which hosts every client.`,
    ``,
  );
  lines.push(
    `- **W1, raw ceiling**: \`bench/raw-server.ts\`, a bare Socket.IO server in a child process: on \`send\` it gives the message the next seq, broadcasts \`message:new\` to the room (a payload of the same shape and size as Switchboard's) and acks. No persistence, auth or validation.`,
  );
  lines.push(
    `- **W2, persisted fan-out**: the real server (\`server/index.ts\`, API-only, \`NODE_ENV=production\`) started by the integration harness on a fresh SQLite file or PostgreSQL schema; ${c.receivers} people in one private channel, each connected with a session cookie and, as the browser does, asking for the \`message:batch\` feature (messages committed together arrive as one event); the room's owner sends \`message:send\` with acks.`,
  );
  lines.push(
    `- W1 and W2: ${c.warmup} warm-up messages, then ${c.messages} messages with at most ${c.window} in flight (a slot frees when the message is acked **and** all ${c.receivers} receivers have it). Rate = messages / (first send → last message at all receivers).`,
  );
  lines.push(
    `- **W3, latency**: open-loop paced sends at 50% of that dialect's W1 rate, in ${c.w3Rounds ?? 1} rounds per side that alternate raw, persisted, raw, persisted, … (both servers and their ${c.receivers} receivers stay up through W3, so each round of one side runs next to a round of the other, under the same conditions on the machine). A round: ${c.w3WarmupSeconds ?? 0} s at that rate not measured (steady state), then ${c.w3Seconds} s measured (at least 400 messages). Latency = the time each receiver gets the message (its \`message:new\`, or the \`message:batch\` carrying it) minus the message's *scheduled* send time (every receiver, every message); p50 and p99 are over every sample of a side's rounds together, and each round's own p99 is listed. Also, for information, persisted at 50% of its own W2 rate (the raw server stopped by then).`,
  );
  lines.push(
    `- **W4, catch-up**: a private channel with two agents (API keys, delivery mode \`all\`) that never connected; N messages are stored (${c.fill === "bulk" ? "N − 1 written in bulk by `bench/fill.ts` in chunks of 500 per transaction — the room's `lastSeq` moves and rows get the next seqs as `appendToRoom` does — then one through `message:send`, whose seq proves the server continues from there; not timed as W4" : `through \`message:send\` from ${c.fillSockets} sockets in parallel; not timed as W4`}). Then one agent connects with the SDK (\`SwitchboardClient\`, memory cursors) and is timed from \`connect()\` to its handler having all N; the other does the same with a bare socket that acks each \`room:replay\` page. Verified: seqs strictly increasing and contiguous up to the room's last seq, no duplicate, and the N texts are exactly the stored ones in seq order.`,
  );
  lines.push(
    `- **Breakdown**: \`bench/breakdown.ts\` runs the server's own \`sendMessage\` in a separate process against the same database, one send at a time, logging every statement of Prisma's and each call into the message store (one statement, or one transaction; the server process is idle meanwhile).`,
  );

  lines.push(``, `## Results`, ``, header);
  const row = (name: string, f: (r: Any) => string) => lines.push(`| ${name} | ${col(f)} |`);
  row(`W1 raw broadcast, msgs/s to all ${c.receivers}`, (r) => fmt(r.W1_msgs_per_s));
  row(`W2 persisted, msgs/s to all ${c.receivers}`, (r) => fmt(r.W2_msgs_per_s));
  row(`**W2 / W1**`, (r) => `**${fmt(r.W2_over_W1, 3)}**`);
  row(`W3 send rate (50% of W1), msgs/s`, (r) => fmt(r.W3_rate_msgs_per_s));
  row(`W3 raw p50 / p99, ms`, (r) => `${fmt(r.W3_raw_p50_ms)} / ${fmt(r.W3_raw_p99_ms)}`);
  row(`W3 persisted p50 / p99, ms`, (r) => `${fmt(r.W3_persisted_p50_ms)} / ${fmt(r.W3_persisted_p99_ms)}`);
  row(`W3 persisted p99 limit (2 × raw p99 + 5), ms`, (r) => fmt(r.W3_persisted_limit_p99_ms));
  row(`W3 p99 of each round, raw / persisted, ms`, (r) =>
    (r.W3_raw_p99_ms_by_round ?? []).map((x: number, i: number) => `${fmt(x)} / ${fmt(r.W3_persisted_p99_ms_by_round[i])}`).join("; "),
  );
  row(`W3 CPU stolen by the hypervisor in each round, raw / persisted, cores`, (r) =>
    (r.W3_stolen_cores_by_round ?? []).map((x: { raw: number; persisted: number }) => `${fmt(x.raw, 2)} / ${fmt(x.persisted, 2)}`).join("; "),
  );
  row(
    `(info) persisted at 50% of W2: rate; p50 / p99, ms`,
    (r) => `${fmt(r.W3_persisted_at_half_W2_rate_msgs_per_s)}/s; ${fmt(r.W3_persisted_at_half_W2_p50_ms)} / ${fmt(r.W3_persisted_at_half_W2_p99_ms)}`,
  );
  row(`W4 catch-up 1,000 (SDK / raw socket), ms`, (r) => `${fmt(r.W4_1000_ms, 0)} / ${fmt(r.W4_1000_raw_socket_ms, 0)}`);
  row(`**W4 catch-up 10,000 (SDK / raw socket), ms**`, (r) => `**${fmt(r.W4_10000_ms, 0)}** / ${fmt(r.W4_10000_raw_socket_ms, 0)}`);
  row(`W4 order verified (no gap, no duplicate, all present)`, (r) => (r.W4_verified ? "yes" : "**NO**"));
  const order = (o: Any) => (o ? `${o.reordered} / ${o.jumps} / ${o.duplicates}` : "–");
  row(`Receivers' order, W1 raw: reordered / jumps / duplicates`, (r) => order(r.detail.raw.W1.order));
  row(`Receivers' order, W2 persisted: reordered / jumps / duplicates`, (r) => order(sw(r).W2.order));
  row(`Receivers' order, W3 persisted: reordered / jumps / duplicates`, (r) => order(sw(r).W3.order));
  row(`Server CPU per message, W1 raw / W2, ms`, (r) => `${fmt(r.W1_server_cpu_ms_per_msg, 2)} / ${fmt(r.W2_server_cpu_ms_per_msg, 2)}`);
  row(`Client process CPU per message, W1 / W2, ms`, (r) => `${fmt(r.W1_client_cpu_ms_per_msg, 2)} / ${fmt(r.W2_client_cpu_ms_per_msg, 2)}`);
  row(`CPU during W1: server / clients / everything else`, (r) => cpu(r.detail.raw.W1.cpu));
  row(`CPU during W2: server / clients / everything else (PostgreSQL, other work)`, (r) => cpu(sw(r).W2.cpu));
  row(`W4 fill (${c.fill}), msgs/s (not part of W4)`, (r) =>
    Object.entries(r.fill_msgs_per_s as Any)
      .map(([n, v]) => `${n}: ${fmt(v, 0)}`)
      .join(", "),
  );
  if (c.fill === "bulk") {
    row(`(info) bulk insert alone, 500 per transaction, msgs/s`, (r) =>
      Object.entries(sw(r).W4 as Any)
        .map(([n, x]) => `${n}: ${fmt(((x as Any).fill.bulkMessages * 1000) / (x as Any).fill.bulkMs, 0)}`)
        .join(", "),
    );
  }

  lines.push(``, `## Targets`, ``, header);
  row(`W2 ≥ 0.5 × W1`, (r) => `${verdict(r.targets.W2_ge_half_W1)} (${fmt(r.targets.W2_ge_half_W1.value, 3)})`);
  row(`W3 persisted p99 ≤ 2 × raw p99 + 5 ms`, (r) => `${verdict(r.targets.W3_p99)} (${fmt(r.targets.W3_p99.value)} vs ${fmt(r.W3_persisted_limit_p99_ms)})`);
  row(`W4 10,000 ≤ 1 s, no gap or duplicate`, (r) => `${verdict(r.targets.W4_10000)} (${fmt(r.targets.W4_10000.value, 0)} ms)`);

  for (const d of ran) {
    const b = sw(results[d]).breakdown as Breakdown | null;
    if (!b) continue;
    lines.push(``, `## Where one persisted send goes (${d === "sqlite" ? "SQLite" : "PostgreSQL"}, ${b.sends} sends one at a time)`, ``);
    lines.push(
      `\`sendMessage\` alone: **${fmt(b.sendMessage.wallMeanMs, 2)} ms** mean (p50 ${fmt(b.sendMessage.wallP50Ms, 2)}), **${fmt(b.sendMessage.statementsPerCall, 1)} SQL statements** per send taking ${fmt(b.sendMessage.statementMsPerCall, 2)} ms as logged; the rest is the driver adapter, the service code and Node (the profile below).`,
      ``,
    );
    if (b.batched) {
      lines.push(
        `The same sends 32 at a time, as a busy room sends them (stored in batches by group commit): **${fmt(b.batched.wallMeanMsPerSend, 2)} ms** and **${fmt(b.batched.statementsPerSend, 2)} statements** per send (${fmt(b.batched.statementMsPerSend, 2)} ms of SQL).`,
        ``,
      );
    }
    lines.push(
      `Floors on the same connection: \`SELECT 1\` ${fmt(b.floors.selectOne.wallMeanMs, 3)} ms, \`room.findUnique\` ${fmt(b.floors.roomFindUnique.wallMeanMs, 3)} ms, an empty \`$transaction\` ${fmt(b.floors.emptyTransaction.wallMeanMs, 3)} ms, the fan-out's lookup (\`delivery.fanOutNew\`, one message) ${fmt(b.floors.addressedAgents.wallMeanMs, 3)} ms in ${fmt(b.floors.addressedAgents.statementsPerCall, 0)} statements.`,
      ``,
    );
    if (b.cpuProfile) {
      const p = b.cpuProfile;
      lines.push(
        `Where a send's time goes in that process (V8 sampling profiler, ${p.sends} more sends, ${fmt(p.wallMsPerSend, 2)} ms each under the profiler): ${p.groups
          .filter((g) => g.share >= 0.01)
          .map((g) => `${g.group} ${Math.round(g.share * 100)}% (${fmt(g.msPerSend, 2)} ms)`)
          .join(", ")}.`,
        ``,
      );
    }
    if (b.replay) {
      const rp = b.replay;
      const cases = sw(results[d]).W4 as Any;
      const w4 = cases[String(Math.max(...Object.keys(cases).map(Number)))] as Any | undefined;
      lines.push(
        `W4's server side alone (same process, no socket): reading the ${rp.messages} messages of the catch-up room as \`selectPage\` does takes **${fmt(rp.readMs, 0)} ms** in ${rp.pages} pages (${fmt(rp.statementsPerPage, 1)} statements and ${fmt(rp.statementMsPerPage, 1)} ms of SQL per page); JSON-encoding them ${fmt(rp.stringifyMs, 0)} ms (${Math.round(rp.bytesPerPage / 1024)} KiB per page)${w4 ? `; the SDK's whole catch-up took ${fmt(w4.sdk.ms, 0)} ms` : ""}.`,
        ``,
      );
    }
    if (b.replay?.statements) {
      lines.push(`| per page | mean ms | statement of a replay page |`, `|---:|---:|---|`);
      for (const s of b.replay.statements) lines.push(`| ${fmt(s.perSend, 2)} | ${fmt(s.meanMs, 3)} | \`${s.sql.replace(/\|/g, "\\|").slice(0, 160)}\` |`);
      lines.push(``);
    }
    lines.push(`| per send | mean ms | ms per send | statement |`, `|---:|---:|---:|---|`);
    for (const s of b.statements)
      lines.push(`| ${fmt(s.perSend, 2)} | ${fmt(s.meanMs, 3)} | ${fmt(s.msPerSend, 3)} | \`${s.sql.replace(/\|/g, "\\|").slice(0, 160)}\` |`);
  }

  lines.push(``, `## Analysis`, ``, kept, ``);
  // Other benchmarks' sections (each writes its own, between its markers) stay.
  for (const { section: name } of OTHER_BENCHMARKS) {
    const section = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`).exec(previous);
    if (section) lines.push(section[0], ``);
  }
  return lines.join("\n");
}

function cpu(x: Any): string {
  return `${fmt(x.serverCores, 2)} / ${fmt(x.clientCores, 2)} / ${fmt(x.otherCores, 2)} cores`;
}
