// `switchboard send <#room|@handle> <text…>`: one message, stored once however often it is retried.
// The clientMsgId is generated once per run (or given with --client-msg-id, so a script that runs the
// command again after a failure still stores one message); retries inside the run reuse it.
import { randomUUID } from "node:crypto";
import type { Command } from "commander";
import type { SentMessageView } from "@switchboard/sdk/contract";
import { optionsOf, resolveCredential } from "../credentials";
import { CliError, EXIT, toCliError } from "../exit-codes";
import { Output } from "../output";
import type { Session } from "../session";

type SendOptions = {
  thread?: string;
  clientMsgId?: string;
};

export function registerSend(program: Command): void {
  program
    .command("send")
    .summary("send a message to '#room' or @handle")
    .description(
      "Send a message to '#room' (quote the #: unquoted, a shell starts a comment), @handle (the DM with them) or a room id. Without text, it is read from stdin. Stored once however often it is retried.",
    )
    .argument("<target>", "'#room', @handle, or a room's name or id")
    .argument("[text...]", "the message (Markdown); several words are joined with spaces")
    .option("--thread <message>", "reply in the thread of this message (its id, or its seq in the room)")
    .option("--client-msg-id <id>", "the send's idempotency key (default: a new UUID); the same id again returns the stored message")
    .action(async (target: string, words: string[], _opts: object, command: Command) => {
      const opts = optionsOf<SendOptions>(command);
      const out = new Output(!!opts.json);
      const body = words.length ? words.join(" ") : await readStdin();
      if (!body.trim()) throw new CliError(EXIT.USAGE, "Nothing to send.", { code: "MESSAGE_EMPTY", hint: "Give the text after the target, or pipe it in." });
      const credential = resolveCredential(opts);
      const [{ withSession }, { resolveTarget }, { describeUnreached }] = await Promise.all([
        import("../session"),
        import("../targets"),
        import("@switchboard/sdk/contract"),
      ]);
      await withSession(credential, async (session) => {
        const to = await resolveTarget(session, target);
        const threadRootId = opts.thread ? await threadRoot(session, to.roomId, opts.thread) : undefined;
        const clientMsgId = opts.clientMsgId ?? randomUUID();
        const message = await sendOnce(session, { roomId: to.roomId, body, clientMsgId, ...(threadRootId ? { threadRootId } : {}) });
        const unreached = message.unreached?.length ? `\nNot delivered to ${describeUnreached(message.unreached)}.` : "";
        out.record(message, `Sent to ${to.label}${threadRootId ? " (in a thread)" : ""}: seq ${message.seq}, id ${message.id}.${unreached}`);
      });
    });
}

/**
 * Sends with the same clientMsgId until stored: after no answer (the server may have stored it; the
 * repeat returns that message) and after a short retryable refusal. A long wait (a rate limit) ends
 * the command with exit 75 and the id to retry with.
 */
async function sendOnce(session: Session, payload: { roomId: string; body: string; clientMsgId: string; threadRootId?: string }): Promise<SentMessageView> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await session.client.request("message:send", payload, 1);
    } catch (error) {
      const failure = toCliError(error);
      const waitMs = failure.code === "TIMEOUT" ? 500 : failure.retryAfterMs;
      if (failure.exitCode !== EXIT.RETRY_LATER || attempt >= 3 || (waitMs ?? 0) > 3_000) {
        if (failure.exitCode === EXIT.RETRY_LATER) {
          const hint = `${failure.hint ?? "Retry later."} Retry with --client-msg-id ${payload.clientMsgId} to store it only once.`;
          throw new CliError(failure.exitCode, failure.message, { code: failure.code, retryAfterMs: failure.retryAfterMs, hint });
        }
        throw failure;
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs ?? 500 * attempt));
    }
  }
}

/** `--thread`: a message id, or a seq in the room; a reply's thread is its root's. */
async function threadRoot(session: Session, roomId: string, ref: string): Promise<string> {
  if (!/^\d+$/.test(ref)) return ref;
  const seq = Number(ref);
  const page = await session.client.request("room:sync", { roomId, afterSeq: Math.max(0, seq - 1), limit: 1 });
  const message = page.messages.find((m) => m.seq === seq);
  if (!message)
    throw new CliError(EXIT.NOT_FOUND, `No message with seq ${seq} in that room.`, {
      code: "MESSAGE_NOT_FOUND",
      hint: "`switchboard tail` shows seqs in [brackets].",
    });
  return message.threadRootId ?? message.id;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\n$/, "");
}
