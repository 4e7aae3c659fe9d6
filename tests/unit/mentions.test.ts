import { describe, expect, it } from "vitest";
import { mentionedHandles, resolveMentions } from "../../server/services/messaging/mentions";

describe("mentions", () => {
  it("finds @handles in prose, case-insensitively, once each", () => {
    expect(mentionedHandles("@Scout please ask @scribe, then @scout again.")).toEqual(["scout", "scribe"]);
    expect(mentionedHandles("(@ana) and @ben-2: hi")).toEqual(["ana", "ben-2"]);
  });

  it("ignores emails, paths, code spans and code blocks", () => {
    expect(mentionedHandles("mail ana@example.com or see ./@types/node")).toEqual([]);
    expect(mentionedHandles("run `npm i @scope/pkg` then\n```\n@decorator\n```")).toEqual([]);
  });

  it("resolves only handles of the given members, deterministically", () => {
    const members = [
      { participantId: "p1", handle: "ana" },
      { participantId: "p2", handle: "ben" },
    ];
    expect(resolveMentions("@ben and @ana and @ghost", members)).toEqual(["p1", "p2"]);
  });
});
