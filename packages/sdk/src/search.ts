// Message search: the query people type (words, "quoted phrases", -excluded words and the operators
// they know from Slack and Zulip), read the same way by the server and by a client that highlights
// what matched (the answer's shape, `SearchResult`, is in contract.ts). The rules of who finds what are
// the server's (services/search/search.ts): a participant finds only what it may read.
import { z } from "zod";

export const SEARCH_QUERY_MAX = 500;
export const SEARCH_PAGE_MAX = 50;

export const searchMessagesInput = z.strictObject({
  /** Words, "phrases", -words, and in:#room, in:@handle (a DM), from:@handle, mentions:me, is:thread, has:link, has:file, has:reaction, before:/after:YYYY-MM-DD. */
  query: z.string().trim().min(1).max(SEARCH_QUERY_MAX),
  /** The best matches first (`relevance`, the default) or the newest. */
  sort: z.enum(["relevance", "date"]).default("relevance"),
  limit: z.number().int().min(1).max(SEARCH_PAGE_MAX).default(20),
  /** The previous page's `nextCursor`. */
  cursor: z
    .string()
    .regex(/^\d{1,6}$/)
    .optional(),
  /** tRPC's infinite queries add the page `direction`; pages only go forward. */
  direction: z.literal("forward").optional(),
});
export type SearchMessagesInput = z.input<typeof searchMessagesInput>;

/** A query as typed, read into its parts. */
export interface ParsedQuery {
  /** Words to find (each, in any order; STOP_WORDS left out). */
  words: string[];
  /** "Quoted phrases" to find as written. */
  phrases: string[];
  /** -words no result may have. */
  excluded: string[];
  /** in:#room or in:@handle (a direct conversation), as typed. */
  in: string | null;
  /** from:@handle (or from:me). */
  from: string | null;
  mentionsMe: boolean;
  isThread: boolean;
  hasLink: boolean;
  /** has:reaction: messages someone reacted to. */
  hasReaction: boolean;
  /** has:file: messages with files attached. */
  hasFile: boolean;
  /** before:YYYY-MM-DD (the messages of earlier days) and after:YYYY-MM-DD (of later days), as UTC day starts. */
  before: Date | null;
  after: Date | null;
}

/** An operator with a value it does not take, or one it does not know: said plainly (the server answers INVALID_PAYLOAD with it). */
export class SearchQueryError extends Error {}

const OPERATOR = /^(-?)(in|from|mentions|is|has|before|after|during|on):(.*)$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads a query: "quoted phrases", -words, operators, and the words left. Throws SearchQueryError for a malformed operator. */
export function parseSearchQuery(text: string): ParsedQuery {
  const parsed: ParsedQuery = {
    words: [],
    phrases: [],
    excluded: [],
    in: null,
    from: null,
    mentionsMe: false,
    isThread: false,
    hasLink: false,
    hasReaction: false,
    hasFile: false,
    before: null,
    after: null,
  };
  for (const match of text.matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
    if (match[2] !== undefined) {
      const phrase = wordsOf(match[2]).join(" ");
      if (phrase) (match[1] ? parsed.excluded : parsed.phrases).push(phrase);
      continue;
    }
    const token = match[3];
    const op = OPERATOR.exec(token);
    if (!op) {
      const words = wordsOf(token.replace(/^-/, "")).filter((w) => !STOP_WORDS.has(w));
      if (token.startsWith("-")) parsed.excluded.push(...words);
      else parsed.words.push(...words);
      continue;
    }
    const [, negated, name, value] = op;
    if (negated) throw new SearchQueryError(`${name.toLowerCase()}: cannot be excluded`);
    applyOperator(parsed, name.toLowerCase(), value.trim());
  }
  return parsed;
}

function applyOperator(parsed: ParsedQuery, name: string, value: string): void {
  const day = (v: string) => {
    if (!DAY.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) throw new SearchQueryError(`${name}: a day as YYYY-MM-DD, e.g. ${name}:2026-12-01`);
    return new Date(`${v}T00:00:00Z`);
  };
  switch (name) {
    case "in":
      if (!/^[#@]?\S+$/.test(value)) throw new SearchQueryError("in: a room, as in:#ops (or in:@dana for your conversation with Dana)");
      parsed.in = value;
      return;
    case "from":
      if (!/^(@\S+|me)$/i.test(value)) throw new SearchQueryError("from: someone, as from:@dana or from:me");
      parsed.from = value.toLowerCase() === "me" ? "me" : value;
      return;
    case "mentions":
      if (value.toLowerCase() !== "me") throw new SearchQueryError("mentions: only mentions:me");
      parsed.mentionsMe = true;
      return;
    case "is":
      if (value.toLowerCase() !== "thread") throw new SearchQueryError("is: only is:thread (replies in threads)");
      parsed.isThread = true;
      return;
    case "has":
      if (/^files?$/i.test(value)) {
        parsed.hasFile = true;
        return;
      }
      if (/^reactions?$/i.test(value)) {
        parsed.hasReaction = true;
        return;
      }
      if (value.toLowerCase() !== "link") throw new SearchQueryError("has: has:link, has:file or has:reaction");
      parsed.hasLink = true;
      return;
    case "before":
      parsed.before = day(value);
      return;
    case "after":
      // After a day: from the start of the next one.
      parsed.after = new Date(day(value).getTime() + 24 * 3600 * 1000);
      return;
    case "on":
    case "during": {
      const start = day(value);
      parsed.after = start;
      parsed.before = new Date(start.getTime() + 24 * 3600 * 1000);
      return;
    }
  }
}

/**
 * Words too common to find anything by (PostgreSQL's English stop words, which its index leaves out):
 * left out of a query's words on both databases, so that both find the same.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself " +
    "they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having " +
    "do does did doing a an the and but if or because as until while of at by for with about against between into through during " +
    "before after above below to from up down in out on off over under again further then once here there when where why how all any " +
    "both each few more most other some such no nor not only own same so than too very s t can will just don should now"
  ).split(" "),
);

/** The words of a text as search sees them: letters and digits, lower-cased. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Where a query's words and phrases occur in `body`, as [start, end) offsets: each word where a word
 * of the body starts with it (search stems words: "deploy" finds "deploying"), each phrase as written.
 */
export function highlightsIn(body: string, query: Pick<ParsedQuery, "words" | "phrases">): [number, number][] {
  const found: [number, number][] = [];
  const lower = body.toLowerCase();
  for (const word of query.words) {
    for (const m of lower.matchAll(/[\p{L}\p{N}]+/gu)) if (m[0].startsWith(word)) found.push([m.index, m.index + m[0].length]);
  }
  for (const phrase of query.phrases) {
    const pattern = new RegExp(phrase.split(" ").map(escapeRegExp).join("[^\\p{L}\\p{N}]+"), "gu");
    for (const m of lower.matchAll(pattern)) found.push([m.index, m.index + m[0].length]);
  }
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  // Overlapping ranges as one.
  const merged: [number, number][] = [];
  for (const r of found) {
    const last = merged.at(-1);
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  return merged;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
