import { describe, expect, it } from "vitest";
import { ElidedText, HEAD_LENGTH, LeanJsonError, LeanJsonParser } from "../../server/http/lean-json";

/** Parses `text` fed in pieces of `step` bytes (every split point of multi-byte characters included). */
function parse(text: string, keep = Infinity, step = 0): unknown {
  const parser = new LeanJsonParser(keep);
  const bytes = Buffer.from(text, "utf8");
  if (step <= 0) parser.write(bytes);
  else for (let i = 0; i < bytes.length; i += step) parser.write(bytes.subarray(i, i + step));
  return parser.end();
}

const SAMPLES = [
  "{}",
  "[]",
  '""',
  "0",
  "-12.5e+3",
  "true",
  "null",
  ' { "a" : [ 1 , 2.5 , -0 , true , false , null , "x" ] , "b" : { } , "c" : [ ] } ',
  '{"esc":"q\\"b\\\\s\\/n\\nt\\tu\\u00e9\\ud83d\\ude00 r\\r b\\b f\\f","ünï":"日本語 🎉"}',
  '{"dup":1,"dup":2,"__proto__":{"polluted":true}}',
  '[[[[{"deep":[{"x":[1,[2,[3]]]}]}]]]]',
  JSON.stringify({ session_id: "s", tool_input: { content: "line\n".repeat(50), file_path: "/a/b.ts" }, n: [1e21, 1e-7, 123456789012] }),
];

describe("LeanJsonParser", () => {
  it("reads what JSON.parse reads, whatever the chunking", () => {
    for (const text of SAMPLES) {
      for (const step of [0, 1, 2, 3, 7]) expect(parse(text, Infinity, step), `${text} by ${step}`).toEqual(JSON.parse(text));
    }
    const proto = parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(["__proto__"]);
  });

  it("refuses what JSON.parse refuses", () => {
    for (const text of [
      "",
      "{",
      "[1,]",
      '{"a":1,}',
      '{"a" 1}',
      "{a:1}",
      "[1 2]",
      "01",
      "1.",
      "-",
      "tru",
      "nulll",
      '"\\x"',
      '"\\u12G4"',
      '"a\nb"',
      "{} {}",
      '{"a":1}]',
      "[}",
      '"open',
      "[1,,2]",
    ]) {
      expect(() => parse(text), JSON.stringify(text)).toThrow(LeanJsonError);
      expect(() => JSON.parse(text), JSON.stringify(text)).toThrow();
    }
    expect(() => parse("[".repeat(65) + "]".repeat(65))).toThrow(/too deep/);
  });

  it("keeps strings up to the bound and only the length, lines and head of longer ones, across chunks", () => {
    const file = "const a = 1;\n".repeat(10_000); // 130,000 characters, 10,000 lines
    const body = JSON.stringify({
      tool_input: { file_path: "/p/a.ts", content: file },
      tool_response: { structuredPatch: [{ lines: ["+é".repeat(40_000)] }], short: "kept" },
    });
    for (const step of [0, 4096, 9]) {
      const parsed = parse(body, 64 * 1024, step) as {
        tool_input: { file_path: string; content: ElidedText };
        tool_response: { structuredPatch: { lines: ElidedText[] }[]; short: string };
      };
      expect(parsed.tool_input.file_path).toBe("/p/a.ts");
      expect(parsed.tool_response.short).toBe("kept");
      const content = parsed.tool_input.content;
      expect(content).toBeInstanceOf(ElidedText);
      expect(content).toEqual(new ElidedText(file.length, 10_000, file.slice(0, HEAD_LENGTH)));
      expect(parsed.tool_response.structuredPatch[0].lines[0]).toEqual(new ElidedText(80_000, 1, "+é".repeat(HEAD_LENGTH / 2)));
    }
    // Lines as lineCount counts them: a last line without a newline counts, a trailing newline adds none.
    expect((parse(JSON.stringify("x\ny".repeat(100)), 10) as ElidedText).lines).toBe(101);
    expect((parse(JSON.stringify("x\n".repeat(100)), 10) as ElidedText).lines).toBe(100);
    expect((parse(JSON.stringify("x\\u000a".repeat(20)), 10) as ElidedText).lines).toBe(1); // an escaped backslash: no newline
    expect((parse('"' + "ab\\u000a".repeat(20) + '"', 10) as ElidedText).lines).toBe(20);
    // A key is never elided: one past the bound is refused.
    expect(() => parse(JSON.stringify({ ["k".repeat(20)]: 1 }), 10)).toThrow(/key too long/);
  });
});

// Edges of stream-json's tokenizer that the samples above do not reach: its fast path takes a whole
// lexeme in one piece, its slow path (escapes, long strings, a lexeme cut by a chunk's end) in pieces.
describe("LeanJsonParser on stream-json's edges", () => {
  const byEveryByte = (text: string, keep = Infinity) => parse(text, keep, 1);

  it("reads numbers, surrogates and lone escapes as JSON.parse does, split at every byte", () => {
    for (const text of [
      "[0,-0,1e21,1E+2,-1e-400,1e400,0.1,123456789012345678901234567890,5e-324]",
      " 42 ",
      "7",
      '"😀 🎉 é"',
      '"\\ud83d\\ude00\\ud800\\udfff"',
      '["\\ud800","\\ud800x","x\\udc00","\\u2028\u2028"]',
      `{"long":${JSON.stringify("a😀".repeat(300) + '\\"\n')},"after":[true,false,null]}`,
      '{"constructor":1,"__proto__":[],"toString":"x"}',
    ]) {
      expect(byEveryByte(text), text).toEqual(JSON.parse(text));
    }
  });

  it("counts a long string of surrogate pairs in UTF-16 code units, whatever the chunking", () => {
    const emoji = "😀".repeat(4_000);
    for (const body of [JSON.stringify(emoji), '"' + "\\ud83d\\ude00".repeat(4_000) + '"']) {
      for (const step of [0, 1, 3, 4096])
        expect(parse(body, 1000, step), `${body.slice(0, 20)} by ${step}`).toEqual(new ElidedText(8_000, 1, emoji.slice(0, HEAD_LENGTH)));
    }
  });

  it("keeps a string exactly at the bound, elides one past it", () => {
    expect(parse(JSON.stringify("x".repeat(10)), 10, 1)).toBe("x".repeat(10));
    expect(parse(JSON.stringify("x".repeat(11)), 10, 1)).toEqual(new ElidedText(11, 1, "x".repeat(11)));
  });

  it("refuses a byte-order mark (as JSON.parse does), and keys or numbers past the bound", () => {
    expect(() => parse("\uFEFF{}")).toThrow(LeanJsonError);
    expect(() => JSON.parse("\uFEFF{}")).toThrow();
    expect(parse(JSON.stringify({ ["k".repeat(10)]: 1 }), 10, 1)).toEqual({ ["k".repeat(10)]: 1 });
    expect(() => parse(JSON.stringify({ ["k".repeat(20)]: 1 }), 10, 1)).toThrow(/key too long/);
    expect(() => parse("1".repeat(20), 10, 3)).toThrow(/Number too long/);
    expect(parse("[".repeat(64) + "]".repeat(64), Infinity, 1)).toEqual(JSON.parse("[".repeat(64) + "]".repeat(64)));
  });
});
