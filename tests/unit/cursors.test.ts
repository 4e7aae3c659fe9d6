import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileCursorStore, MemoryCursorStore } from "@switchboard/sdk/cursors";

describe("cursor stores", () => {
  it("keep the highest seq per room; a file store survives a restart", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "cursors-")), "nested", "c.json");
    const store = new FileCursorStore(file);
    expect(store.get("r1")).toBeUndefined();
    store.set("r1", 5);
    store.set("r1", 3); // never backwards
    store.set("r2", 1);
    expect(new FileCursorStore(file).get("r1")).toBe(5);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ r1: 5, r2: 1 });

    const memory = new MemoryCursorStore();
    memory.set("r", 2);
    expect(memory.get("r")).toBe(2);
  });

  it("starts empty from a missing or corrupt file instead of failing", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cursors-"));
    const file = path.join(dir, "bad.json");
    writeFileSync(file, "{not json");
    expect(new FileCursorStore(file).get("r")).toBeUndefined();
    writeFileSync(file, JSON.stringify({ ok: 3, bad: "x", frac: 1.5 }));
    const store = new FileCursorStore(file);
    expect([store.get("ok"), store.get("bad"), store.get("frac")]).toEqual([3, undefined, undefined]);
  });
});
