// Threads: replies hang off a top-level text message of the same room. Checked by everything that
// writes into a thread (sends, questions, work reports, bindings, timelines read by thread).
import { getDb } from "../../db";
import { AppError } from "../../errors";

/** A thread's root: a top-level text message of the same room (for sends and questions alike). */
export async function checkThreadRoot(roomId: string, rootId: string): Promise<void> {
  const root = await getDb().message.findUnique({ where: { id: rootId }, select: { roomId: true, threadRootId: true, kind: true } });
  if (!root || root.roomId !== roomId) throw new AppError("MESSAGE_NOT_FOUND", "No such thread in this room");
  if (root.threadRootId !== null) throw new AppError("INVALID_PAYLOAD", "Replies go to the thread's first message");
  if (root.kind !== "text") throw new AppError("INVALID_PAYLOAD", "This message cannot have a thread");
}
