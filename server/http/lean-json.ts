// JSON read as it streams in, keeping every string up to a bound and only the shape of longer ones:
// their length, line count and first characters (`ElidedText`). For bodies that carry whole files a
// handler never reads (a Claude Code hook for a Write carries the file twice), so memory follows the
// bound, not the body. Otherwise JSON.parse's result: same values, last duplicate key wins, `__proto__`
// an own key. Malformed input throws LeanJsonError.
import { StringDecoder } from "node:string_decoder";

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

type Container = { kind: "object"; value: Record<string, unknown>; key: string | null } | { kind: "array"; value: unknown[] };

/**
 * States between characters: a value is expected (`value`, or `value-or-close` right after `[`), an
 * object's key (`key`, or `key-or-close` right after `{`), its colon, a comma or close after a value
 * (`after`), or the root value is done (`done`). Strings, numbers and literals are read in `token`.
 */
type Expect = "value" | "value-or-close" | "key" | "key-or-close" | "colon" | "after" | "done";

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const NUMBER_CHARS = /[-+0-9.eE]/;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

export class LeanJsonParser {
  private readonly decoder = new StringDecoder("utf8");
  private readonly stack: Container[] = [];
  private expect: Expect = "value";
  private root: unknown = undefined;
  // The token being read, when one is.
  private token: "string" | "number" | "literal" | null = null;
  private isKey = false;
  private parts: string[] = [];
  private length = 0;
  private newlines = 0;
  private endsWithNewline = false;
  private elided = false;
  private head = "";
  private escape: "" | "\\" | "u" = "";
  private hex = "";
  private scalar = "";

  /** `keep`: the longest string kept whole (in UTF-16 code units). */
  constructor(private readonly keep: number) {}

  write(chunk: Buffer): void {
    this.feed(this.decoder.write(chunk));
  }

  end(): unknown {
    this.feed(this.decoder.end());
    if (this.token === "number" || this.token === "literal") this.finishScalar();
    if (this.expect !== "done" || this.token) throw new LeanJsonError("Unexpected end of JSON");
    return this.root;
  }

  private feed(text: string): void {
    let i = 0;
    while (i < text.length) {
      if (this.token === "string") {
        i = this.readString(text, i);
        continue;
      }
      const c = text[i];
      if (this.token) {
        if (this.token === "number" ? NUMBER_CHARS.test(c) : c >= "a" && c <= "z") {
          this.scalar += c;
          if (this.scalar.length > 400) throw new LeanJsonError("Token too long");
          i++;
          continue;
        }
        this.finishScalar();
      }
      i++;
      if (WHITESPACE.has(c)) continue;
      switch (this.expect) {
        case "value":
        case "value-or-close":
          if (c === "]" && this.expect === "value-or-close") this.close("array");
          else this.startValue(c);
          break;
        case "key":
        case "key-or-close":
          if (c === "}" && this.expect === "key-or-close") this.close("object");
          else if (c === '"') this.startString(true);
          else throw this.unexpected(c);
          break;
        case "colon":
          if (c !== ":") throw this.unexpected(c);
          this.expect = "value";
          break;
        case "after": {
          const top = this.stack.at(-1)!;
          if (c === ",") this.expect = top.kind === "object" ? "key" : "value";
          else if (c === "}" || c === "]") this.close(c === "}" ? "object" : "array");
          else throw this.unexpected(c);
          break;
        }
        case "done":
          throw this.unexpected(c);
      }
    }
  }

  private startValue(c: string): void {
    if (c === "{" || c === "[") {
      if (this.stack.length >= MAX_DEPTH) throw new LeanJsonError("Nested too deep");
      const container: Container = c === "{" ? { kind: "object", value: {}, key: null } : { kind: "array", value: [] };
      this.place(container.value);
      this.stack.push(container);
      this.expect = c === "{" ? "key-or-close" : "value-or-close";
    } else if (c === '"') this.startString(false);
    else if (c === "-" || (c >= "0" && c <= "9")) this.startScalar("number", c);
    else if (c === "t" || c === "f" || c === "n") this.startScalar("literal", c);
    else throw this.unexpected(c);
  }

  private startScalar(kind: "number" | "literal", c: string): void {
    this.token = kind;
    this.scalar = c;
  }

