// Several server processes share fan-out through Socket.IO's Redis adapter: an event emitted on one
// process reaches the matching sockets on every process, and socketsJoin/fetchSockets span them all.
import { createAdapter } from "@socket.io/redis-adapter";
import { createClient } from "redis";
import type { Io } from "./index";

export async function attachRedisAdapter(io: Io, url: string, key: string): Promise<() => Promise<void>> {
  const pub = createClient({ url });
  const sub = pub.duplicate();
  for (const client of [pub, sub]) client.on("error", (error: unknown) => console.error("redis:", error));
  await Promise.all([pub.connect(), sub.connect()]);
  io.adapter(createAdapter(pub, sub, { key, requestsTimeout: 3000 }));
  return async () => {
    await Promise.allSettled([pub.quit(), sub.quit()]);
  };
}
