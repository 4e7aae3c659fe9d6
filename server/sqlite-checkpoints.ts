// SQLite's WAL checkpoints, off the event loop. By default SQLite checkpoints inside the commit that
// fills the WAL past 1,000 pages: that commit copies the pages into the database file and syncs it,
// a pause of several milliseconds in which the process answers no one, several times a second when
// a room is busy (each commit writes the few pages it touched whole). Here the server's connection
// never checkpoints; a worker thread with a connection of its own runs passive checkpoints (they
// wait for no reader or writer) every CHECKPOINT_EVERY_MS. What a commit survives is unchanged: WAL
// mode with synchronous = NORMAL, as before (docs/operations.md). Should the worker fail, the
// connection goes back to checkpointing itself.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { sqliteFile, type Db } from "./db";

const CHECKPOINT_EVERY_MS = 100;

// CommonJS, evaluated as the worker's main script; better-sqlite3 is loaded from the path the server resolved.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 5000 });
const timer = setInterval(() => db.pragma("wal_checkpoint(PASSIVE)"), workerData.everyMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.pragma("wal_checkpoint(PASSIVE)");
  db.close();
  parentPort.close();
});
`;

/** Moves `db`'s checkpoints to a worker thread; the returned function stops it (one last checkpoint first). */
export async function checkpointInBackground(db: Db, url: string, log: (line: string) => void = console.error): Promise<() => Promise<void>> {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER, { eval: true, workerData: { driver, file: sqliteFile(url), everyMs: CHECKPOINT_EVERY_MS } });
  await new Promise<void>((resolve, reject) => {
    worker.once("online", resolve);
    worker.once("error", reject);
  });
  await db.$queryRawUnsafe("PRAGMA wal_autocheckpoint = 0");
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  worker.on("error", (error) => {
    if (stopping) return;
    log(`SQLite checkpoints in the background failed (${String(error)}); the server's connection checkpoints again`);
    void db.$queryRawUnsafe("PRAGMA wal_autocheckpoint = 1000").catch(() => undefined);
  });
  return async () => {
    stopping = true;
    worker.postMessage("stop");
    await exited;
  };
}
