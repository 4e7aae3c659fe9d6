// Where an agent keeps its per-room cursors (the highest seq its handler has finished). With a
// persisted store, a restarted agent resumes exactly where it stopped; with none, it resumes from the
// server's delivered cursor.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface CursorStore {
  get(roomId: string): number | undefined;
  set(roomId: string, seq: number): void;
  /** Makes what `set` recorded durable (a file store writes through at once). */
  flush?(): void;
}

export class MemoryCursorStore implements CursorStore {
  private readonly cursors = new Map<string, number>();
  get(roomId: string) {
    return this.cursors.get(roomId);
  }
  set(roomId: string, seq: number) {
    this.cursors.set(roomId, seq);
  }
}

/** A JSON file, replaced atomically (write then rename) on every change. */
export class FileCursorStore implements CursorStore {
  private readonly cursors: Record<string, number>;

  constructor(private readonly file: string) {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.cursors = readJson(file);
  }

  get(roomId: string) {
    return this.cursors[roomId];
  }

  set(roomId: string, seq: number) {
    if ((this.cursors[roomId] ?? -1) >= seq) return;
    this.cursors[roomId] = seq;
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.cursors));
    renameSync(tmp, this.file);
  }
}

function readJson(file: string): Record<string, number> {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as unknown;
    if (parsed && typeof parsed === "object") {
      return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => Number.isInteger(e[1])));
    }
  } catch {
    // No file yet (first run) or unreadable: start from the server's cursors.
  }
  return {};
}
