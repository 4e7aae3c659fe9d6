// Writing files the way a config tool must: atomically (a temp file beside it, then rename, so a crash
// never leaves half a file), with the mode asked for, and not at all when the content is already right
// (same bytes, same mtime: running a command twice changes nothing).
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

export type WriteStatus = "created" | "updated" | "unchanged";

export function readIfExists(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Writes `content` to `file` atomically with `mode` (chmod'ed, so the umask cannot widen it). */
export function writeFileAtomic(file: string, content: string, mode: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    writeFileSync(tmp, content, { mode });
    chmodSync(tmp, mode);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/**
 * Writes only when the content differs. An existing file keeps its mode (unless `mode` is forced) and,
 * when it is a symlink (dotfiles kept in a repository), the file it points to is written instead.
 */
export function writeIfChanged(file: string, content: string, opts: { mode?: number; forceMode?: boolean } = {}): WriteStatus {
  const target = existsSync(file) ? realpathSync(file) : file;
  const before = readIfExists(target);
  const mode = before !== null && !opts.forceMode ? statSync(target).mode & 0o777 : (opts.mode ?? 0o644);
  if (before === content) {
    if (opts.forceMode && (statSync(target).mode & 0o777) !== mode) chmodSync(target, mode);
    return "unchanged";
  }
  writeFileAtomic(target, content, mode);
  return before === null ? "created" : "updated";
}

/**
 * Adds `entry` to the .gitignore of the git repository `dir` is the top of (or is in: the .gitignore
 * beside `dir`), unless a line already ignores it or its folder. Null outside a git repository.
 */
export function ignoreInGit(dir: string, entry: string): { path: string; status: WriteStatus } | null {
  if (!insideGitRepository(dir)) return null;
  const file = path.join(dir, ".gitignore");
  const before = readIfExists(file) ?? "";
  const folder = `${path.posix.dirname(entry)}/`;
  const lines = new Set(before.split(/\r?\n/).map((line) => line.trim().replace(/^\//, "")));
  if (lines.has(entry) || lines.has(folder) || lines.has(path.posix.basename(entry))) return { path: file, status: "unchanged" };
  const separator = before === "" || before.endsWith("\n") ? "" : "\n";
  return { path: file, status: writeIfChanged(file, `${before}${separator}${entry}\n`) };
}

function insideGitRepository(dir: string): boolean {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (existsSync(path.join(at, ".git"))) return true;
    if (path.dirname(at) === at) return false;
  }
}
