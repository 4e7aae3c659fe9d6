// The search box's language (sdk/search.ts) as the server and the browser read it: words, phrases,
// exclusions and operators; where the words matched; the excerpt a hit shows around them.
import { describe, expect, it } from "vitest";
import { highlightsIn, parseSearchQuery, SearchQueryError } from "@switchboard/sdk/search";
import { excerpt } from "../../components/search/excerpt";
import { messageHref } from "../../components/rooms/message-href";

describe("parseSearchQuery", () => {
  it("reads words (lower-cased, split at punctuation), phrases, exclusions and operators", () => {
    const q = parseSearchQuery('Deploy pipeline "hot fix" -friday -"release train" in:#ops from:@Dana mentions:me is:thread has:link');
    expect(q).toMatchObject({
      words: ["deploy", "pipeline"],
      phrases: ["hot fix"],
      excluded: ["friday", "release train"],
      in: "#ops",
      from: "@Dana",
      mentionsMe: true,
      isThread: true,
      hasLink: true,
    });
    expect(parseSearchQuery("from:me it's CI/CD").from).toBe("me");
    expect(parseSearchQuery("CI/CD isn't green").words).toEqual(["ci", "cd", "isn", "green"]);
    expect(parseSearchQuery('an "unclosed phrase').phrases).toEqual(["unclosed phrase"]);
    // Words too common to find anything by are left out (phrases keep them), as PostgreSQL's index does.
    expect(parseSearchQuery('the deploy of "the pipeline"')).toMatchObject({ words: ["deploy"], phrases: ["the pipeline"] });
  });

  it("reads days as UTC day starts: before is before the day, after from the next one, on the day itself", () => {
    expect(parseSearchQuery("before:2026-12-01").before?.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(parseSearchQuery("after:2026-12-01").after?.toISOString()).toBe("2026-12-02T00:00:00.000Z");
    const on = parseSearchQuery("on:2026-12-01");
    expect([on.after?.toISOString(), on.before?.toISOString()]).toEqual(["2026-12-01T00:00:00.000Z", "2026-12-02T00:00:00.000Z"]);
  });

  it("reads has:reaction (and has:reactions) as messages someone reacted to", () => {
    expect(parseSearchQuery("deploy has:reaction")).toMatchObject({ words: ["deploy"], hasReaction: true, hasLink: false });
    expect(parseSearchQuery("has:Reactions").hasReaction).toBe(true);
    expect(parseSearchQuery("deploy").hasReaction).toBe(false);
  });

  it("reads has:file (and has:files) as messages with files attached", () => {
    expect(parseSearchQuery("budget has:file")).toMatchObject({ words: ["budget"], hasFile: true, hasReaction: false });
    expect(parseSearchQuery("has:Files").hasFile).toBe(true);
    expect(parseSearchQuery("budget").hasFile).toBe(false);
  });

  it("says what a malformed operator should be", () => {
    for (const [query, says] of [
      ["before:yesterday", "YYYY-MM-DD"],
      ["on:2026-13-45", "YYYY-MM-DD"],
      ["mentions:dana", "mentions:me"],
      ["is:open", "is:thread"],
      ["has:everything", "has:link, has:file or has:reaction"],
      ["from:dana", "from:@dana"],
      ["-in:#ops", "cannot be excluded"],
    ]) {
      expect(() => parseSearchQuery(query), query).toThrow(SearchQueryError);
      expect(() => parseSearchQuery(query), query).toThrow(says);
    }
  });
});

describe("highlightsIn", () => {
  it("marks words where a word of the body starts with them, and phrases as written, merged and in order", () => {
    const body = "Deploying the hotfix now; the deploy is done. Hot fix, hot-fix!";
    const at = highlightsIn(body, { words: ["deploy"], phrases: ["hot fix"] });
    expect(at.map(([a, b]) => body.slice(a, b))).toEqual(["Deploying", "deploy", "Hot fix", "hot-fix"]);
    expect(highlightsIn("redeploy", { words: ["deploy"], phrases: [] })).toEqual([]); // not inside a word
  });
});

describe("excerpt", () => {
  it("shows a long message's window around the first match, cut at words, with ellipses", () => {
    const body = `${"lorem ".repeat(100)}the needle is here ${"ipsum ".repeat(100)}`;
    const at = highlightsIn(body, { words: ["needle"], phrases: [] });
    const parts = excerpt(body, at);
    expect(parts[0]).toEqual({ text: "…", match: false });
    expect(parts.at(-1)).toEqual({ text: "…", match: false });
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(["needle"]);
    expect(parts.map((p) => p.text).join("").length).toBeLessThanOrEqual(330);
    expect(excerpt("short one", [[0, 5]])).toEqual([
      { text: "short", match: true },
      { text: " one", match: false },
    ]);
  });
  it("links a hit to its room, and to its thread when it is a reply", () => {
    expect(messageHref({ id: "m1", roomId: "r1", threadRootId: null })).toBe("/r/r1?message=m1");
    expect(messageHref({ id: "m2", roomId: "r1", threadRootId: "m1" })).toBe("/r/r1?message=m2&thread=m1");
  });
});
