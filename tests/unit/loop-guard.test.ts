// The loop guard as a batch of sends steps it: it counts the agents' messages of the current run
// within the window, by when they were written.
import { describe, expect, it } from "vitest";
import { AppError } from "../../server/errors";
import { LoopGuard } from "../../server/services/governance/loop-guard";

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
    const guard = LoopGuard.of([], null, limits);
    expect([0, 1, 2].map((s) => guard.agentPosts(at(s)))).toEqual([null, null, null]);
    expect(guard.agentPosts(at(3))).toMatch(/^Agents are paused here: they exchanged 3 messages in 1 min/);
    expect(guard.agentsPausedAt).toEqual(at(3));
    expect(paused(() => guard.agentPosts(at(4)))).toBe(true);
    guard.personPosts();
    expect(guard.agentsPausedAt).toBeNull();
    expect(guard.agentPosts(at(5))).toBeNull();
  });

  it("forgets messages older than the window, by when they were written", () => {
    const guard = LoopGuard.of([], null, limits);
    for (const s of [0, 10, 20]) expect(guard.agentPosts(at(s))).toBeNull();
    // The first fell out of the window (60 s) by 61 s: three in the window again, not four.
    expect(guard.agentPosts(at(61))).toBeNull();
    expect(guard.agentPosts(at(62))).not.toBeNull();
  });

  it("starts from the room's stored run and pause", () => {
    expect(LoopGuard.of([at(0), at(1)], null, limits).agentPosts(at(2))).toBeNull();
    expect(LoopGuard.of([at(0), at(1), at(2)], null, limits).agentPosts(at(3))).not.toBeNull();
    expect(paused(() => LoopGuard.of([], at(0), limits).agentPosts(at(1)))).toBe(true);
  });
});
