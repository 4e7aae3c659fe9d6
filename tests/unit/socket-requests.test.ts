// How one socket's requests are answered (server/socket/requests.ts), on a stand-in socket: the ack
// is found whatever came before it, a window of requests (OPENING_IN_FLIGHT, widening to MAX_IN_FLIGHT
// as they are answered) await their answer at once and MAX_ACTIVE run, and a socket that keeps sending after being refused is closed.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { READ_ONLY_EVENTS, type Ack } from "../../sdk/contract";
import { requestsOf, type AppSocket } from "../../server/socket/requests";
import { AppError } from "../../server/errors";
import { FLOOD_COOLDOWN_MS, FLOOD_REFUSALS, floodCoolingDown, IN_FLIGHT_RETRY_MS, MAX_ACTIVE, MAX_IN_FLIGHT, OPENING_IN_FLIGHT } from "../../server/services/governance/request-limits";

function standIn(actor: object = { participantId: "p1", workspaceId: "w1", kind: "agent", role: "member", handle: "unit" }) {
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
  return { request: requestsOf(socket as unknown as AppSocket), call, handlers, errors, socket, disconnected: () => socket.disconnected };
}

const echo = z.strictObject({ text: z.string() });

/** Lets the event loop go round a few times: each request's work starts in a turn of its own. */
async function turns(n = 3): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

