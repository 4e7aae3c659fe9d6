// A fan-out's emits, held together: while `holdWrites` runs, the WebSocket engine
// (socket/batched-writes.ts) queues what is sent to each client, and writes each client's queue once
// the fan-out's emits are done, so that everything a fan-out sends a client leaves in one write, not
// two (bench/RESULTS.md, "Deliveries to bare sockets"). Nothing waits for I/O or for other work: the
// queues are written before `holdWrites` returns.
let depth = 0;
const release = new Set<() => void>();

export function holdWrites(emit: () => void): void {
  depth++;
  try {
    emit();
  } finally {
    depth--;
    if (depth === 0) {
      const writes = [...release];
      release.clear();
      for (const write of writes) write();
    }
  }
}

/** While writes are held, runs `write` once they are released (once however often it is passed) and answers true; else false. */
export function afterHold(write: () => void): boolean {
  if (depth === 0) return false;
  release.add(write);
  return true;
}
