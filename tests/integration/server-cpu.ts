// What the suite's server processes cost: each one's CPU when it is ready and when it stops, read from
// /proc (Linux) and appended to one file that the timing reporter sums at the end of the run. CI time
// is a budget, and servers are most of the integration suite's CPU.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { runFile } from "./test-run";
const TICKS_PER_SECOND = 100; // Linux's USER_HZ

/** The process's CPU time so far (user + system), in seconds; null where /proc is not there. */
function cpuSeconds(pid: number): number | null {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return null;
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = readFileSync(stat, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * Records a server process's CPU at a moment of its life: `ready` (its boot) or `stopping` (its whole
 * life). Only in an integration run (test-run.ts): a bench's servers are not counted.
 */
export function recordServerCpu(pid: number | undefined, moment: "ready" | "stopping"): void {
  const log = runFile("server-cpu.log");
  if (!log) return;
  const seconds = pid ? cpuSeconds(pid) : null;
  if (seconds !== null) {
    mkdirSync(path.dirname(log), { recursive: true });
    appendFileSync(log, `${moment} ${seconds}\n`);
  }
}

/** What the run's log adds up to: servers started, CPU to boot them, and CPU over their lives. Ends the log. */
export function serverCpuSummary(): string | null {
  const log = runFile("server-cpu.log");
  if (!log || !existsSync(log)) return null;
  const lines = readFileSync(log, "utf8").split("\n").filter(Boolean);
  rmSync(log, { force: true });
  let boots = 0;
  let bootSeconds = 0;
  let lifeSeconds = 0;
  for (const line of lines) {
    const [moment, seconds] = line.split(" ");
    if (moment === "ready") {
      boots += 1;
      bootSeconds += Number(seconds);
    } else lifeSeconds += Number(seconds);
  }
  if (boots === 0) return null;
  return `Server processes: ${boots} started, ${bootSeconds.toFixed(0)} s of CPU to boot them, ${lifeSeconds.toFixed(0)} s of CPU over their lives (those stopped by the harness)`;
}
