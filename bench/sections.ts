// The benchmarks other than bench/run.ts each own one key of bench/results.json and one section of
// bench/RESULTS.md (between `<!-- name:start -->` and `<!-- name:end -->`); bench/run.ts and
// bench/report.ts keep them when they rewrite the rest.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Each benchmark besides bench/run.ts: its key in results.json and its section's name in RESULTS.md. */
export const OTHER_BENCHMARKS = [
  { key: "usage", section: "usage" },
  { key: "roomSize", section: "room-size" },
  { key: "sendPathAB", section: "send-path-ab" },
  { key: "flood", section: "flood" },
  // Recorded from a run of tests/e2e/thirty-seconds.spec.ts (its artifacts/thirty-seconds.json).
  { key: "thirtySeconds", section: "thirty-seconds" },
  { key: "reach", section: "reach" },
  { key: "stop", section: "stop" },
  { key: "activity", section: "activity" },
  { key: "search", section: "search" },
  { key: "workspaces", section: "workspaces" },
] as const;
const JSON_FILE = path.join(ROOT, "bench/results.json");
const MD_FILE = path.join(ROOT, "bench/RESULTS.md");

/** What bench/results.json holds under `key` (undefined if nothing yet). */
export function readResults(key: string): unknown {
  return existsSync(JSON_FILE) ? (JSON.parse(readFileSync(JSON_FILE, "utf8")) as Record<string, unknown>)[key] : undefined;
}

/** Replaces `key` in bench/results.json and the section `name` of bench/RESULTS.md (added at the end if new). */
export function recordSection(key: string, value: unknown, name: string, lines: string[]): void {
  const json = existsSync(JSON_FILE) ? (JSON.parse(readFileSync(JSON_FILE, "utf8")) as Record<string, unknown>) : {};
  json[key] = value;
  writeFileSync(JSON_FILE, JSON.stringify(json, null, 2) + "\n");
  const md = existsSync(MD_FILE) ? readFileSync(MD_FILE, "utf8") : "# Benchmark results\n";
  const section = [`<!-- ${name}:start -->`, ...lines, `<!-- ${name}:end -->`].join("\n");
  const marked = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`);
  writeFileSync(MD_FILE, marked.test(md) ? md.replace(marked, () => section) : `${md.trimEnd()}\n\n${section}\n`);
}
