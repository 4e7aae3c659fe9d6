// Message bodies as rendered: an @handle is highlighted only when the message mentions that participant
// (`@import` in prose stays text); each block takes its direction from its own text; headings stay
// headings; a body given a fold id is clamped to FOLDED_LINES lines until the reader unfolds it.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FOLDED_LINES, handlesIn, Markdown } from "../../components/rooms/markdown";

const html = (body: string, props: { meHandle?: string; mentions?: string[]; foldId?: string } = {}) =>
  renderToStaticMarkup(createElement(Markdown, { body, ...props }));

describe("mentions in messages", () => {
  it("highlights the handles the message mentions, and only those", () => {
    const out = html("@Alice see the @import line, @ghost", { mentions: ["alice"] });
    expect(out).toContain('<span class="mention">@Alice</span>');
    expect(out).toContain("the @import line, @ghost");
    expect(out.match(/class="mention/g)).toHaveLength(1);
  });
  it("marks a mention of the reader", () => {
    expect(html("ping @bob", { meHandle: "bob", mentions: ["bob"] })).toContain('<span class="mention mention-me">@bob</span>');
  });
  it("highlights nothing when the message mentions nobody", () => {
    expect(html("@alice hello")).not.toContain("mention");
  });
  it("finds the handles a text names (for a prompt, whose mentions the page resolves itself)", () => {
    expect(handlesIn("@Scout and @scribe, then @scout again; mail ana@example.com")).toEqual(["scout", "scribe"]);
  });
  it("leaves code and links alone", () => {
    const out = html("`@alice` and [@alice](https://example.com)", { mentions: ["alice"] });
    expect(out).not.toContain('class="mention');
  });
});

describe("direction, headings and folding", () => {
  it("lets each block take the direction of its own text", () => {
    const out = html("שלום עולם\n\n- one\n\n> quoted");
    expect(out).toMatch(/^<div class="prose-chat" dir="auto"/);
    expect(out).toContain('<p dir="auto">שלום עולם</p>');
    expect(out).toContain('<li dir="auto">one</li>');
    expect(out).toContain('<blockquote dir="auto">');
  });
  it("keeps headings as headings (the stylesheet sizes them as bold text)", () => {
    expect(html("# Plan\n## Steps\n### Notes")).toContain('<h1 dir="auto">Plan</h1>\n<h2 dir="auto">Steps</h2>\n<h3 dir="auto">Notes</h3>');
  });
  it(`clamps a body with a fold id to ${FOLDED_LINES} lines until unfolded`, () => {
    const long = Array.from({ length: 60 }, (_, i) => `line ${i}`).join("\n\n");
    expect(html(long, { foldId: "m1" })).toContain(`max-height:${FOLDED_LINES * 1.45}em`);
    expect(html(long)).not.toContain("max-height");
  });
});
