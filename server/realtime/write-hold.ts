// A fan-out's emits, held together: while `holdWrites` runs, the WebSocket engine
// (socket/batched-writes.ts) queues even a client's first frame, so that everything the fan-out sends
// a client leaves in one write, not two (bench/RESULTS.md, "Deliveries to bare sockets"). Nothing
// waits for I/O: the queues are written as soon as the fan-out's microtasks are done.
let depth = 0;

export function holdWrites(emit: () => void): void {
  depth++;
  try {
    emit();
  } finally {
    depth--;
  }
}

export const writesHeld = (): boolean => depth > 0;
