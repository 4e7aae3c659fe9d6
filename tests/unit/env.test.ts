// The environment's defaults that depend on where the server runs, and the operator's limits.
import { afterEach, describe, expect, it, vi } from "vitest";

async function envWith(vars: Record<string, string | undefined>) {
  vi.resetModules();
  vi.stubEnv("AUTH_SECRET", "unit-test-secret-0123456789"); // no secret file written
  for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
  return (await import("../../server/env")).env;
}

describe("environment", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("seeds the demo by default only outside production; SEED_DEMO says otherwise either way", async () => {
    expect((await envWith({ NODE_ENV: "production", SEED_DEMO: undefined })).SEED_DEMO).toBe(false);
    expect((await envWith({ NODE_ENV: "development", SEED_DEMO: undefined })).SEED_DEMO).toBe(true);
    expect((await envWith({ NODE_ENV: "test", SEED_DEMO: undefined })).SEED_DEMO).toBe(true);
    expect((await envWith({ NODE_ENV: "production", SEED_DEMO: "true" })).SEED_DEMO).toBe(true);
    expect((await envWith({ NODE_ENV: "development", SEED_DEMO: "0" })).SEED_DEMO).toBe(false);
  });

  it("limits sign-ups per address to 20 an hour unless the operator says otherwise, and refuses nonsense", async () => {
    expect((await envWith({ SIGNUPS_PER_ADDRESS_PER_HOUR: undefined })).SIGNUPS_PER_ADDRESS_PER_HOUR).toBe(20);
    expect((await envWith({ SIGNUPS_PER_ADDRESS_PER_HOUR: "500" })).SIGNUPS_PER_ADDRESS_PER_HOUR).toBe(500);
    for (const bad of ["0", "-1", "2.5", "lots"]) {
      await expect(envWith({ SIGNUPS_PER_ADDRESS_PER_HOUR: bad })).rejects.toThrow(/SIGNUPS_PER_ADDRESS_PER_HOUR/);
    }
  });

  it("runs the status sweep and the A2A bridges' pass every 2 s unless the operator says otherwise, within bounds", async () => {
    const defaults = await envWith({ STATUS_SWEEP_MS: undefined, A2A_HOST_PASS_MS: undefined });
    expect([defaults.STATUS_SWEEP_MS, defaults.A2A_HOST_PASS_MS]).toEqual([2000, 2000]);
    const set = await envWith({ STATUS_SWEEP_MS: "100", A2A_HOST_PASS_MS: "250" });
    expect([set.STATUS_SWEEP_MS, set.A2A_HOST_PASS_MS]).toEqual([100, 250]);
    for (const bad of ["0", "49", "2.5", "often"]) {
      await expect(envWith({ STATUS_SWEEP_MS: bad })).rejects.toThrow(/STATUS_SWEEP_MS/);
      await expect(envWith({ A2A_HOST_PASS_MS: bad })).rejects.toThrow(/A2A_HOST_PASS_MS/);
    }
    // A pass must come well within the bridges' 30 s lease.
    await expect(envWith({ A2A_HOST_PASS_MS: "10001" })).rejects.toThrow(/A2A_HOST_PASS_MS/);
    await expect(envWith({ STATUS_SWEEP_MS: "60001" })).rejects.toThrow(/STATUS_SWEEP_MS/);
  });
});
