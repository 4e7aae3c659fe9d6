// How one socket's requests are answered (server/socket/requests.ts), on a stand-in socket: the ack
// is found whatever came before it, a window of requests (OPENING_IN_FLIGHT, widening to MAX_IN_FLIGHT
// as they are answered) await their answer at once and MAX_ACTIVE run, the rest wait in a bounded
// buffer (server/socket/backlog.ts) in arrival order (one running at a time while some wait there), and
// a socket that keeps sending into a full buffer after being refused is cut off: what waits in its
// buffer is dropped, what is in flight is answered, then it is closed.
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { READ_ONLY_EVENTS, type Ack } from "@switchboard/sdk/contract";
import type { BufferLimits } from "../../server/socket/backlog";
import { CUT_OFF_DRAIN_MS, requestsOf, type AppSocket, type Requests } from "../../server/socket/requests";
import type { Actor } from "../../server/policies";
import { AppError } from "../../server/errors";
import { env } from "../../server/env";
import {
  BUFFER_FULL_RETRY_MS,
  CUT_OFF_REFUSALS,
  FLOOD_COOLDOWN_MS,
  floodCoolingDown,
  MAX_ACTIVE,
  MAX_ACTIVE_BACKLOGGED,
  MAX_IN_FLIGHT,
  OPENING_IN_FLIGHT,
} from "../../server/services/governance/request-limits";

const agent = (participantId: string) => ({ participantId, workspaceId: "w1", kind: "agent", role: "member", handle: participantId });

function standIn(actor: object = agent("p1"), buffer?: BufferLimits) {
  const handlers = new Map<string, (...args: unknown[]) => Promise<void>>();
  const errors: unknown[] = [];
  const socket = {
    data: { actor },
    disconnected: false,
    on: (event: string, fn: (...args: unknown[]) => Promise<void>) => handlers.set(event, fn),
    emit: (event: string, payload: unknown) => event === "error" && errors.push(payload),
    disconnect: () => void (socket.disconnected = true),
  };
  const call = (event: string, ...args: unknown[]) =>
    new Promise<Ack<unknown>>((resolve) => void handlers.get(event)!(...args, (reply: Ack<unknown>) => resolve(reply)));
  // The events here are made up to try the machinery, so the contract's typing (each event's ack) is set aside.
  const request = requestsOf(socket as unknown as AppSocket, { buffer }) as unknown as AnyRequests;
  return { request, call, handlers, errors, socket, disconnected: () => socket.disconnected };
}

/** `requestsOf`'s function for events outside the contract, with any result. */
type AnyRequests = (<S extends z.ZodType>(
  event: string,
  schema: S,
  run: (actor: Actor, input: z.output<S>) => Promise<unknown>,
  opts?: Parameters<Requests>[3],
) => void) & { signal: AbortSignal };

const echo = z.strictObject({ text: z.string() });

/** Lets the event loop go round a few times: each request's work starts in a turn of its own. */
async function turns(n = 3): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

