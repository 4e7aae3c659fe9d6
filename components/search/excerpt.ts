// A search hit's text as shown: a window of the body around where the words first matched (a message
// may be 32 KiB), cut at word boundaries with an ellipsis, as parts marked matched or not.

const BEFORE = 80;
const LENGTH = 320;

export interface ExcerptPart {
  text: string;
  match: boolean;
}

export function excerpt(body: string, highlights: [number, number][]): ExcerptPart[] {
  const first = highlights[0]?.[0] ?? 0;
  let start = Math.max(0, first - BEFORE);
  let end = Math.min(body.length, start + LENGTH);
  // Whole words at either cut.
  if (start > 0) start = body.indexOf(" ", start) + 1 || start;
  if (end < body.length) end = body.lastIndexOf(" ", end) > start ? body.lastIndexOf(" ", end) : end;
  const parts: ExcerptPart[] = [];
  let at = start;
  for (const [a, b] of highlights) {
    if (b <= start || a >= end) continue;
    const from = Math.max(a, start);
    if (from > at) parts.push({ text: body.slice(at, from), match: false });
    parts.push({ text: body.slice(from, Math.min(b, end)), match: true });
    at = Math.min(b, end);
  }
  if (at < end) parts.push({ text: body.slice(at, end), match: false });
  if (start > 0) parts.unshift({ text: "…", match: false });
  if (end < body.length) parts.push({ text: "…", match: false });
  return parts;
}
