// The process's file storage: the local disk under DATA_DIR/files (storage/types.ts says what another
// backend would implement).
import path from "node:path";
import { env } from "../env";
import { localDiskStorage } from "./local-disk";
import type { FileStorage } from "./types";

export type { FileStorage } from "./types";

let storage: FileStorage | null = null;

export function fileStorage(): FileStorage {
  storage ??= localDiskStorage(path.resolve(env.DATA_DIR, "files"));
  return storage;
}
