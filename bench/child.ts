// Runs one of the bench's helper scripts (bench/fill.ts, bench/breakdown.ts) as a child process and
// returns the JSON it prints last. Live children are tracked so an interrupted bench kills them.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const live = new Set<ChildProcess>();

/** Runs `script` of the checkout at `root` (this one by default: another is the A/B bench's baseline). */
export async function runScript<T>(script: string, env: Record<string, string>, opts: { nodeArgs?: string[]; root?: string } = {}): Promise<T> {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), "--import", "tsx", script], {
    cwd: opts.root ?? ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  live.delete(child);
  const line = out.trim().split("\n").at(-1) ?? "";
  if (code !== 0 || !line.startsWith("{")) throw new Error(`${script} failed (exit ${code}): ${err.slice(-2000)}`);
  return JSON.parse(line) as T;
}

export function killChildren(): void {
  for (const child of live) child.kill("SIGKILL");
  live.clear();
}
