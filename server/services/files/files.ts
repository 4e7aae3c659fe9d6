// Files shared in rooms. An upload is streamed into the storage (server/storage) under the file's id,
// counted, hashed and sniffed on the way, and refused with FILE_TOO_LARGE as soon as it passes the
// limit (nothing is kept of it); only then is its row written. A send attaches it (messaging/sending.ts,
// in the batch's own statement: `attachable` checks first); a message's deletion deletes its files
// (their rows marked in its transaction, their bytes removed after). Reading one is the `file.read` rule:
// its room's readers once it is on a message, its uploader before.
import { createHash } from "node:crypto";
import { pipeline, Readable, Transform } from "node:stream";
import { FILE_NAME_MAX, SOCKET_UPLOAD_MAX_BYTES, type FileView, type UploadFileInput } from "@switchboard/sdk/files";
import { getDb, type Tx } from "../../db";
import { env } from "../../env";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { presentFile, type FileRow } from "../../presenters/file";
import { fileStorage, type FileStorage } from "../../storage";
import { sweepEvery } from "../../sweeper";
import { loadRoomFor } from "../access/rooms";
import { linkedWorkspaces } from "../workspace-connections/links";
import { sanitizeName, sniff, SNIFF_BYTES } from "./sniff";

export interface UploadInput {
  roomId: string;
  name: string;
}

const tooLarge = (max: number) => new AppError("FILE_TOO_LARGE", `A file is at most ${max} bytes`);

/**
 * Stores `body` as a file in the room, if the actor may post there. `declaredSize`: the request's
 * Content-Length, refused at once when past the limit; the bytes are counted whatever it says.
 */
export async function uploadFile(actor: Actor, input: UploadInput, body: Readable, declaredSize: number | null, max = env.MAX_UPLOAD_BYTES): Promise<FileView> {
  const subject = await loadRoomFor(actor, input.roomId);
  authorize(actor, "room.post", subject);
  if (declaredSize !== null && declaredSize > max) throw tooLarge(max);
  const name = sanitizeName(input.name, FILE_NAME_MAX);
  const id = newId();
  const hash = createHash("sha256");
  const head: Buffer[] = [];
  let size = 0;
  let headSize = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > max) return done(tooLarge(max));
      hash.update(chunk);
      if (headSize < SNIFF_BYTES) {
        head.push(chunk.subarray(0, SNIFF_BYTES - headSize));
        headSize += Math.min(chunk.length, SNIFF_BYTES - headSize);
      }
      done(null, chunk);
    },
  });
  const storage = fileStorage();
  // pipeline: a body that fails (the client gone midway) fails the put, which keeps nothing.
  await storage.put(
    id,
    pipeline(body, counted, () => {}),
  );
  try {
    const sniffed = sniff(Buffer.concat(head), name);
    const row = await getDb().storedFile.create({
      data: {
        id,
        workspaceId: actor.workspaceId,
        roomId: input.roomId,
        uploaderId: actor.participantId,
        name,
        size,
        sha256: hash.digest("hex"),
        storageKey: id,
        ...sniffed,
      },
    });
    return presentFile(row);
  } catch (error) {
    await storage.delete(id);
    throw error;
  }
}

/** A file whose bytes came whole in a request (the socket's, a tool call's), of at most `max` bytes. */
export function uploadBytes(actor: Actor, input: UploadInput, bytes: Buffer, max: number): Promise<FileView> {
  return uploadFile(actor, input, Readable.from([bytes]), bytes.length, Math.min(max, env.MAX_UPLOAD_BYTES));
}

/** The socket's upload: a small file as base64. */
export const uploadSmallFile = (actor: Actor, input: UploadFileInput): Promise<FileView> =>
  uploadBytes(actor, { roomId: input.roomId, name: input.name }, Buffer.from(input.contentBase64, "base64"), SOCKET_UPLOAD_MAX_BYTES);

/** A file the actor may read, and its bytes. FILE_NOT_FOUND if there is none it may read; FILE_GONE once deleted. */
export async function openFile(actor: Actor, fileId: string): Promise<{ file: FileView; body: Readable }> {
  const file = await getDb().storedFile.findUnique({ where: { id: fileId } });
  if (!file) throw new AppError("FILE_NOT_FOUND", "No such file");
  // A file in a room is its readers' (a shared room's other workspace's too); one in no room, its
  // workspace's, and an avatar also connected workspaces'.
  const room = file.roomId
    ? await loadRoomFor(actor, file.roomId).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "ROOM_NOT_FOUND") return null;
        throw error;
      })
    : null;
  if (file.roomId && !room) throw new AppError("FILE_NOT_FOUND", "No such file");
  authorize(actor, "file.read", { file, room, avatarAcross: !file.roomId && (await isAvatarAcross(actor, file)) });
  const gone = () => new AppError("FILE_GONE", "This file was deleted");
  if (file.deletedAt) throw gone();
  const body = await fileStorage().get(file.storageKey);
  if (!body) throw gone();
  return { file: presentFile(file), body };
}

/** Whether a file of another workspace is one of its participants' avatars, and that workspace is connected with the actor's now. */
async function isAvatarAcross(actor: Actor, file: { id: string; workspaceId: string }): Promise<boolean> {
  if (file.workspaceId === actor.workspaceId) return false;
  const owner = await getDb().participant.findFirst({ where: { avatarFileId: file.id, workspaceId: file.workspaceId }, select: { id: true } });
  return !!owner && (await linkedWorkspaces(actor.workspaceId)).has(file.workspaceId);
}

