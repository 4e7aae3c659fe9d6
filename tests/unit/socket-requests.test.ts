// How one socket's requests are answered (server/socket/requests.ts), on a stand-in socket: the ack
// is found whatever came before it, and at most MAX_IN_FLIGHT requests await their answer at once.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { READ_ONLY_EVENTS, type Ack } from "../../sdk/contract";
import { requestsOf, type AppSocket } from "../../server/socket/requests";
import { IN_FLIGHT_RETRY_MS, MAX_IN_FLIGHT } from "../../server/services/request-limits";

function standIn(actor: object = { participantId: "p1", workspaceId: "w1", kind: "agent", role: "member", handle: "unit" }) {
  const handlers = new Map<string, (...args: unknown[]) => Promise<void>>();
  const errors: unknown[] = [];
  const socket = {
    data: { actor },
    on: (event: string, fn: (...args: unknown[]) => Promise<void>) => handlers.set(event, fn),
    emit: (event: string, payload: unknown) => event === "error" && errors.push(payload),
  };
  const call = (event: string, ...args: unknown[]) =>
    new Promise<Ack<unknown>>((resolve) => void handlers.get(event)!(...args, (reply: Ack<unknown>) => resolve(reply)));
  return { request: requestsOf(socket as unknown as AppSocket), call, handlers, errors };
}

const echo = z.strictObject({ text: z.string() });

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
    expect(errors).toMatchObject([{ code: "INVALID_PAYLOAD", event: "echo" }]);
  });

  it(`holds at most ${MAX_IN_FLIGHT} requests awaiting their answer; past it RATE_LIMITED with a short retryAfterMs`, async () => {
    const { request, call } = standIn();
    const pending: (() => void)[] = [];
    request("slow", echo, (_actor, input) => new Promise<string>((resolve) => pending.push(() => resolve(input.text))));
    const answers = Array.from({ length: MAX_IN_FLIGHT }, (_, i) => call("slow", { text: `n${i}` }));
    await new Promise((r) => setImmediate(r));
    expect(pending).toHaveLength(MAX_IN_FLIGHT);
    expect(await call("slow", { text: "one too many" })).toEqual({
      ok: false,
      error: { code: "RATE_LIMITED", message: expect.any(String), retryable: true, retryAfterMs: IN_FLIGHT_RETRY_MS },
    });
    expect(pending).toHaveLength(MAX_IN_FLIGHT); // the refused one never ran

    pending.shift()!();
    expect(await answers[0]).toEqual({ ok: true, data: "n0" });
    const next = call("slow", { text: "room again" });
    await new Promise((r) => setImmediate(r));
    expect(pending).toHaveLength(MAX_IN_FLIGHT); // took the freed place
    for (const resolve of pending.splice(0)) resolve();
    expect(await next).toEqual({ ok: true, data: "room again" });
    expect((await Promise.all(answers)).every((a) => a.ok)).toBe(true);
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
