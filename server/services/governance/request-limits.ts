// Limits on requests, per participant (across its sockets, and its processes with Redis): the chatty
// socket events and tRPC mutations. Generous on purpose: a real client stays far below them; a loop
// gone wrong or a flood is stopped with RATE_LIMITED and `retryAfterMs`. Each is in docs/protocol.md.
import type { Actor } from "../../policies";
import { consume, count, exhausted, type Rule } from "./limits";

/** Socket events that a client may send often, each with its own limit per participant. */
export const EVENT_LIMITS = {
  "room:typing": { name: "event-typing", points: 120, perSeconds: 60 },
  "room:sync": { name: "event-sync", points: 1200, perSeconds: 60 },
  "directory:search": { name: "event-directory", points: 300, perSeconds: 60 },
  "search:messages": { name: "event-search", points: 120, perSeconds: 60 },
  "connection:request": { name: "event-connection-request", points: 120, perSeconds: 60 },
  "usage:report": { name: "event-usage", points: 1200, perSeconds: 60 },
  "question:ask": { name: "event-question", points: 60, perSeconds: 60 },
  // A profile status goes to the whole workspace: a few a minute is plenty.
  "me:profile": { name: "event-profile", points: 30, perSeconds: 60 },
  // Reactions and pins: a person clicks a few a minute; an agent reacts to what it handles.
  "message:react": { name: "event-react", points: 300, perSeconds: 60 },
  "message:pin": { name: "event-pin", points: 60, perSeconds: 60 },
  // Files: uploads over HTTP, the socket and MCP together; reads (a timeline's images) many more.
  "file:upload": { name: "event-file-upload", points: 120, perSeconds: 60 },
  "file:get": { name: "event-file-get", points: 1200, perSeconds: 60 },
  // Work reports: a status heartbeat every few seconds at most, a todo list or files per tool call.
  "work:status": { name: "event-work-status", points: 240, perSeconds: 60 },
  "work:tasks": { name: "event-work-tasks", points: 600, perSeconds: 60 },
  "work:files": { name: "event-work-files", points: 1200, perSeconds: 60 },
  "work:link": { name: "event-work-link", points: 120, perSeconds: 60 },
  // Turns: one opened and ended per message answered; steps batched by the SDK (a batch per 100 ms at most).
  "turn:start": { name: "event-turn", points: 600, perSeconds: 60 },
  "turn:steps": { name: "event-turn-steps", points: 1200, perSeconds: 60 },
} as const satisfies Record<string, Rule>;

/** Claude Code hook requests of one agent (one per tool call and turn event, all its sessions together). */
export const HOOK_REQUESTS: Rule = { name: "hook-claude-code", points: 1200, perSeconds: 60 };

/** Every MCP tool call of one participant, over all its MCP sessions (the chatty ones also count as their event). */
export const MCP_TOOL_CALLS: Rule = { name: "mcp-tool-calls", points: 600, perSeconds: 60 };

/** A2A calls of one caller to agents served over A2A (every JSON-RPC request, reads too). */
export const A2A_REQUESTS: Rule = { name: "a2a-requests", points: 600, perSeconds: 60 };

/** tRPC mutations of one signed-in person (queries are not counted). */
export const MUTATIONS: Rule = { name: "trpc-mutations", points: 600, perSeconds: 60 };

/**
 * Requests one socket may have awaiting their answer at once; past it, a request waits its turn in the
 * connection's buffer (server/socket/backlog.ts, SOCKET_BUFFER_REQUESTS and SOCKET_BUFFER_BYTES in
 * server/env.ts), in arrival order. A new connection starts at OPENING_IN_FLIGHT (as many as the SDK ever
 * sends at once), and each request answered without a refusal widens it by one, up to MAX_IN_FLIGHT: a
 * client that opens with a burst has at most that much of the server working for it at once, while one
 * that has been answered gets the full window.
 */
export const OPENING_IN_FLIGHT = 64;
export const MAX_IN_FLIGHT = 256;
/** Of those, how many run at once (sends apart: they wait in their room's own queue, services/messaging/sending.ts). */
export const MAX_ACTIVE = 4;
/**
 * How many run at once while requests wait in the connection's buffer: a connection sending faster
 * than it is answered has one request at work at a time (its sends batched in their room's queue
 * apart), so that its burst takes turns of the event loop with everyone else's requests instead of
 * four of every turn (in the flood bench, the quiet room's p99 during a flood's first second fell by
 * about a fifth: bench/RESULTS.md).
 */
