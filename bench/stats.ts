// Small measurement helpers: percentiles, CPU accounting (this process, a child, the whole machine).
import { readFileSync, readdirSync } from "node:fs";
import os from "node:os";

/** Percentile (0-100) of unsorted samples, nearest-rank on a sorted copy. */
export function percentile(samples: ArrayLike<number>, p: number): number {
  const n = samples.length;
  if (n === 0) return NaN;
  const sorted = Float64Array.from(samples as ArrayLike<number>).sort();
  const rank = Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1));
  return sorted[rank];
}

export const round = (x: number, digits = 2): number => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** User+system CPU seconds of a process, from /proc (0 if it is gone). */
export function procCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is state (field 3); utime is field 14, stime field 15.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Busy, stolen and total jiffies of the whole machine (all cores). */
function machineJiffies(): { busy: number; steal: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3] + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - idle, steal: v[7] ?? 0, total };
}

/** Child processes of `parent` whose command line contains `needle`. */
export function childPids(parent: number, needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== parent) continue;
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ");
      if (cmd.includes(needle)) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

export interface CpuReport {
  /** Seconds of wall time the interval lasted. */
  wallS: number;
  /** CPU of this (client) process as a share of one core, 0-1+. */
  clientCores: number;
  /** CPU of the server child as a share of one core. */
  serverCores: number;
  /** The whole machine's busy share, 0-1 (1 = every core busy). */
  machineBusy: number;
  /** Cores busy with everything else (PostgreSQL, other work on the machine). */
  otherCores: number;
  /** Cores' worth of time the hypervisor gave to other machines while this one wanted it (steal). */
  stolenCores: number;
}

/** Starts a CPU accounting interval; `stop()` returns the shares. */
export function cpuMeter(serverPid: number | null): { stop(): CpuReport } {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const s0 = serverPid ? procCpuSeconds(serverPid) : 0;
  const m0 = machineJiffies();
  return {
    stop() {
      const wallS = (performance.now() - t0) / 1000;
      const c = process.cpuUsage(c0);
      const s1 = serverPid ? procCpuSeconds(serverPid) : 0;
      const m1 = machineJiffies();
      const clientCores = (c.user + c.system) / 1e6 / wallS;
      const serverCores = (s1 - s0) / wallS;
      const machineBusy = (m1.busy - m0.busy) / Math.max(1, m1.total - m0.total);
      return {
        wallS: round(wallS, 3),
        clientCores: round(clientCores),
        serverCores: round(serverCores),
        machineBusy: round(machineBusy),
        otherCores: round(Math.max(0, machineBusy * os.cpus().length - clientCores - serverCores)),
        stolenCores: round(((m1.steal - m0.steal) / Math.max(1, m1.total - m0.total)) * os.cpus().length),
      };
    },
  };
}
