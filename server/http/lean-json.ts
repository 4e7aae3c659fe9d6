// JSON read as it streams in, keeping every string up to a bound and only the shape of longer ones:
// their length, line count and first characters (`ElidedText`). For bodies that carry whole files a
// handler never reads (a Claude Code hook for a Write carries the file twice), so memory follows the
// bound, not the body. Otherwise JSON.parse's result: same values, last duplicate key wins, `__proto__`
// an own key. Malformed input throws LeanJsonError.
//
// stream-json's tokenizer reads the text and hands every key, string and number over in pieces (a
// surrogate pair never split); this file builds the values from them.
import { StringDecoder } from "node:string_decoder";
import { none } from "stream-chain/defs.js";
import { jsonParser, type Token, type TokenSource } from "stream-json/core/parser.js";

/** A string too long to keep: what is known of it. */
export class ElidedText {
  constructor(
    /** In UTF-16 code units, as String.length counts. */
    readonly length: number,
    /** As `lineCount` counts: newlines, plus one unless the text ends with one. */
    readonly lines: number,
    /** Its first HEAD_LENGTH characters. */
    readonly head: string,
  ) {}
}

/** Enough for whatever a handler shows of a text (a command is stored up to 1000 characters). */
export const HEAD_LENGTH = 1024;
const MAX_DEPTH = 64;

export class LeanJsonError extends Error {}

type Container = { value: Record<string, unknown> | unknown[]; key: string };
const PIECES = { startKey: "key", startString: "string", startNumber: "number" } as const;

export class LeanJsonParser {
  private readonly decoder = new StringDecoder("utf8");
  // Nothing packed: every key, string and number in pieces. Ended, as stream-chain ends a stage, by a
  // call with `none`, which its type leaves out. Its errors (malformed text) are plain Errors.
  private readonly tokenize = jsonParser({ packValues: false }) as (text: string | typeof none) => ReturnType<TokenSource>;
  private readonly stack: Container[] = [];
  private root: unknown = undefined;
  /** The key, string or number being read, when one is. */
  private piece: Piece | null = null;

  /** `keep`: the longest string kept whole (in UTF-16 code units). */
  constructor(private readonly keep: number) {}

  write(chunk: Buffer): void {
    this.feed(this.decoder.write(chunk));
  }

  /** The value; the tokenizer refuses an end before it is whole. */
  end(): unknown {
    this.feed(this.decoder.end());
    this.feed(none);
    return this.root;
  }

  private feed(text: string | typeof none): void {
    let tokens: Token[];
    try {
      const out = this.tokenize(text);
      tokens = out === none ? [] : out.values;
    } catch (error) {
      throw new LeanJsonError((error as Error).message);
    }
    for (const token of tokens) this.take(token);
  }

  private take(token: Token): void {
    switch (token.name) {
      case "startObject":
      case "startArray": {
        if (this.stack.length >= MAX_DEPTH) throw new LeanJsonError("Nested too deep");
        const value = token.name === "startObject" ? {} : [];
        this.place(value);
        this.stack.push({ value, key: "" });
        return;
      }
      case "endObject":
      case "endArray":
        this.stack.pop();
        return;
      case "startKey":
      case "startString":
      case "startNumber":
        this.piece = new Piece(this.keep, PIECES[token.name]);
        return;
      case "stringChunk":
      case "numberChunk":
        this.piece!.add(token.value);
        return;
      case "endKey":
        this.stack.at(-1)!.key = this.piece!.text();
        return;
      case "endString":
        this.place(this.piece!.value());
        return;
      case "endNumber":
        this.place(Number(this.piece!.text()));
        return;
      case "nullValue":
      case "trueValue":
      case "falseValue":
        this.place(token.value);
        return;
    }
  }

  /** Puts a value where the stack says: the root, the array's end or the object's pending key. */
  private place(value: unknown): void {
    const top = this.stack.at(-1);
    if (!top) this.root = value;
    else if (Array.isArray(top.value)) top.value.push(value);
    // Defined, not assigned: `__proto__` stays an own key, as JSON.parse makes it.
    else Object.defineProperty(top.value, top.key, { value, enumerable: true, writable: true, configurable: true });
  }
}

/**
 * A key, string or number as its pieces arrive: kept whole up to `keep`; past it a string is only
 * counted, and a key or number (never elided) is refused.
 */
class Piece {
  private parts: string[] | null = [];
  private length = 0;
  private newlines = 0;
  private endsWithNewline = false;
  private head = "";

  constructor(
    private readonly keep: number,
    private readonly kind: (typeof PIECES)[keyof typeof PIECES],
  ) {}

  add(chunk: string): void {
    this.length += chunk.length;
    if (this.parts && this.length <= this.keep) this.parts.push(chunk);
    else if (this.kind !== "string") throw new LeanJsonError(`${this.kind === "key" ? "Object key" : "Number"} too long`);
    else this.parts = null;
    if (this.head.length < HEAD_LENGTH) this.head += chunk.slice(0, HEAD_LENGTH - this.head.length);
    for (let i = chunk.indexOf("\n"); i !== -1; i = chunk.indexOf("\n", i + 1)) this.newlines++;
    if (chunk) this.endsWithNewline = chunk.endsWith("\n");
  }

  text(): string {
    return this.parts!.join("");
  }

  value(): string | ElidedText {
    return this.parts ? this.parts.join("") : new ElidedText(this.length, this.newlines + (this.endsWithNewline ? 0 : 1), this.head);
  }
}