describe("socket requests", () => {
  afterEach(() => void vi.useRealTimers());

  it("answers on the ack with no payload, one, or too many", async () => {
    const { request, call } = standIn();
    request("echo", echo.optional(), async (_actor, input) => input?.text ?? "nothing");
    expect(await call("echo")).toEqual({ ok: true, data: "nothing" });
    expect(await call("echo", { text: "hi" })).toEqual({ ok: true, data: "hi" });
    expect(await call("echo", { text: "hi" }, "extra")).toMatchObject({ ok: false, error: { code: "INVALID_PAYLOAD" } });
    expect(await call("echo", { text: 1 })).toMatchObject({
      ok: false,
      error: { code: "INVALID_PAYLOAD", message: "text: Invalid input: expected string, received number" },
    });
  });

  it("reports a failed request without an ack as an error event", async () => {
    const { request, handlers, errors } = standIn();
    request("echo", echo, async () => "ok");
    await handlers.get("echo")!({ text: 2 });
    await turns();
    expect(errors).toMatchObject([{ code: "INVALID_PAYLOAD", event: "echo" }]);
  });

  /** Sends `n` "slow" requests (queued like sends: only the in-flight bound holds them back). */
  async function fill(call: ReturnType<typeof standIn>["call"], n: number) {
    const answers = Array.from({ length: n }, (_, i) => call("slow", { text: `n${i}` }));
    await turns();
    return answers;
  }

  /** A request that runs until it is let go: `pending` holds, in the order they started, what lets each go. */
  function slow(request: ReturnType<typeof standIn>["request"]) {
    const pending: (() => void)[] = [];
    const started: string[] = [];
    request(
      "slow",
      echo,
      (_actor, input) =>
        new Promise<string>((resolve) => {
          started.push(input.text);
          pending.push(() => resolve(input.text));
        }),
      { queued: true },
    );
    return { pending, started };
  }

  it(`opens with ${OPENING_IN_FLIGHT} requests awaiting their answer at most; past it they wait their turn, in arrival order, as answers free places`, async () => {
    const { request, call } = standIn();
    const { pending, started } = slow(request);
    const answers = await fill(call, OPENING_IN_FLIGHT);
    expect(pending).toHaveLength(OPENING_IN_FLIGHT);
    const held = ["h0", "h1", "h2"].map((text) => call("slow", { text }));
    await turns();
    expect(pending).toHaveLength(OPENING_IN_FLIGHT); // held, not running

    pending.shift()!();
    expect(await answers[0]).toEqual({ ok: true, data: "n0" });
    await turns();
    // The answer freed a place and widened the window by one: two held ones started, the oldest first.
    expect(started.slice(OPENING_IN_FLIGHT)).toEqual(["h0", "h1"]);
    expect(pending).toHaveLength(OPENING_IN_FLIGHT + 1);
    const later = call("slow", { text: "after h2" });
    pending.shift()!();
    await answers[1];
    await turns();
    expect(started.slice(OPENING_IN_FLIGHT)).toEqual(["h0", "h1", "h2", "after h2"]);
    for (const resolve of pending.splice(0)) resolve();
    expect((await Promise.all([...answers, ...held, later])).map((a) => a.ok && a.data)).toEqual([
      ...Array.from({ length: OPENING_IN_FLIGHT }, (_, i) => `n${i}`),
      "h0",
      "h1",
      "h2",
      "after h2",
    ]);
  });

  it(`widens by one for each request answered without a refusal, up to ${MAX_IN_FLIGHT}`, async () => {
    const { request, call } = standIn();
    request("echo", echo, async (_actor, input) => input.text);
    const { pending } = slow(request);
    for (let i = 0; i < MAX_IN_FLIGHT; i++) expect(await call("echo", { text: "fine" })).toMatchObject({ ok: true });
    const answers = await fill(call, MAX_IN_FLIGHT + 1);
    expect(pending).toHaveLength(MAX_IN_FLIGHT); // the last one waits its turn
    pending.shift()!();
    await turns();
    expect(pending).toHaveLength(MAX_IN_FLIGHT);
    for (const resolve of pending.splice(0)) resolve();
    expect((await Promise.all(answers)).every((a) => a.ok)).toBe(true);
  });

  it("does not widen for refused requests: a client that opens with a flood stays at the opening window", async () => {
    const { request, call } = standIn();
    const { pending } = slow(request);
    request("limited", echo, async () => {
      throw new AppError("RATE_LIMITED", "slow down", { retryAfterMs: 1000 });
    });
    for (let i = 0; i < 100; i++) expect(await call("limited", { text: "no" })).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
    const answers = await fill(call, OPENING_IN_FLIGHT + 1);
    expect(pending).toHaveLength(OPENING_IN_FLIGHT);
    for (let i = 0; i <= OPENING_IN_FLIGHT; i++) {
      pending.shift()?.();
      await turns();
    }
    expect((await Promise.all(answers)).every((a) => a.ok)).toBe(true);
  });

  it(`holds ${env.SOCKET_BUFFER_REQUESTS} requests by default; past the buffer, in count or in bytes, RATE_LIMITED with retryAfterMs ${BUFFER_FULL_RETRY_MS}, and the refused never runs`, async () => {
    const byDefault = standIn(agent("roomy"));
    const roomy = slow(byDefault.request);
    const all = await fill(byDefault.call, OPENING_IN_FLIGHT + env.SOCKET_BUFFER_REQUESTS);
    const over = await byDefault.call("slow", { text: "over" });
    expect(over).toEqual({ ok: false, error: { code: "RATE_LIMITED", message: expect.any(String), retryable: true, retryAfterMs: BUFFER_FULL_RETRY_MS } });
    for (let i = 0; roomy.pending.length; i++) {
      for (const resolve of roomy.pending.splice(0)) resolve();
      await turns();
    }
    expect((await Promise.all(all)).every((a) => a.ok)).toBe(true);
    expect(roomy.started).not.toContain("over");

    // 1,000 bytes: two payloads of ~400 bytes fit, a third does not; a small one still does.
    const { request, call } = standIn(agent("bytes"), { requests: 100, bytes: 1000 });
    const { pending, started } = slow(request);
    const first = await fill(call, OPENING_IN_FLIGHT);
    const big = (n: number) => ({ text: `big${n}:${"x".repeat(390)}` });
    const held = [call("slow", big(0)), call("slow", big(1))];
    expect(await call("slow", big(2))).toMatchObject({ ok: false, error: { code: "RATE_LIMITED", retryAfterMs: BUFFER_FULL_RETRY_MS } });
    held.push(call("slow", { text: "small" }));
    for (let i = 0; pending.length; i++) {
      for (const resolve of pending.splice(0)) resolve();
      await turns();
    }
    expect((await Promise.all([...first, ...held])).every((a) => a.ok)).toBe(true);
    expect(started.slice(OPENING_IN_FLIGHT).map((t) => t.slice(0, 5))).toEqual(["big0:", "big1:", "small"]);
  });

  it("does not run a burst back to back: another socket's request read after it gets its turn before the burst's end", async () => {
    // Work that never waits (SQLite's calls resolve at once) would otherwise run request after request
    // in one turn of the event loop, and every other socket would wait for the whole burst.
    const started: string[] = [];
    const busy = standIn();
    const other = standIn({ participantId: "p2", workspaceId: "w1", kind: "person", role: "member", handle: "other" });
    for (const { request } of [busy, other]) request("work", echo, async (_actor, input) => void started.push(input.text));
    const burst = Array.from({ length: 4 * MAX_ACTIVE }, (_, i) => busy.call("work", { text: `burst${i}` }));
    const read = new Promise<Ack<unknown>>((resolve) => setImmediate(() => resolve(other.call("work", { text: "other" }))));
    await Promise.all([...burst, read]);
    expect(started.indexOf("other")).toBeGreaterThan(-1);
    expect(started.indexOf("other")).toBeLessThan(2 * MAX_ACTIVE);
  });

  it(`runs at most ${MAX_ACTIVE} of a socket's requests at once, the others in arrival order (queued ones apart)`, async () => {
    const { request, call } = standIn();
    const running: string[] = [];
    const finish = new Map<string, () => void>();
    request("work", echo, (_actor, input) => {
      running.push(input.text);
      return new Promise<string>((resolve) => finish.set(input.text, () => resolve(input.text)));
    });
    request("send", echo, async (_actor, input) => input.text, { queued: true });
    const answers = Array.from({ length: MAX_ACTIVE + 2 }, (_, i) => call("work", { text: `w${i}` }));
    await turns();
    expect(running).toEqual(Array.from({ length: MAX_ACTIVE }, (_, i) => `w${i}`));
    expect(await call("send", { text: "not held back" })).toEqual({ ok: true, data: "not held back" });
    finish.get("w2")!();
    expect(await answers[2]).toEqual({ ok: true, data: "w2" });
    await turns();
    expect(running).toEqual([...Array.from({ length: MAX_ACTIVE }, (_, i) => `w${i}`), `w${MAX_ACTIVE}`]);
    for (let i = 0; i < MAX_ACTIVE + 2; i++) {
      finish.get(`w${i}`)?.();
      await turns();
    }
    expect((await Promise.all(answers)).map((a) => a.ok && a.data)).toEqual(Array.from({ length: MAX_ACTIVE + 2 }, (_, i) => `w${i}`));
  });

  it(`runs ${MAX_ACTIVE_BACKLOGGED} at a time while requests wait in the buffer, then up to ${MAX_ACTIVE} again`, async () => {
    // A connection sending faster than it is answered takes turns with everyone else, not four of every turn.
    const { request, call } = standIn();
    const { pending } = slow(request);
    const running: string[] = [];
    const finish: (() => void)[] = [];
    request("work", echo, (_actor, input) => {
      running.push(input.text);
      return new Promise<string>((resolve) => finish.push(() => resolve(input.text)));
    });
    const window = await fill(call, OPENING_IN_FLIGHT);
    const work = Array.from({ length: 3 }, (_, i) => call("work", { text: `w${i}` }));
    const behind = call("slow", { text: "behind" }); // waits in the buffer behind them
    await turns();
    for (const resolve of pending.splice(0, 3)) resolve(); // three places: w0, w1 and w2 are admitted, "behind" still waits
    await Promise.all(window.slice(0, 3));
    await turns();
    expect(running).toEqual(["w0"]);
    pending.shift()!(); // "behind" is admitted: nothing waits any more
    await turns();
    finish.shift()!();
    await turns();
    expect(running).toEqual(["w0", "w1", "w2"]); // both at once again
    for (const f of finish.splice(0)) f();
    while (pending.length) {
      for (const resolve of pending.splice(0)) resolve();
      await turns();
    }
    expect((await Promise.all(work)).map((a) => a.ok && a.data)).toEqual(["w0", "w1", "w2"]);
    expect(await behind).toEqual({ ok: true, data: "behind" });
  });

  it("runs the payloads a `queued` function picks without a slot, and aborts its signal when the socket disconnects", async () => {
    // Tool calls that wait for an answer (tool-calls.ts) must not keep the socket's other requests waiting.
    const { request, call, handlers } = standIn();
    const running: string[] = [];
    const finish: (() => void)[] = [];
    request(
      "maybe",
      echo,
      (_actor, input) => {
        running.push(input.text);
        return new Promise<string>((resolve) => finish.push(() => resolve(input.text)));
      },
      { queued: (payload) => (payload as { text?: unknown } | undefined)?.text === "wait" },
    );
    const answers = [...Array.from({ length: MAX_ACTIVE + 1 }, () => call("maybe", { text: "wait" })), call("maybe", { text: "work" })];
    await turns();
    expect(running).toEqual([...Array.from({ length: MAX_ACTIVE + 1 }, () => "wait"), "work"]);
    for (const f of finish.splice(0)) f();
    expect((await Promise.all(answers)).every((a) => a.ok)).toBe(true);

    expect(request.signal.aborted).toBe(false);
    void handlers.get("disconnect")!();
    expect(request.signal.aborted).toBe(true);
  });

  /** A socket whose window is full of slow requests and whose buffer (2 requests) is full too. */
  async function filledUp(participantId: string) {
    const socket = standIn(agent(participantId), { requests: 2, bytes: 256 * 1024 });
    const work = slow(socket.request);
    const admitted = await fill(socket.call, OPENING_IN_FLIGHT + 2);
    return { ...socket, ...work, admitted };
  }

  it(`cuts off a socket refused for a full buffer more than ${CUT_OFF_REFUSALS} times: it drops what waits in its buffer and what comes after, answers what is in flight, then closes`, async () => {
    const { request, call, errors, disconnected, pending, started, admitted } = await filledUp("flooder");
    const refused: Ack<unknown>[] = [];
    for (let i = 0; i < CUT_OFF_REFUSALS; i += 50) refused.push(...(await Promise.all(Array.from({ length: 50 }, () => call("slow", { text: "refused" })))));
    expect(refused.every((r) => !r.ok && r.error.code === "RATE_LIMITED" && r.error.retryAfterMs === BUFFER_FULL_RETRY_MS)).toBe(true);
    expect(errors).toEqual([]);

    expect(await call("slow", { text: "tips it over" })).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
    // A first cut-off: told so, and that it may reconnect after the buffer's short wait.
    await expect.poll(() => errors).toMatchObject([{ code: "RATE_LIMITED", event: "flood", retryAfterMs: BUFFER_FULL_RETRY_MS }]);
    expect(request.signal.aborted).toBe(true); // what waits for an answer stops waiting
    let after = false;
    void call("slow", { text: "after" }).then(() => (after = true));
    expect(disconnected()).toBe(false); // its requests in flight are not answered yet

    const answered: number[] = [];
    admitted.forEach((answer, i) => void answer.then(() => answered.push(i)));
    while (pending.length) {
      for (const resolve of pending.splice(0)) resolve();
      await turns();
    }
    expect(disconnected()).toBe(true);
    // The window's requests ran and were answered before the close; the two in the buffer were dropped.
    expect(answered).toEqual(Array.from({ length: OPENING_IN_FLIGHT }, (_, i) => i));
    expect((await Promise.all(admitted.slice(0, OPENING_IN_FLIGHT))).map((a) => a.ok && a.data)).toEqual(
      Array.from({ length: OPENING_IN_FLIGHT }, (_, i) => `n${i}`),
    );
    expect(started).toEqual(Array.from({ length: OPENING_IN_FLIGHT }, (_, i) => `n${i}`));
    expect(started).not.toContain("after"); // dropped unread
    expect(after).toBe(false);
    expect(await floodCoolingDown("flooder")).toBe(false); // one cut-off: reconnecting is let through
  });

  /** Fills a socket up and sends into its full buffer until it is cut off. */
  async function cutOff(participantId: string) {
    const socket = await filledUp(participantId);
    await Promise.all(Array.from({ length: CUT_OFF_REFUSALS + 1 }, () => socket.call("slow", { text: "refused" })));
    await expect.poll(() => socket.errors).toMatchObject([{ event: "flood" }]);
    return socket;
  }

  it("keeps a participant out after a second cut-off within the window, by participant and by credential", async () => {
    await cutOff("twice");
    expect(await floodCoolingDown("twice")).toBe(false);
    const second = await cutOff("twice");
    expect(second.errors).toMatchObject([{ code: "RATE_LIMITED", event: "flood", retryAfterMs: FLOOD_COOLDOWN_MS }]);
    await expect.poll(() => floodCoolingDown("twice")).toBe(true);
    expect(await floodCoolingDown("p1")).toBe(false);
  });

  it(`runs what a socket cut off had in flight even when it closes first, ${CUT_OFF_DRAIN_MS / 1000} s after the cut-off`, async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { disconnected, pending, started } = await cutOff("stuck");
    expect(disconnected()).toBe(false);
    vi.advanceTimersByTime(CUT_OFF_DRAIN_MS);
    expect(disconnected()).toBe(true);
    // Closed with requests still running: they run to the end all the same (a send started is stored);
    // the two that waited in the buffer never start.
    while (pending.length) {
      for (const resolve of pending.splice(0)) resolve();
      await turns();
    }
    expect(started).toEqual(Array.from({ length: OPENING_IN_FLIGHT }, (_, i) => `n${i}`));
  });

  it("does not run what was waiting for its turn when the socket closed meanwhile", async () => {
    const { request, call, socket } = standIn();
    const finish: (() => void)[] = [];
    let ran = 0;
    request("work", echo, () => {
      ran++;
      return new Promise<string>((resolve) => finish.push(() => resolve("done")));
    });
    const first = Array.from({ length: MAX_ACTIVE }, () => call("work", { text: "x" }));
    const waiting = call("work", { text: "waits its turn" });
    await turns();
    expect(ran).toBe(MAX_ACTIVE);
    socket.disconnected = true;
    for (const f of finish.splice(0)) f();
    await Promise.all(first);
    expect(await waiting).toMatchObject({ ok: false, error: { code: "UNAVAILABLE" } });
    expect(ran).toBe(MAX_ACTIVE);
  });

  it("drops what waited in the buffer when the client disconnects", async () => {
    const { request, call, handlers } = standIn();
    const { pending, started } = slow(request);
    const admitted = await fill(call, OPENING_IN_FLIGHT);
    void call("slow", { text: "held" });
    await turns();
    void handlers.get("disconnect")!();
    for (const resolve of pending.splice(0)) resolve();
    await Promise.all(admitted);
    await turns();
    expect(started).toHaveLength(OPENING_IN_FLIGHT);
    expect(started).not.toContain("held");
  });

  it("counts only refusals for a full buffer: invalid payloads and rate limits' refusals, however many, do not cut the socket off", async () => {
    const { request, call, disconnected, errors } = standIn(agent("steady"));
    request("bad", echo, async () => "never");
    request("limited", echo, async () => {
      throw new AppError("RATE_LIMITED", "slow down", { retryAfterMs: 1000 });
    });
    const answers: Ack<unknown>[] = [];
    for (let i = 0; i < CUT_OFF_REFUSALS * 2; i += 50) answers.push(...(await Promise.all(Array.from({ length: 50 }, () => call("bad", { text: 1 })))));
    expect(answers.every((a) => !a.ok && a.error.code === "INVALID_PAYLOAD")).toBe(true);
    // Refused by a rate limit in their turn: as many at once as fit the window and the buffer, several times over.
    for (let round = 0; round < 3; round++) {
      const limited = await Promise.all(Array.from({ length: OPENING_IN_FLIGHT + 500 }, () => call("limited", { text: "x" })));
      expect(limited.every((a) => !a.ok && a.error.code === "RATE_LIMITED" && a.error.retryAfterMs === 1000)).toBe(true);
    }
    expect(disconnected()).toBe(false);
    expect(errors).toEqual([]);
  });

  it("lets a read-only actor send only the events that read, before anything runs", async () => {
    const { request, call } = standIn({ participantId: "p1", workspaceId: "w1", kind: "human", role: "owner", handle: "unit", readOnly: true });
    const ran: string[] = [];
    for (const event of [...READ_ONLY_EVENTS, "message:send", "room:join", "room:typing"]) {
      request(event, z.unknown(), async () => void ran.push(event));
    }
    for (const event of READ_ONLY_EVENTS) expect(await call(event, {}), event).toEqual({ ok: true });
    for (const event of ["message:send", "room:join", "room:typing"]) {
      expect(await call(event, {}), event).toMatchObject({ ok: false, error: { code: "INSUFFICIENT_SCOPE", retryable: false } });
    }
    expect(ran).toEqual([...READ_ONLY_EVENTS]);
  });
});
