// A turn's answer shown while it streams: the first text is posted (in the turn's thread), each later
// one edits that message, at most every `everyMs`; the turn's final reply is its last edit. Posting
// goes through the turn's derived clientMsgId (MessageContext.send), so a turn run again after a
// crash finds the message it posted instead of posting another.
import type { MessageView } from "./contract.ts";

export class StreamedReply {
  private messageId: string | null = null;
  private started = false;
  private shown = "";
  private latest = "";
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<void> = Promise.resolve();
  /** Posting failed (the turn, run again, answered differently the first time): no more edits. */
  private given = false;

  constructor(
    private readonly post: (body: string) => Promise<MessageView>,
    private readonly edit: (messageId: string, body: string) => Promise<unknown>,
    private readonly log: (line: string) => void,
    private readonly everyMs = 400,
  ) {}

  /** The answer so far (the whole of it, not a delta). */
  update(text: string): void {
    if (!text.trim() || this.given) return;
    this.latest = text;
    this.timer ??= setTimeout(
      () => {
        this.timer = null;
        void this.push();
      },
      this.started ? this.everyMs : 0,
    );
    this.started = true;
  }

  /** Shows the final text; false when nothing was streamed (the caller posts the reply itself). */
  async finish(reply: string | null | undefined): Promise<boolean> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.started) return false;
    if (reply?.trim()) this.latest = reply;
    await this.push();
    return true;
  }

  private push(): Promise<void> {
    this.chain = this.chain.then(async () => {
      const text = this.latest;
      if (text === this.shown || this.given) return;
      try {
        if (this.messageId) await this.edit(this.messageId, text);
        else this.messageId = (await this.post(text)).id;
        this.shown = text;
      } catch (error) {
        if (!this.messageId) this.given = true;
        this.log(`switchboard: could not show the streamed answer: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return this.chain;
  }
}
