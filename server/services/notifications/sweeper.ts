// Mails the notification outbox as digests: per person, one mail of every pending row once the oldest
// has waited the batch window, so a burst of mentions is one mail. Runs in every server process; a
// process claims a person's rows with a conditional update (`claimId` set only where it is still
// empty), so two processes never mail the same row. A claim left by a process that died before
// mailing is taken over after CLAIM_TTL_MS: a crash between the mail and its `emailedAt` may then
// mail those rows again (at least once, never lost), but a running process never does.
import { getDb, type Prisma } from "../../db";
import { newId } from "../../ids";
import { roomViews, withMemberCount } from "../access/views";
import { composeDigest } from "./digest";
import type { Mailer } from "./mailer";

export interface SweeperOptions {
  mailer: Mailer;
  /** How long a person's first pending row waits before their digest goes (NOTIFY_BATCH_SECONDS). */
  batchSeconds: number;
  /** Where the links in a digest point (PUBLIC_URL). */
  publicUrl: string;
  log: (line: string) => void;
}

/** A claim older than this was left by a process that stopped: another may take the rows over. */
const CLAIM_TTL_MS = 10 * 60_000;
/** After the SMTP server refused or was unreachable, wait this long before trying again. */
const BACKOFF_MS = 30_000;
/** People mailed per sweep at most; the next sweep continues. */
const PEOPLE_PER_SWEEP = 50;

/** Rows no process is mailing: not mailed, not read, and unclaimed or claimed by a process that died. */
const claimable = (now: Date): Prisma.NotificationWhereInput => ({
  emailedAt: null,
  readAt: null,
  OR: [{ claimId: null }, { claimedAt: { lt: new Date(now.getTime() - CLAIM_TTL_MS) } }],
});

/** Starts sweeping; the answer stops it, after the sweep in progress (if any) ends. */
export function startNotificationSweeper(opts: SweeperOptions): () => Promise<void> {
  // A window of a few seconds is checked a few times per window; a long one every 5 s at most.
  const every = Math.min(5_000, Math.max(250, (opts.batchSeconds * 1000) / 4));
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const tick = () => {
    running = sweep(opts)
      .then((backoff) => (backoff ? BACKOFF_MS : every))
      .catch((error: unknown) => {
        opts.log(`notification sweep failed: ${String(error)}`);
        return every;
      })
      .then((wait) => {
        running = null;
        if (!stopped) timer = setTimeout(tick, wait);
      });
  };
  timer = setTimeout(tick, every);

  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
    opts.mailer.close();
  };
}

/** One pass: mails every person whose oldest pending row has waited long enough. True: SMTP failed, back off. */
export async function sweep(opts: SweeperOptions): Promise<boolean> {
  const now = new Date();
  const due = new Date(now.getTime() - opts.batchSeconds * 1000);
  const people = await getDb().notification.findMany({
    where: { ...claimable(now), createdAt: { lte: due } },
    select: { recipientId: true },
    distinct: ["recipientId"],
    take: PEOPLE_PER_SWEEP,
  });
  for (const { recipientId } of people) {
    try {
      await mailDigest(recipientId, now, due, opts);
    } catch (error) {
      opts.log(`notification digest to ${recipientId} failed: ${String(error)}`);
      return true;
    }
  }
  return false;
}

/** Claims the person's pending rows, drops what no longer needs telling, and mails the rest as one digest. */
async function mailDigest(recipientId: string, now: Date, due: Date, opts: SweeperOptions): Promise<void> {
  const db = getDb();
  const claimId = newId();
  const claim = { claimId, claimedAt: now };
  // The due rows first: if another process took them, this one leaves the person alone (else it would
  // mail the rows that arrived since, before their window).
  const taken = await db.notification.updateMany({ where: { recipientId, ...claimable(now), createdAt: { lte: due } }, data: claim });
  if (taken.count === 0) return;
  await db.notification.updateMany({ where: { recipientId, ...claimable(now) }, data: claim });
  const rows = await db.notification.findMany({ where: { claimId, emailedAt: null, readAt: null }, orderBy: [{ createdAt: "asc" }, { seq: "asc" }] });
  const roomIds = [...new Set(rows.map((r) => r.roomId))];

  const [person, memberships, live, rooms] = await Promise.all([
    db.participant.findUnique({ where: { id: recipientId }, select: { notifications: true, member: { select: { account: { select: { email: true } } } } } }),
    db.roomMember.findMany({ where: { participantId: recipientId, roomId: { in: roomIds } }, select: { roomId: true, readSeq: true } }),
    db.message.findMany({ where: { id: { in: rows.map((r) => r.messageId) }, deletedAt: null }, select: { id: true } }),
    db.room.findMany({ where: { id: { in: roomIds } }, include: withMemberCount }),
  ]);
  const readSeq = new Map(memberships.map((m) => [m.roomId, m.readSeq]));
  const liveIds = new Set(live.map((m) => m.id));
  const preference = person?.notifications ?? "none";
  const email = person?.member?.account.email;

  // Read in the app before the digest went: kept, marked read, never mailed.
  const read = rows.filter((r) => readSeq.has(r.roomId) && r.seq <= readSeq.get(r.roomId)!);
  // No longer worth telling: the message was deleted, the person left the room or turned these off.
  const stale = rows.filter(
    (r) =>
      !read.includes(r) &&
      (!email || preference === "none" || (preference === "mentions" && r.kind === "message") || !readSeq.has(r.roomId) || !liveIds.has(r.messageId)),
  );
  const mail = rows.filter((r) => !read.includes(r) && !stale.includes(r));
  if (read.length) await db.notification.updateMany({ where: { id: { in: read.map((r) => r.id) } }, data: { readAt: now } });
  if (stale.length) await db.notification.deleteMany({ where: { id: { in: stale.map((r) => r.id) } } });
  if (mail.length === 0 || !email || preference === "none") return;

  const titles = new Map((await roomViews(rooms, recipientId)).map((v) => [v.id, v.kind === "channel" ? `#${v.title}` : v.title]));
  const digest = composeDigest(mail, titles, { publicUrl: opts.publicUrl, preference });
  try {
    await opts.mailer.send({ to: email, ...digest });
  } catch (error) {
    // Back to pending: the next sweep after the backoff tries again.
    await db.notification.updateMany({ where: { claimId, emailedAt: null }, data: { claimId: null, claimedAt: null } });
    throw error;
  }
  await db.notification.updateMany({ where: { id: { in: mail.map((r) => r.id) } }, data: { emailedAt: new Date() } });
  opts.log(`notifications: mailed ${mail.length} to ${recipientId}`);
}
