// `switchboard tail <#room>`: what was said since you last looked, then what is said live.
// The last seq shown is remembered per server, participant and room (positions.json in the config
// dir), so the next `tail` starts right after it: what was sent while it was not running is shown
// exactly once. --since overrides; the first time, the last --limit messages are shown.
import type { Command } from "commander";
import type { SwitchboardClient } from "@switchboard/sdk";
import type { MessageView } from "@switchboard/sdk/contract";
import { loadPosition, savePosition } from "../config";
import { optionsOf, resolveCredential } from "../credentials";
import { CliError, EXIT, toCliError } from "../exit-codes";
import { Output } from "../output";

type TailOptions = {
  since?: string;
  limit: string;
  follow: boolean;
};

/** Agents in `mentions` mode are pushed only what is addressed to them: their tail polls the room. */
const POLL_MS = { pushed: 15_000, unpushed: 2_000 };

export function registerTail(program: Command): void {
  program
    .command("tail")
    .summary("what was said since you last looked, then live")
    .description(
      "Show a room's messages since the last tail of it (the first time, the last --limit), exactly once, then follow it live. Ctrl-C stops (exit 0).",
    )
    .argument("<target>", "'#room' (quote the #), @handle, or a room's name or id")
    .option("--since <seq>", "start after this seq (instead of where the last tail stopped)")
    .option("--limit <n>", "messages to show when nothing is remembered for this room", "20")
    .option("--no-follow", "print what there is and exit")
    .action(async (target: string, _opts: object, command: Command) => {
      const opts = optionsOf<TailOptions>(command);
      const out = new Output(!!opts.json);
      const since = opts.since === undefined ? undefined : count(opts.since, "--since");
      const limit = count(opts.limit, "--limit");
      const credential = resolveCredential(opts);
      // Ctrl-C (or SIGTERM) ends the tail cleanly, at any point: what was shown stays remembered.
      let stop: () => void = () => {};
      const stopped = new Promise<void>((resolve) => (stop = resolve));
      process.once("SIGINT", () => stop());
      process.once("SIGTERM", () => stop());
      const [{ openSession }, { resolveTarget }, { formatMessage }] = await Promise.all([import("../session"), import("../targets"), import("../format")]);
      const session = await openSession(credential);
      const { client, me } = session;
      try {
        const to = await resolveTarget(session, target);
        const roomId = to.roomId;
        const seqs = new Map<string, number>();
        let last = since ?? loadPosition(credential.url, me.id, roomId) ?? (await startOfWindow(client, roomId, to.room?.lastSeq, limit));

        const show = (m: MessageView) => {
          if (m.seq <= last) return;
          seqs.set(m.id, m.seq);
          out.record(m, () => formatMessage(m, (id) => seqs.get(id)));
          last = m.seq;
        };
        const remember = () => savePosition(credential.url, me.id, roomId, last);
        /** Everything after `last`, page by page. */
        const catchUp = async () => {
          for (;;) {
            const page = await client.request("room:sync", { roomId, afterSeq: last, limit: 500 });
            for (const m of page.messages) show(m);
            last = Math.max(last, page.lastSeq);
            remember();
            if (!page.hasMore) return;
          }
        };

        // One queue, in arrival order: the catch-up, then live events (a gap is filled from `last`),
        // reconnections and polls. Listening starts before the catch-up, so nothing falls in between.
        let queue = Promise.resolve();
        const failures: CliError[] = [];
        const run = (work: () => Promise<void>) => {
          queue = queue.then(work).catch((error: unknown) => {
            const failed = toCliError(error);
            if (opts.follow && failed.exitCode === EXIT.RETRY_LATER) return; // the connection comes back; the next poll catches up
            failures.push(failed);
            stop();
          });
        };
        const live = (messages: MessageView[]) =>
          run(async () => {
            for (const m of messages) {
              if (m.seq === last + 1) show(m);
              else if (m.seq > last) await catchUp();
            }
            remember();
          });
        if (opts.follow) {
          client.on("message:new", (p) => p.roomId === roomId && live([p.message]));
          client.on("message:batch", (p) => p.roomId === roomId && live(p.messages));
          client.on("session:ready", () => run(catchUp)); // reconnected: what was missed meanwhile
        }
        run(catchUp);
        if (opts.follow) {
          // People's sockets follow every room they are in; agents' only in `all` mode.
          const pushed = to.membership !== null && (me.kind === "human" || to.membership.deliveryMode === "all");
          const timer = setInterval(() => run(catchUp), pushed ? POLL_MS.pushed : POLL_MS.unpushed);
          await stopped;
          clearInterval(timer);
          // A request may be waiting for a connection that is not coming back: do not wait for it long.
          await Promise.race([queue, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
        } else {
          await queue;
        }
        if (failures.length) throw failures[0];
      } finally {
        await session.close();
      }
    });
}

/** The seq after which the last `limit` messages of the room start (one seq per message or event). */
async function startOfWindow(client: SwitchboardClient, roomId: string, lastSeq: number | undefined, limit: number): Promise<number> {
  if (lastSeq !== undefined) return Math.max(0, lastSeq - limit);
  // Not a member (a public channel by id): find the room's end first.
  let after = 0;
  for (;;) {
    const page = await client.request("room:sync", { roomId, afterSeq: after, limit: 1000 });
    after = page.lastSeq;
    if (!page.hasMore) return Math.max(0, after - limit);
  }
}

function count(value: string, flag: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(EXIT.USAGE, `${flag} takes a whole number, not ${JSON.stringify(value)}.`);
  return Number(value);
}