  private finishScalar(): void {
    const text = this.scalar;
    let value: unknown;
    if (this.token === "number") {
      if (!NUMBER.test(text)) throw new LeanJsonError(`Bad number ${text.slice(0, 40)}`);
      value = Number(text);
    } else if (text === "true" || text === "false") value = text === "true";
    else if (text === "null") value = null;
    else throw new LeanJsonError(`Unexpected ${text.slice(0, 40)}`);
    this.token = null;
    this.scalar = "";
    this.place(value);
    this.settle();
  }

  private startString(isKey: boolean): void {
    this.token = "string";
    this.isKey = isKey;
    this.parts = [];
    this.length = 0;
    this.newlines = 0;
    this.endsWithNewline = false;
    this.elided = false;
    this.head = "";
  }

  /** Reads string content from `i` on; returns where it stopped (past the closing quote, or the end). */
  private readString(text: string, i: number): number {
    while (i < text.length) {
      if (this.escape === "\\") {
        const c = text[i++];
        if (c === "u") {
          this.escape = "u";
          this.hex = "";
          continue;
        }
        const unescaped = ESCAPES[c];
        if (unescaped === undefined) throw new LeanJsonError(`Bad escape \\${c}`);
        this.escape = "";
        this.append(unescaped);
        continue;
      }
      if (this.escape === "u") {
        this.hex += text[i++];
        if (this.hex.length < 4) continue;
        if (!/^[0-9a-fA-F]{4}$/.test(this.hex)) throw new LeanJsonError(`Bad escape \\u${this.hex}`);
        this.escape = "";
        this.append(String.fromCharCode(parseInt(this.hex, 16)));
        continue;
      }
      // A run of plain characters, taken as one slice.
      let j = i;
      while (j < text.length) {
        const code = text.charCodeAt(j);
        if (code === 0x22 || code === 0x5c || code < 0x20) break;
        j++;
      }
      if (j > i) this.append(text.slice(i, j));
      if (j === text.length) return j;
      const code = text.charCodeAt(j);
      if (code < 0x20) throw new LeanJsonError("Control character in a string");
      if (code === 0x5c) {
        this.escape = "\\";
        i = j + 1;
        continue;
      }
      this.finishString(); // the closing quote
      return j + 1;
    }
    return i;
  }

  private append(piece: string): void {
    if (!this.elided && this.length + piece.length <= this.keep) {
      this.length += piece.length;
      this.parts.push(piece);
      return;
    }
    if (!this.elided) {
      if (this.isKey) throw new LeanJsonError("Object key too long");
      const kept = this.parts.join("");
      this.head = kept.slice(0, HEAD_LENGTH);
      this.newlines = countNewlines(kept);
      this.endsWithNewline = kept.endsWith("\n");
      this.parts = [];
      this.elided = true;
    }
    this.length += piece.length;
    if (this.head.length < HEAD_LENGTH) this.head += piece.slice(0, HEAD_LENGTH - this.head.length);
    this.newlines += countNewlines(piece);
    this.endsWithNewline = piece.endsWith("\n");
  }

  private finishString(): void {
    this.token = null;
    const value = this.elided ? new ElidedText(this.length, this.newlines + (this.endsWithNewline ? 0 : 1), this.head) : this.parts.join("");
    this.parts = [];
    if (this.isKey) {
      (this.stack.at(-1) as { key: string | null }).key = value as string;
      this.expect = "colon";
      return;
    }
    this.place(value);
    this.settle();
  }

  /** Puts a value where the stack says: the root, the array's end or the object's pending key. */
  private place(value: unknown): void {
    const top = this.stack.at(-1);
    if (!top) this.root = value;
    else if (top.kind === "array") top.value.push(value);
    else Object.defineProperty(top.value, top.key!, { value, enumerable: true, writable: true, configurable: true });
  }

  /** After a scalar or a string value: what comes next. Containers settle when they close. */
  private settle(): void {
    this.expect = this.stack.length ? "after" : "done";
  }

  private close(kind: Container["kind"]): void {
    const top = this.stack.pop();
    if (top?.kind !== kind) throw new LeanJsonError(`Unexpected ${kind === "object" ? "}" : "]"}`);
    this.settle();
  }

  private unexpected(c: string): LeanJsonError {
    return new LeanJsonError(`Unexpected ${JSON.stringify(c)}`);
  }
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}