export const MAX_ACTIVE_BACKLOGGED = 1;
/**
 * A connection refused (RATE_LIMITED, for any limit) more than REFUSALS_BEFORE_PAUSE times within
 * REFUSALS_WINDOW_MS (more than a full window of requests: it sends on while told to wait) is not read
 * for READ_PAUSE_MS (on WebSocket, not long-polling): what it sends meanwhile waits in TCP, what it
 * sent before (in flight, and in its bounded buffer) is answered, nothing is dropped, and it is read
 * and answered again after. Answering a refusal is cheap, not free: a client sending tens of thousands
 * of requests a second would otherwise take a share of every turn of the event loop from every other
 * room only to be told no (bench/RESULTS.md, "One socket flooding").
 */
export const REFUSALS_BEFORE_PAUSE = MAX_IN_FLIGHT;
export const REFUSALS_WINDOW_MS = 1000;
export const READ_PAUSE_MS = 1000;
/** The wait a request refused for a full buffer is told to take. */
export const BUFFER_FULL_RETRY_MS = 1000;

/** Counts one request against `rule` for the actor: RATE_LIMITED (with retryAfterMs) past it. */
export function countRequest(rule: Rule, actor: Actor, what: string): Promise<void> {
  return consume(rule, actor.participantId, `${what}: at most ${rule.points} per ${rule.perSeconds} s`);
}

/** Counts one request of a signed-in account that acts as no participant (joining or creating a workspace), as countRequest does. */
export function countAccountRequest(rule: Rule, accountId: string, what: string): Promise<void> {
  return consume(rule, `account:${accountId}`, `${what}: at most ${rule.points} per ${rule.perSeconds} s`);
}

/**
 * A connection whose buffer is full and that keeps sending anyway: refused for a full buffer more than
 * CUT_OFF_REFUSALS times within CUT_OFF_WINDOW_MS, it is cut off (what waits in its buffer and what
 * it sends after are dropped, neither run nor answered; what is in flight is answered, then it is closed). Answering a refusal is cheap, but
 * not free: a socket sending tens of thousands of requests a second would take the process's time
 * from every other room only to be told no. Other refusals (a rate limit's, answered in the request's
 * turn) do not count: they come no faster than the server answers the connection.
 */
export const CUT_OFF_REFUSALS = 200;
export const CUT_OFF_WINDOW_MS = 10_000;
/**
 * A single cut-off lets the participant reconnect at once (a person's other tabs and the browser's own
 * reconnect are not punished for one script's burst); a second within the 10 minutes after the first
 * means a client that reconnects to do it again: its participant may not connect for
 * FLOODED.perSeconds (on every process).
 */
const CUT_OFFS: Rule = { name: "cut-offs", points: 2, perSeconds: 600 };
export const CUT_OFFS_BEFORE_COOLDOWN = CUT_OFFS.points;
export const CUT_OFFS_WINDOW_MS = CUT_OFFS.perSeconds * 1000;
const FLOODED: Rule = { name: "flooded", points: 1, perSeconds: 30 };
export const FLOOD_COOLDOWN_MS = FLOODED.perSeconds * 1000;

/**
 * Counts a cut-off of one of the participant's connections; resolves with whether it is now kept out
 * (a second within CUT_OFFS' window). A client cut off again reconnects with the same credential: its
 * reconnects are refused by the credential's fingerprint before it is authenticated (which costs a
 * database read), and by the participant after (another credential of the same participant).
 */
export async function recordCutOff(participantId: string, credentialFingerprint: string | null): Promise<boolean> {
  await count(CUT_OFFS, participantId);
  if (!(await exhausted(CUT_OFFS, participantId))) return false;
  await count(FLOODED, participantId);
  if (credentialFingerprint) await count(FLOODED, credentialFingerprint);
  return true;
}
export const floodCoolingDown = (key: string): Promise<boolean> => exhausted(FLOODED, key);