describe("socket requests", () => {
  it("answers on the ack with no payload, one, or too many", async () => {
    const { request, call } = standIn();
    request("echo", echo.optional(), async (_actor, input) => input?.text ?? "nothing");
    expect(await call("echo")).toEqual({ ok: true, data: "nothing" });
    expect(await call("echo", { text: "hi" })).toEqual({ ok: true, data: "hi" });
    expect(await call("echo", { text: "hi" }, "extra")).toMatchObject({ ok: false, error: { code: "INVALID_PAYLOAD" } });
    expect(await call("echo", { text: 1 })).toMatchObject({ ok: false, error: { code: "INVALID_PAYLOAD", message: "text: Invalid input: expected string, received number" } });
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

  it(`opens with ${OPENING_IN_FLIGHT} requests awaiting their answer at most; past it RATE_LIMITED with a short retryAfterMs, and nothing runs`, async () => {
    const { request, call } = standIn();
    const pending: (() => void)[] = [];
    request("slow", echo, (_actor, input) => new Promise<string>((resolve) => pending.push(() => resolve(input.text))), { queued: true });
    const answers = await fill(call, OPENING_IN_FLIGHT);
    expect(pending).toHaveLength(OPENING_IN_FLIGHT);
    expect(await call("slow", { text: "one too many" })).toEqual({
      ok: false,
      error: { code: "RATE_LIMITED", message: expect.any(String), retryable: true, retryAfterMs: IN_FLIGHT_RETRY_MS },
    });
    expect(pending).toHaveLength(OPENING_IN_FLIGHT); // the refused one never ran

    pending.shift()!();
    expect(await answers[0]).toEqual({ ok: true, data: "n0" });
    const next = call("slow", { text: "room again" });
    await turns();
    // The answer freed a place and widened the window by one: two more fit, not three.
    const more = [call("slow", { text: "widened" }), call("slow", { text: "too many again" })];
    await turns();
    expect(pending).toHaveLength(OPENING_IN_FLIGHT + 1);
    expect(await more[1]).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
    for (const resolve of pending.splice(0)) resolve();
    expect(await next).toEqual({ ok: true, data: "room again" });
    expect((await Promise.all([...answers, more[0]])).every((a) => a.ok)).toBe(true);
  });

  it(`widens by one for each request answered without a refusal, up to ${MAX_IN_FLIGHT}`, async () => {
    const { request, call } = standIn();
    const pending: (() => void)[] = [];
    request("echo", echo, async (_actor, input) => input.text);
    request("slow", echo, (_actor, input) => new Promise<string>((resolve) => pending.push(() => resolve(input.text))), { queued: true });
    for (let i = 0; i < MAX_IN_FLIGHT; i++) expect(await call("echo", { text: "fine" })).toMatchObject({ ok: true });
    const answers = await fill(call, MAX_IN_FLIGHT);
    expect(pending).toHaveLength(MAX_IN_FLIGHT);
    expect(await call("slow", { text: "one too many" })).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
    expect(pending).toHaveLength(MAX_IN_FLIGHT);
    for (const resolve of pending.splice(0)) resolve();
    expect((await Promise.all(answers)).every((a) => a.ok)).toBe(true);
  });

  it("does not widen for refused requests: a client that opens with a flood stays at the opening window", async () => {
    const { request, call } = standIn();
    const pending: (() => void)[] = [];
    request("slow", echo, (_actor, input) => new Promise<string>((resolve) => pending.push(() => resolve(input.text))), { queued: true });
    request("limited", echo, async () => {
      throw new AppError("RATE_LIMITED", "slow down", { retryAfterMs: 1000 });
    });
    for (let i = 0; i < 100; i++) expect(await call("limited", { text: "no" })).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
    const answers = await fill(call, OPENING_IN_FLIGHT);
    expect(await call("slow", { text: "one too many" })).toMatchObject({ ok: false, error: { code: "RATE_LIMITED", retryAfterMs: IN_FLIGHT_RETRY_MS } });
    for (const resolve of pending.splice(0)) resolve();
    expect((await Promise.all(answers)).every((a) => a.ok)).toBe(true);
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

  it("runs the payloads a `queued` function picks without a slot, and aborts its signal when the socket disconnects", async () => {
    // Tool calls that wait for an answer (tool-calls.ts) must not keep the socket's other requests waiting.
    const { request, call, handlers } = standIn();
    const running: string[] = [];
    const finish: (() => void)[] = [];
    request("maybe", echo, (_actor, input) => {
      running.push(input.text);
      return new Promise<string>((resolve) => finish.push(() => resolve(input.text)));
    }, { queued: (payload) => (payload as { text?: unknown } | undefined)?.text === "wait" });
    const answers = [...Array.from({ length: MAX_ACTIVE + 1 }, () => call("maybe", { text: "wait" })), call("maybe", { text: "work" })];
    await turns();
    expect(running).toEqual([...Array.from({ length: MAX_ACTIVE + 1 }, () => "wait"), "work"]);
    for (const f of finish.splice(0)) f();
    expect((await Promise.all(answers)).every((a) => a.ok)).toBe(true);

    expect(request.signal.aborted).toBe(false);
    void handlers.get("disconnect")!();
    expect(request.signal.aborted).toBe(true);
  });

  it(`closes a socket refused more than ${FLOOD_REFUSALS} times in a window, drops what it sends after, and keeps its participant out for a while`, async () => {
    const { request, call, errors, disconnected } = standIn({ participantId: "flooder", workspaceId: "w1", kind: "agent", role: "member", handle: "flooder" });
    let ran = 0;
    request("busy", echo, async () => {
      ran++;
      throw new AppError("RATE_LIMITED", "slow down", { retryAfterMs: 1000 });
    });
    const refused: Ack<unknown>[] = [];
    for (let i = 0; i < FLOOD_REFUSALS; i += 50) refused.push(...(await Promise.all(Array.from({ length: 50 }, () => call("busy", { text: "x" })))));
    expect(refused.every((r) => !r.ok && r.error.code === "RATE_LIMITED")).toBe(true);
    expect(disconnected()).toBe(false);
    expect(await floodCoolingDown("flooder")).toBe(false);

    void call("busy", { text: "one more" }); // the refusal that tips it over gets no ack: the socket is closed
    await turns();
    expect(disconnected()).toBe(true);
    expect(errors).toMatchObject([{ code: "RATE_LIMITED", event: "flood", retryAfterMs: FLOOD_COOLDOWN_MS }]);
    await expect.poll(() => floodCoolingDown("flooder")).toBe(true);
    expect(await floodCoolingDown("p1")).toBe(false);

    void call("busy", { text: "after" });
    await turns();
    expect(ran).toBe(FLOOD_REFUSALS + 1); // dropped unread
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

  it("counts only RATE_LIMITED refusals: invalid payloads, however many, do not close the socket", async () => {
    const { request, call, disconnected } = standIn({ participantId: "steady", workspaceId: "w1", kind: "agent", role: "member", handle: "steady" });
    request("bad", echo, async () => "never");
    const answers: Ack<unknown>[] = [];
    for (let i = 0; i < FLOOD_REFUSALS * 2; i += 50) answers.push(...(await Promise.all(Array.from({ length: 50 }, () => call("bad", { text: 1 })))));
    expect(answers.every((a) => !a.ok && a.error.code === "INVALID_PAYLOAD")).toBe(true);
    expect(disconnected()).toBe(false);
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
