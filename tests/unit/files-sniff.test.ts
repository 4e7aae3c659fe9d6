// What a file is, from its bytes: each image type's dimensions from its header, text told from binary,
// markup and script recorded as what they are; and names as they are kept.
import { describe, expect, it } from "vitest";
import { fileDisplay } from "@switchboard/sdk/files";
import { sanitizeName, sniff } from "../../server/services/files/sniff";
import { png } from "../integration/fixtures/sample-files";

const bytes = (...parts: (number[] | string)[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));
const le16 = (n: number) => [n & 0xff, n >> 8];
const be16 = (n: number) => [n >> 8, n & 0xff];

describe("sniff", () => {
  it("reads each image type's dimensions from its header", () => {
    expect(sniff(png(640, 480), "x")).toEqual({ contentType: "image/png", width: 640, height: 480 });
    expect(sniff(bytes("GIF89a", le16(320), le16(200), [0, 0, 0]), "x")).toEqual({ contentType: "image/gif", width: 320, height: 200 });
    // A JPEG: SOI, an APP0 segment to skip, then the frame header (SOF0) with height then width.
    const jpeg = bytes(
      [0xff, 0xd8],
      [0xff, 0xe0],
      be16(16),
      "JFIF\0",
      new Array(9).fill(0),
      [0xff, 0xc0],
      be16(17),
      [8],
      be16(1080),
      be16(1920),
      [3],
      new Array(9).fill(0),
    );
    expect(sniff(jpeg, "x")).toEqual({ contentType: "image/jpeg", width: 1920, height: 1080 });
    const vp8x = bytes("RIFF", [0, 0, 0, 0], "WEBPVP8X", [10, 0, 0, 0], [0, 0, 0, 0], [0xff, 0x03, 0], [0xdf, 0x01, 0]);
    expect(sniff(vp8x, "x")).toEqual({ contentType: "image/webp", width: 1024, height: 480 });
    const vp8 = bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 ", [0, 0, 0, 0], [0, 0, 0], [0x9d, 0x01, 0x2a], le16(800), le16(600));
    expect(sniff(vp8, "x")).toEqual({ contentType: "image/webp", width: 800, height: 600 });
    // VP8L: 14 bits of width - 1, then 14 of height - 1.
    const bits = 99 | (49 << 14);
    const vp8l = bytes(
      "RIFF",
      [0, 0, 0, 0],
      "WEBPVP8L",
      [0, 0, 0, 0],
      [0x2f],
      [bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >>> 24],
      new Array(8).fill(0),
    );
    expect(sniff(vp8l, "x")).toEqual({ contentType: "image/webp", width: 100, height: 50 });
    expect(sniff(bytes([0x89], "PNG\r\n\x1a\n"), "x")).toEqual({ contentType: "image/png", width: null, height: null }); // cut short: no size
  });

  it("tells text from binary, and records markup and script as what they are, whatever the name says", () => {
    const type = (content: string | Buffer, name: string) => sniff(Buffer.isBuffer(content) ? content : Buffer.from(content), name).contentType;
    expect(type("# Title\n", "notes.md")).toBe("text/markdown");
    expect(type("a,b\n1,2\n", "t.csv")).toBe("text/csv");
    expect(type("héllo wörld ✓\n", "x.txt")).toBe("text/plain");
    expect(type("plain", "x.png")).toBe("text/plain");
    expect(type("<!DOCTYPE html><p>hi", "cat.png")).toBe("text/html");
    expect(type("  <script>alert(1)</script>", "a.txt")).toBe("text/html");
    expect(type('<svg xmlns="http://www.w3.org/2000/svg"/>', "a.png")).toBe("image/svg+xml");
    expect(type('<?xml version="1.0"?><a/>', "a")).toBe("application/xml");
    expect(type("alert(1)", "app.mjs")).toBe("text/javascript");
    expect(type(Buffer.from([0x68, 0x69, 0x00, 0x01]), "a.txt")).toBe("application/octet-stream");
    expect(type(Buffer.from([0xc3, 0x28]), "a.txt")).toBe("application/octet-stream"); // not UTF-8
    expect(type(Buffer.concat([Buffer.from("ok "), Buffer.from("é").subarray(0, 1)]), "a.txt")).toBe("text/plain"); // cut mid-character
    expect(type("%PDF-1.4\n", "a.txt")).toBe("application/pdf");
    expect(type(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0]), "a.docx")).toBe("application/zip");
  });

  it("shows images, PDF, Markdown and text in the app, never SVG or HTML as images or pages", () => {
    const display = (contentType: string, name = "x") => fileDisplay({ contentType, name });
    expect([display("image/png"), display("application/pdf"), display("text/markdown"), display("text/csv")]).toEqual(["image", "pdf", "markdown", "text"]);
    expect([display("image/svg+xml"), display("text/html"), display("application/xml"), display("text/javascript")]).toEqual(["text", "text", "text", "text"]);
    expect(display("application/zip")).toBe("download");
  });
});

describe("sanitizeName", () => {
  it("keeps the last path segment, without control or direction characters, trimmed and bounded", () => {
    expect(sanitizeName("../../etc/passwd", 200)).toBe("passwd");
    expect(sanitizeName("C:\\temp\\a b.txt", 200)).toBe("a b.txt");
    expect(sanitizeName("evil\u202egnp.exe", 200)).toBe("evilgnp.exe");
    expect(sanitizeName("line\r\nbreak.md", 200)).toBe("linebreak.md");
    expect(sanitizeName(" .hidden. ", 200)).toBe("hidden");
    expect(sanitizeName("/", 200)).toBe("file");
    expect(sanitizeName(`${"a".repeat(50)}.tar.gz`, 20)).toBe(`${"a".repeat(17)}.gz`);
  });
});
