"use client";
// Message bodies are markdown (GFM). Raw HTML is never rendered: the `html` nodes the parser finds are
// turned back into plain text, so `<script>` shows as the characters the author typed. Links open in
// a new tab without a referrer (only web and mail links: any other is its text), images become links
// (no remote loads), and @handles are highlighted.
import { memo, type ReactElement } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: { hName?: string; hProperties?: Record<string, unknown> };
}

const PHRASING_PARENTS = new Set(["paragraph", "heading", "emphasis", "strong", "delete", "link", "linkReference", "tableCell"]);

/** `html` nodes become text: inline ones in place, block ones as their own paragraph. */
function remarkInertHtml() {
  const walk = (node: MdNode) => {
    if (!node.children) return;
    node.children = node.children.map((child) => {
      if (child.type === "html") {
        const text: MdNode = { type: "text", value: child.value ?? "" };
        return PHRASING_PARENTS.has(node.type) ? text : { type: "paragraph", children: [text] };
      }
      walk(child);
      return child;
    });
  };
  return (tree: MdNode) => walk(tree);
}

const MENTION = /(^|[^\w@])@([a-z0-9][a-z0-9_-]{1,38})\b/gi;

/** Wraps @handle in a span the stylesheet highlights; code and links are left alone. */
function remarkMentions(options: { me?: string }) {
  const walk = (node: MdNode) => {
    if (!node.children || node.type === "link" || node.type === "linkReference") return;
    const out: MdNode[] = [];
    for (const child of node.children) {
      if (child.type !== "text" || !child.value?.includes("@")) {
        walk(child);
        out.push(child);
        continue;
      }
      const value = child.value;
      let last = 0;
      for (const match of value.matchAll(MENTION)) {
        const start = (match.index ?? 0) + match[1].length;
        if (start > last) out.push({ type: "text", value: value.slice(last, start) });
        const handle = match[2].toLowerCase();
        out.push({
          type: "emphasis",
          data: { hName: "span", hProperties: { className: handle === options.me ? "mention mention-me" : "mention" } },
          children: [{ type: "text", value: `@${match[2]}` }],
        });
        last = start + 1 + match[2].length;
      }
      if (last < value.length) out.push({ type: "text", value: value.slice(last) });
    }
    node.children = out;
  };
  return (tree: MdNode) => walk(tree);
}

/** Links go to the web or to an address: a `javascript:`, `data:` or other link is shown as its text. */
const linkable = (href: unknown): href is string => typeof href === "string" && /^(https?:\/\/|mailto:)/i.test(href);

const components: Components = {
  a: ({ href, children }) =>
    linkable(href) ? (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ) : (
      <span data-testid="inert-link">{children}</span>
    ),
  img: ({ src, alt }) =>
    linkable(src) ? (
      <a href={src} target="_blank" rel="noopener noreferrer nofollow">
        {alt || src}
      </a>
    ) : (
      <span>{alt}</span>
    ),
};

// Parsing is the costly part of a row; a virtualized list remounts rows as they scroll back into
// view, so rendered bodies are kept (React elements are immutable and safe to reuse).
const cache = new Map<string, ReactElement>();
const CACHE_SIZE = 3000;

function render(body: string, meHandle: string | undefined): ReactElement {
  const key = `${meHandle ?? ""}\u0000${body}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // `Markdown` (react-markdown's sync export) is a pure function without hooks: calling it here runs
  // the parse once and keeps its output.
  const element = ReactMarkdown({
    children: body,
    remarkPlugins: [remarkGfm, remarkInertHtml, [remarkMentions, { me: meHandle }]],
    skipHtml: false,
    components,
  }) as ReactElement;
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, element);
  return element;
}

export const Markdown = memo(function Markdown({ body, meHandle }: { body: string; meHandle?: string }) {
  return (
    <div className="prose-chat" data-testid="message-body">
      {render(body, meHandle)}
    </div>
  );
});
