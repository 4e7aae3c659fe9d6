// The SDK's request pacer (sdk/pacing.ts): never more than its bound awaiting answers, and after a
// RATE_LIMITED answer, nothing more of that event until the wait has passed, then one at a time
// until one is accepted; other events go on meanwhile.
import { describe, expect, it } from "vitest";
import { RequestPacer } from "@switchboard/sdk/pacing";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("request pacer", () => {
  it("lets at most maxInFlight out, and the next one as soon as one is answered", async () => {
    const pacer = new RequestPacer(3);
    let out = 0;
    const requests = Array.from({ length: 5 }, () => pacer.acquire("message:send").then(() => out++));
    await tick();
    expect(out).toBe(3);
    pacer.settle("message:send", { ok: true });
    await tick();
    expect(out).toBe(4);
    pacer.settle("message:send", { ok: true });
    pacer.settle("message:send", { ok: true });
    await Promise.all(requests);
    expect(out).toBe(5);
  });

  it("after RATE_LIMITED holds that event back for retryAfterMs, then sends one alone until one is accepted", async () => {
    const pacer = new RequestPacer(64);
    await pacer.acquire("message:send");
    const limitedAt = Date.now();
    pacer.settle("message:send", { ok: false, rateLimited: true, retryAfterMs: 60 });

    const sentAt: number[] = [];
    const waiting = Array.from({ length: 4 }, () => pacer.acquire("message:send").then(() => sentAt.push(Date.now())));
    await pacer.acquire("room:list"); // another event is not held back
    expect(sentAt).toHaveLength(0);
    pacer.settle("room:list", { ok: true });

    await expect.poll(() => sentAt.length, { timeout: 2000 }).toBe(1); // the probe, alone
    expect(sentAt[0] - limitedAt).toBeGreaterThanOrEqual(55);
    await new Promise((r) => setTimeout(r, 30));
    expect(sentAt).toHaveLength(1);

    pacer.settle("message:send", { ok: true }); // accepted: the rest go
    await Promise.all(waiting);
    expect(sentAt).toHaveLength(4);
  });

  it("a probe refused again starts a new wait", async () => {
    const pacer = new RequestPacer(64);
    await pacer.acquire("room:typing");
    pacer.settle("room:typing", { ok: false, rateLimited: true, retryAfterMs: 30 });
    await pacer.acquire("room:typing"); // the probe, after 30 ms
    const probedAt = Date.now();
    pacer.settle("room:typing", { ok: false, rateLimited: true, retryAfterMs: 50 });
    await pacer.acquire("room:typing");
    expect(Date.now() - probedAt).toBeGreaterThanOrEqual(45);
  });
});
