// Files on the local disk, under one folder that several processes may share (one volume): each file
// is written to a temporary name of its own in the same folder and renamed into place once complete,
// which is atomic on one file system, so no process ever reads half a file. Keys are the files' ids,
// spread over 256 folders by their last two characters.
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FileStorage } from "./types";

/** Keys are ids: letters, digits, - and _ (nothing that could leave the folder). */
const KEY = /^[A-Za-z0-9_-]{8,64}$/;

export function localDiskStorage(root: string): FileStorage {
  const where = (key: string) => {
    if (!KEY.test(key)) throw new Error(`Not a storage key: ${key.slice(0, 80)}`);
    return path.join(root, key.slice(-2).toLowerCase(), key);
  };
  return {
    async put(key, source) {
      const file = where(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${randomBytes(6).toString("hex")}.partial`;
      try {
        await pipeline(source, createWriteStream(temporary, { flags: "wx", mode: 0o640 }));
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key) {
      const stream = createReadStream(where(key));
      // Opened (or not) before it is handed out: a missing file is null, not a stream that errors later.
      return new Promise<Readable | null>((resolve, reject) => {
        stream.once("open", () => resolve(stream));
        stream.once("error", (error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? resolve(null) : reject(error)));
      });
    },
    async delete(key) {
      await rm(where(key), { force: true });
    },
  };
}