/** A file's bytes read whole, when there are at most `max` of them (else `null` content). */
export async function readSmallFile(actor: Actor, fileId: string, max: number): Promise<{ file: FileView; content: Buffer | null }> {
  const { file, body } = await openFile(actor, fileId);
  if (file.size > max) {
    body.destroy();
    return { file, content: null };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return { file, content: Buffer.concat(chunks) };
}

/** `file:get`: a file and, when it is small enough for one socket packet, its bytes as base64. */
export async function fileWithContent(actor: Actor, input: { fileId: string }): Promise<FileView & { contentBase64: string | null }> {
  const { file, content } = await readSmallFile(actor, input.fileId, SOCKET_UPLOAD_MAX_BYTES);
  return { ...file, contentBase64: content?.toString("base64") ?? null };
}

/**
 * The files a send attaches, if each is the sender's own upload to that room, not yet on
 * a message nor deleted; else FILE_NOT_FOUND (or CONFLICT for one on a message already). The batch
 * that stores the send attaches them only if that still holds (message-store `moveRoom`).
 */
export async function attachable(actor: Actor, roomId: string, fileIds: string[]): Promise<FileRow[]> {
  if (fileIds.length === 0) return [];
  if (new Set(fileIds).size !== fileIds.length) throw new AppError("INVALID_PAYLOAD", "fileIds: a file is attached once");
  const rows = new Map((await getDb().storedFile.findMany({ where: { id: { in: fileIds } } })).map((f) => [f.id, f]));
  return fileIds.map((id) => {
    const f = rows.get(id);
    if (!f || f.deletedAt || f.uploaderId !== actor.participantId || f.roomId !== roomId)
      throw new AppError("FILE_NOT_FOUND", `No upload of yours in this room is ${id}: upload it to this room first`);
    if (f.messageId) throw new AppError("CONFLICT", `${f.name} is on a message already: upload it again to share it again`);
    return f;
  });
}

/** Marks a message's files deleted, in the transaction that deletes it; their bytes go once it commits (`removeBytes`). */
export async function deleteFilesOf(tx: Tx, messageId: string): Promise<string[]> {
  const files = await tx.storedFile.findMany({ where: { messageId, deletedAt: null }, select: { storageKey: true } });
  if (files.length) await tx.storedFile.updateMany({ where: { messageId, deletedAt: null }, data: { deletedAt: new Date() } });
  return files.map((f) => f.storageKey);
}

/** Removes stored bytes (a deleted message's files); a failure is logged, and the sweeper removes them later. */
export async function removeBytes(keys: string[], storage: FileStorage = fileStorage()): Promise<void> {
  for (const key of keys) await storage.delete(key).catch((error: unknown) => console.error("removing a file's bytes failed", error));
}

/** Sweeps files every `everyMs` (FILE_SWEEP_MS) until stopped. */
export const startFileSweeper = (everyMs: number): (() => void) => sweepEvery(everyMs, "file sweep", () => sweepFiles());

const DAY_MS = 24 * 3600 * 1000;
const SWEEP_BATCH = 200;

/**
 * Removes uploads to rooms never attached to a message within a day, and the rows of files deleted a
 * day ago (after a day of FILE_GONE, a deleted file is no file at all), with their bytes. Any process
 * may run it: each upload is claimed by a conditional update, so a send attaching it meanwhile wins or
 * loses as a whole. Files of no room (avatars) are their owners' to remove.
 */
export async function sweepFiles(storage: FileStorage = fileStorage(), now = new Date()): Promise<number> {
  const db = getDb();
  const before = new Date(now.getTime() - DAY_MS);
  let removed = 0;
  for (;;) {
    const stale = await db.storedFile.findMany({
      where: { messageId: null, roomId: { not: null }, deletedAt: null, createdAt: { lt: before } },
      select: { id: true },
      take: SWEEP_BATCH,
    });
    if (stale.length === 0) break;
    await db.storedFile.updateMany({ where: { id: { in: stale.map((f) => f.id) }, messageId: null, deletedAt: null }, data: { deletedAt: now } });
    if (stale.length < SWEEP_BATCH) break;
  }
  for (;;) {
    const deleted = await db.storedFile.findMany({
      where: { OR: [{ deletedAt: { lt: before } }, { deletedAt: now, messageId: null }] },
      select: { id: true, storageKey: true },
      take: SWEEP_BATCH,
    });
    if (deleted.length === 0) break;
    await removeBytes(
      deleted.map((f) => f.storageKey),
      storage,
    );
    removed += (await db.storedFile.deleteMany({ where: { id: { in: deleted.map((f) => f.id) } } })).count;
    if (deleted.length < SWEEP_BATCH) break;
  }
  return removed;
}

/**
 * Which of a person's participants a cookie download acts as, or null: the workspace of the file's
 * room (a shared room's, whoever uploaded it), else the file's own.
 */
export async function workspaceOfFile(fileId: string): Promise<string | null> {
  const file = await getDb().storedFile.findUnique({ where: { id: fileId }, select: { workspaceId: true, room: { select: { workspaceId: true } } } });
  return file?.room?.workspaceId ?? file?.workspaceId ?? null;
}
