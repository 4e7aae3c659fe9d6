// The messages bench/search.ts searches: chat-like text from a vocabulary of 5,000 words drawn with a
// Zipf distribution (English function words and team-chat words first, then made-up words for the long
// tail), some two-word collocations (what a "phrase" query finds), links, @mentions and thread replies,
// in 50 rooms of Zipf-distributed traffic over 90 days. Deterministic (seeded), generated on the fly:
// nothing but the thread plan is held in memory.
import { randomUUID } from "node:crypto";
import { prng } from "../tests/integration/harness";

/** The most frequent words of team chat, roughly in order; many are stop words PostgreSQL's 'english' leaves out. */
const HEAD = `the to and a i it is for on we in that this of you be with deploy can build test but
not have so fix just do are if at now review will me up my what error release as get check
all from out run was one they need server should there see looks merge issue by think or our an
back let branch update job main logs failing still time migration config know ok thanks into about
staging production after when like new did pipeline more some here also go then change how service
done database cache queue worker api request timeout retry alert incident metrics dashboard latency
rollback patch version commit agent prompt model token cost report task ticket team meeting today
tomorrow yesterday week morning afternoon sure yes no maybe please could would again because only
before first last next same other any every its their them than too very well good bad slow fast
broken green red flaky ready blocked waiting working started finished pushed merged reverted tagged
approved shipped scheduled paused restarted upgraded pinned cluster node pod container image
registry volume secret key certificate domain proxy gateway route endpoint schema table index query
row column field record payload response header cookie session user account customer invoice
payment order product feature flag experiment rollout canary traffic region zone backup snapshot
restore replica primary leader follower shard partition topic stream event message channel thread
reply mention link file document spec draft plan estimate budget deadline priority severity owner
reviewer assignee label milestone sprint backlog roadmap goal risk note summary question answer
idea proposal decision context history trace span profile memory cpu disk network packet socket
connection handshake retries backoff throttle limit quota spike drop leak crash panic exception
warning stack frame line function method class module package dependency lockfile script command
terminal shell cron daemon webhook callback handler middleware router controller view component
layout style theme font icon button modal form input select checkbox toggle tooltip menu sidebar`;

const ONSETS = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "t", "v", "z", "br", "dr", "gr", "kr", "pl", "st", "tr", "sh", "ch", "th"];
const VOWELS = ["a", "o", "i", "u", "ai", "ou", "ea"];
const CODAS = ["", "", "", "n", "r", "l", "m", "k", "x", "nd", "rt"];

