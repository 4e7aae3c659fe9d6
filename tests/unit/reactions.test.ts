// What counts as one emoji (the server's rule and the picker's field), and reactions as a message
// presents them: grouped by emoji in the order each was first used, people in the order they reacted.
import { describe, expect, it } from "vitest";
import { COMMON_EMOJI, isSingleEmoji } from "@switchboard/sdk/reactions";
import { presentReactions } from "../../server/presenters/message";

describe("isSingleEmoji", () => {
  it("takes one emoji of one or many code points", () => {
    for (const emoji of [...COMMON_EMOJI, "👨‍👩‍👧‍👦", "🇫🇷", "👍🏽", "1️⃣", "🏳️‍🌈", "🫠"]) expect(isSingleEmoji(emoji), emoji).toBe(true);
  });
  it("refuses text, several emoji, spaces, and anything long", () => {
    for (const text of ["", "a", "ok", "1", "#", "👍👍", "👍 ", " 👍", "👍x", "<b>", ":tada:", "x".repeat(40), "👍".repeat(20)]) {
      expect(isSingleEmoji(text), JSON.stringify(text)).toBe(false);
    }
  });
});

describe("presentReactions", () => {
  it("groups by emoji in first-use order, with who reacted in order", () => {
    const rows = [
      { participantId: "b", emoji: "🎉" },
      { participantId: "a", emoji: "👍" },
      { participantId: "a", emoji: "🎉" },
    ];
    expect(presentReactions(rows)).toEqual([
      { emoji: "🎉", count: 2, participantIds: ["b", "a"] },
      { emoji: "👍", count: 1, participantIds: ["a"] },
    ]);
    expect(presentReactions([])).toEqual([]);
  });
});
