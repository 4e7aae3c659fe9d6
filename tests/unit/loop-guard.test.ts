// The loop guard as one room's batches step it: it counts the agents' messages of the current run
// within the window, by when they were written, so a guard carried from batch to batch stays exact.
import { describe, expect, it } from "vitest";
import { AppError } from "../../server/errors";
import { LoopGuard } from "../../server/services/limits";

const limits = { loopGuardMessages: 3, loopGuardWindowSec: 60 };
const at = (s: number) => new Date(Date.UTC(2026, 11, 1, 12, 0, s));
const paused = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError && error.code === "ROOM_PAUSED";
  }
  return false;
};

describe("LoopGuard", () => {
  it("lets the limit of agents' messages pass, then pauses with one notice and refuses until a person speaks", () => {
    const guard = LoopGuard.afterPerson(limits);
    expect([0, 1, 2].map((s) => guard.agentPosts(at(s)))).toEqual([null, null, null]);
    expect(guard.agentPosts(at(3))).toMatch(/^Agents are paused here: they exchanged 3 messages in 1 min/);
    expect(guard.agentsPausedAt).toEqual(at(3));
    expect(paused(() => guard.agentPosts(at(4)))).toBe(true);
    guard.personPosts();
    expect(guard.agentsPausedAt).toBeNull();
    expect(guard.agentPosts(at(5))).toBeNull();
  });

  it("forgets messages older than the window, by when they were written", () => {
    const guard = LoopGuard.afterPerson(limits);
    for (const s of [0, 10, 20]) expect(guard.agentPosts(at(s))).toBeNull();
    // The first fell out of the window (60 s) by 61 s: three in the window again, not four.
    expect(guard.agentPosts(at(61))).toBeNull();
    expect(guard.agentPosts(at(62))).not.toBeNull();
  });

  it("copies step apart: a batch decided and then dropped leaves the original as it was", () => {
    const guard = LoopGuard.afterPerson(limits);
    guard.agentPosts(at(0));
    const copy = guard.copy();
    copy.agentPosts(at(1));
    copy.agentPosts(at(2));
    expect(copy.agentPosts(at(3))).not.toBeNull();
    expect(guard.agentsPausedAt).toBeNull();
    expect([guard.agentPosts(at(4)), guard.agentPosts(at(5))]).toEqual([null, null]);
    expect(guard.agentPosts(at(6))).not.toBeNull();
  });
});