/** 5,000 distinct words, the most frequent first. */
export function vocabulary(size = 5000): string[] {
  const words = [...new Set(HEAD.split(/\s+/).filter(Boolean))];
  const seen = new Set(words);
  const rand = prng(11);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  while (words.length < size) {
    const syllables = 2 + Math.floor(rand() * 2);
    let word = "";
    for (let s = 0; s < syllables; s++) word += pick(ONSETS) + pick(VOWELS);
    word += pick(CODAS);
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

/** Two-word collocations, the most frequent first: what "phrase" queries look for. */
export const PHRASES = [
  "pull request",
  "load balancer",
  "release notes",
  "error budget",
  "on call",
  "feature flag",
  "root cause",
  "connection pool",
  "rate limit",
  "cold start",
  "memory leak",
  "disk space",
  "dead letter",
  "health check",
  "code review",
  "blue green",
  "hot fix",
  "build cache",
  "smoke test",
  "access token",
];

/** Draws ranks 0..n-1 with probability proportional to 1 / (rank + 1)^s. */
export function zipf(n: number, s: number, rand: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) cumulative[r] = total += 1 / Math.pow(r + 1, s);
  return () => {
    const u = rand() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Who the searcher is to a room: in it or not, and whether anyone in the workspace may read it. */
export type RoomAccess = "public-member" | "public-other" | "private-member" | "private-other";

/** 50 rooms; the access cycles so that busy and quiet rooms of each kind exist. 30 are readable by the searcher. */
export const ROOM_PLAN: { name: string; access: RoomAccess }[] = [
  "ops",
  "deploys",
  "incidents",
  "backend",
  "frontend",
  "agents",
  "releases",
  "infra",
  "support",
  "billing",
  "data",
  "mobile",
  "security",
  "design",
  "product",
  "growth",
  "platform",
  "search",
  "payments",
  "alerts",
  "oncall",
  "sre",
  "qa",
  "docs",
  "api",
  "sdk",
  "ml",
  "evals",
  "prompts",
  "costs",
  "hiring",
  "leads",
  "finance",
  "legal",
  "sales",
  "marketing",
  "partners",
  "random",
  "standup",
  "retro",
  "planning",
  "roadmap",
  "perf",
  "storage",
  "network",
  "identity",
  "notifications",
  "web",
  "ios",
  "android",
].map((name, i) => ({
  name,
  access: (["public-member", "private-member", "private-other", "public-other", "private-other"] as const)[i % 5],
}));

export interface CorpusMessage {
  id: string;
  roomId: string;
  seq: number;
  authorId: string;
  kind: "text";
  body: string;
  clientMsgId: string;
  threadRootId: string | null;
  replyCount: number;
  lastReplyAt: Date | null;
  createdAt: Date;
}

export interface CorpusMention {
  messageId: string;
  participantId: string;
  roomId: string;
  seq: number;
}

export interface CorpusPlan {
  messages: number;
  /** Room ids, in ROOM_PLAN's order. */
  roomIds: string[];
  /** Each room's last seq before the corpus (its events): the corpus's seqs follow. */
  firstSeq: number[];
  /** Authors (id and handle), the most active first. */
  authors: { id: string; handle: string }[];
  /** The last message's time; the first is 90 days before it. */
  end: Date;
}

const DAYS = 90;
const THREAD_ROOTS = 0.04; // of top-level messages
const MAX_REPLIES = 8;

/**
 * Where each message goes and which thread it answers, decided before any text: a root's reply count
 * and last reply are known when it is written. Typed arrays: a few bytes a message.
 */
function threadPlan(plan: CorpusPlan) {
  const rand = prng(3);
  const room = zipf(plan.roomIds.length, 0.9, rand);
  const roomOf = new Uint8Array(plan.messages);
  const rootOf = new Int32Array(plan.messages).fill(-1);
  const replies = new Uint16Array(plan.messages);
  const lastReply = new Int32Array(plan.messages).fill(-1);
  // Per room: open threads waiting for replies (root index, replies still to come).
  const open: { root: number; left: number }[][] = plan.roomIds.map(() => []);
  for (let i = 0; i < plan.messages; i++) {
    const r = room();
    roomOf[i] = r;
    const waiting = open[r];
    if (waiting.length > 0 && rand() < 0.35) {
      const k = Math.floor(rand() * waiting.length);
      const t = waiting[k];
      rootOf[i] = t.root;
      replies[t.root]++;
      lastReply[t.root] = i;
      if (--t.left === 0) waiting.splice(k, 1);
    } else if (rand() < THREAD_ROOTS) {
      waiting.push({ root: i, left: 1 + Math.floor(rand() * MAX_REPLIES) });
      if (waiting.length > 20) waiting.shift(); // an old thread goes quiet
    }
  }
  return { roomOf, rootOf, replies, lastReply };
}

/** The corpus, in time order, each message with the mentions it makes. */
export function* corpus(plan: CorpusPlan): Generator<{ message: CorpusMessage; mentions: CorpusMention[] }> {
  const { roomOf, rootOf, replies, lastReply } = threadPlan(plan);
  const words = vocabulary();
  const rand = prng(5);
  const word = zipf(words.length, 1.1, rand);
  const phrase = zipf(PHRASES.length, 1, rand);
  const author = zipf(plan.authors.length, 0.8, rand);
  const start = plan.end.getTime() - DAYS * 86_400_000;
  const at = (i: number) => new Date(start + Math.floor((i / plan.messages) * DAYS * 86_400_000));
  const seqs = new Int32Array(plan.roomIds.length);
  const rootIds = new Map<number, string>();
  for (let i = 0; i < plan.messages; i++) {
    const id = randomUUID();
    const roomId = plan.roomIds[roomOf[i]];
    const seq = plan.firstSeq[roomOf[i]] + ++seqs[roomOf[i]];
    if (replies[i] > 0) rootIds.set(i, id);
    const threadRootId = rootOf[i] >= 0 ? rootIds.get(rootOf[i])! : null;
    if (rootOf[i] >= 0 && lastReply[rootOf[i]] === i) rootIds.delete(rootOf[i]);

    // 3 words or more, 12 on average, a long message now and then.
    const length = 3 + Math.min(80, Math.floor(-Math.log(1 - rand()) * 9));
    const text: string[] = [];
    for (let w = 0; w < length; w++) text.push(words[word()]);
    if (rand() < 0.15) text.splice(Math.floor(rand() * text.length), 0, PHRASES[phrase()]);
    if (rand() < 0.05) {
      const [a, b] = [words[word()], words[word()]];
      text.push(rand() < 0.5 ? `https://github.com/acme/${a}/pull/${1 + Math.floor(rand() * 9000)}` : `https://docs.acme.dev/${a}/${b}`);
    }
    const mentioned: string[] = [];
    if (rand() < 0.08) {
      const who = plan.authors[author()];
      text.unshift(`@${who.handle}`);
      mentioned.push(who.id);
    }
    const body = text.join(" ");
    yield {
      message: {
        id,
        roomId,
        seq,
        authorId: plan.authors[author()].id,
        kind: "text",
        body: body[0].toUpperCase() + body.slice(1) + (rand() < 0.2 ? "?" : "."),
        clientMsgId: `search-bench-${i}`,
        threadRootId,
        replyCount: replies[i],
        lastReplyAt: lastReply[i] >= 0 ? at(lastReply[i]) : null,
        createdAt: at(i),
      },
      mentions: mentioned.map((participantId) => ({ messageId: id, participantId, roomId, seq })),
    };
  }
}
