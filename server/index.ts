// `npm start` / `npm run dev`: one process serving pages, tRPC and Socket.IO on one port.
import nextEnv from "@next/env";

// Load .env files before any module reads the environment (static imports would run first); the one
// read of process.env outside server/env.ts, since env.ts must see what the files add.
nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== "production");

const { env } = await import("./env");
const { startServer } = await import("./app");

const server = await startServer({ withPages: !env.SWITCHBOARD_API_ONLY });
console.log(`\n  Switchboard is running at ${server.url}  (${env.DATABASE_URL.startsWith("file:") ? "SQLite" : "PostgreSQL"})\n`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void server.close().finally(() => process.exit(0));
  });
}
