// Where files' bytes live, behind one small interface: the local disk under DATA_DIR today
// (local-disk.ts); an object store can implement the same three calls later. What a file is (its name,
// type, room and message) is the database's (`StoredFile`); the storage knows only keys and bytes.
import type { Readable } from "node:stream";

export interface FileStorage {
  /**
   * Stores `source`'s bytes under `key`, all or nothing: readers never see a partial file, and a
   * source that fails (a client gone midway, a limit passed) leaves nothing behind.
   */
  put(key: string, source: Readable): Promise<void>;
  /** The bytes under `key`; null when there are none (deleted, or never stored). */
  get(key: string): Promise<Readable | null>;
  /** Removes `key`'s bytes; a key with none is no error. */
  delete(key: string): Promise<void>;
}
