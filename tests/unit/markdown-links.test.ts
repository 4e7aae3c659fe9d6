// Message bodies' links as rendered: web and mail links open in a new tab without a referrer; a
// `javascript:` or `data:` link (which the renderer blanks) is shown as its text, not as a link to the
// page itself; an image is a link to it, never a remote load.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "../../components/rooms/markdown";

const html = (body: string) => renderToStaticMarkup(createElement(Markdown, { body }));

describe("links in messages", () => {
  it("opens web and mail links in a new tab, without a referrer", () => {
    expect(html("[the run](https://ci.example.com/42)")).toContain(
      '<a href="https://ci.example.com/42" target="_blank" rel="noopener noreferrer nofollow">the run</a>',
    );
    expect(html("[mail me](mailto:dana@example.com)")).toContain('href="mailto:dana@example.com"');
  });
  it("shows a javascript:, data: or relative link as its text", () => {
    for (const body of ["[click](javascript:alert(1))", "[click](data:text/html,<script>alert(1)</script>)", "[click](vbscript:x)", "[click](/r/elsewhere)"]) {
      const out = html(body);
      expect(out, body).not.toContain("<a");
      expect(out, body).toContain('<span data-testid="inert-link">click</span>');
    }
    expect(html("![pixel](javascript:alert(1))")).not.toContain("<a");
  });
});
