// What a file is, read from its first bytes and never from what the uploader said: the images browsers
// show (PNG, JPEG, GIF, WebP) with their dimensions from the header, PDF, a few archives, and text
// (valid UTF-8 without NUL bytes). Everything else is application/octet-stream. Markup (HTML, SVG, XML)
// and script are recorded as what they are, and served as text/plain downloads (files.ts).

/** How many leading bytes are sniffed: enough for a JPEG's frame header after a large EXIF block. */
export const SNIFF_BYTES = 256 * 1024;

export interface Sniffed {
  contentType: string;
  width: number | null;
  height: number | null;
}

const startsWith = (head: Buffer, bytes: number[] | string, at = 0) => {
  const expected = typeof bytes === "string" ? Buffer.from(bytes, "latin1") : Buffer.from(bytes);
  return head.length >= at + expected.length && head.subarray(at, at + expected.length).equals(expected);
};

const image = (contentType: string, size: { width: number; height: number } | null): Sniffed => ({
  contentType,
  width: size?.width ?? null,
  height: size?.height ?? null,
});

/** The file's type from its first bytes (`head`, at most SNIFF_BYTES) and, for text alone, its name's extension. */
export function sniff(head: Buffer, name: string): Sniffed {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image("image/png", pngSize(head));
  if (startsWith(head, [0xff, 0xd8, 0xff])) return image("image/jpeg", jpegSize(head));
  if (startsWith(head, "GIF87a") || startsWith(head, "GIF89a"))
    return image("image/gif", head.length >= 10 ? { width: head.readUInt16LE(6), height: head.readUInt16LE(8) } : null);
  if (startsWith(head, "RIFF") && startsWith(head, "WEBP", 8)) return image("image/webp", webpSize(head));
  const other = (contentType: string): Sniffed => ({ contentType, width: null, height: null });
  if (startsWith(head, "%PDF-")) return other("application/pdf");
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return other("application/zip");
  if (startsWith(head, [0x1f, 0x8b])) return other("application/gzip");
  if (isText(head))
    return other(activeText(head, name) ?? (/\.(md|markdown|mdx)$/i.test(name) ? "text/markdown" : /\.csv$/i.test(name) ? "text/csv" : "text/plain"));
  return other("application/octet-stream");
}

/**
 * Text a browser would run if it took it for what it is: HTML, SVG, XML by their bytes, JavaScript by
 * its name (script has no signature). Stored as such, served only as text/plain downloads (files.ts).
 */
function activeText(head: Buffer, name: string): string | null {
  const start = head
    .subarray(0, 4096)
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart()
    .toLowerCase();
  if (/<svg[\s>]/.test(start)) return "image/svg+xml";
  if (start.startsWith("<?xml")) return "application/xml";
  if (/^<!doctype html|<(html|head|body|script|iframe|object|embed|meta|style|img|a)[\s>/]/.test(start)) return "text/html";
  if (/\.(xml|xsl|xhtml)$/i.test(name)) return "application/xml";
  if (/\.(x?html?)$/i.test(name)) return "text/html";
  if (/\.(svgz?)$/i.test(name)) return "image/svg+xml";
  if (/\.(js|mjs|cjs)$/i.test(name)) return "text/javascript";
  return null;
}

/** Valid UTF-8 (a sequence cut at the end of `head` allowed) with no NUL and few other control bytes. */
function isText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  let i = 0;
  let controls = 0;
  while (i < head.length) {
    const b = head[i];
    const length = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (length === 0) return false;
    if (length === 1 && b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) controls++;
    for (let k = 1; k < length; k++) {
      if (i + k >= head.length) return true; // cut by the sniffed length
      if ((head[i + k] & 0xc0) !== 0x80) return false;
    }
    i += length;
  }
  return controls <= head.length / 100;
}

function pngSize(head: Buffer) {
  // The IHDR chunk comes first: width and height are its first eight bytes, big-endian.
  if (head.length < 24 || !startsWith(head, "IHDR", 12)) return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/** The first start-of-frame segment's size (SOF0-SOF15 but DHT, JPG and DAC), walking the segments. */
function jpegSize(head: Buffer) {
  let i = 2;
  while (i + 9 < head.length) {
    if (head[i] !== 0xff) return null;
    const marker = head[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // no length
      continue;
    }
    const length = head.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: head.readUInt16BE(i + 5), width: head.readUInt16BE(i + 7) };
    }
    i += 2 + length;
  }
  return null;
}

function webpSize(head: Buffer) {
  if (head.length < 30) return null;
  const chunk = head.toString("latin1", 12, 16);
  if (chunk === "VP8X") return { width: 1 + head.readUIntLE(24, 3), height: 1 + head.readUIntLE(27, 3) };
  if (chunk === "VP8 ") return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = head.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return null;
}

/** Control characters, and the marks that reorder or hide text (a name that reads "gnp.exe" backwards). */
// eslint-disable-next-line no-control-regex
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * A name as stored and shown: its last path segment, without control or direction-changing characters,
 * spaces and dots trimmed at its ends, at most `max` characters (the extension kept); "file" if nothing
 * is left.
 */
export function sanitizeName(raw: string, max: number): string {
  const last = raw.split(/[/\\]/).pop() ?? "";
  const clean = last.normalize("NFC").replace(UNSHOWN, "").replace(/\s+/g, " ");
  let name = clean.replace(/^[\s.]+|[\s.]+$/g, "");
  if (name.length > max) {
    const dot = name.lastIndexOf(".");
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : "";
    name = name.slice(0, max - ext.length) + ext;
  }
  return name || "file";
}
