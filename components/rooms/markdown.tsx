"use client";
// Message bodies are markdown (GFM). Raw HTML is never rendered: the `html` nodes the parser finds are
// turned back into plain text, so `<script>` shows as the characters the author typed. Links open in
// a new tab without a referrer (only web and mail links: any other is its text), images become links
// (no remote loads), and an @handle is highlighted when it names someone the message mentions. Each
// block takes its direction from its own text (right-to-left or not), and a long body is folded.
import { memo, useLayoutEffect, useRef, useState, type ReactElement } from "react";
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

/** The @handles a body's text names, in lower case (whether anyone has them is for the caller to say). */
export function handlesIn(body: string): string[] {
  return [...new Set(Array.from(body.matchAll(MENTION), (m) => m[2].toLowerCase()))];
}

/**
 * Wraps @handle in a span the stylesheet highlights, when the handle is one of `mentions` (those the
 * message mentions: `@import` in prose names nobody and stays text); code and links are left alone.
 */
function remarkMentions(options: { me?: string; mentions: ReadonlySet<string> }) {
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
        if (!options.mentions.has(match[2].toLowerCase())) continue;
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
  // Each block's direction is its own text's: a Hebrew or Arabic paragraph reads right to left.
  p: ({ children }) => <p dir="auto">{children}</p>,
  li: ({ children }) => <li dir="auto">{children}</li>,
  h1: ({ children }) => <h1 dir="auto">{children}</h1>,
  h2: ({ children }) => <h2 dir="auto">{children}</h2>,
  h3: ({ children }) => <h3 dir="auto">{children}</h3>,
  blockquote: ({ children }) => <blockquote dir="auto">{children}</blockquote>,
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

function render(body: string, meHandle: string | undefined, mentions: readonly string[]): ReactElement {
  const key = `${meHandle ?? ""}\u0000${mentions.join(" ")}\u0000${body}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // `Markdown` (react-markdown's sync export) is a pure function without hooks: calling it here runs
  // the parse once and keeps its output.
  const element = ReactMarkdown({
    children: body,
    remarkPlugins: [remarkGfm, remarkInertHtml, [remarkMentions, { me: meHandle?.toLowerCase(), mentions: new Set(mentions.map((h) => h.toLowerCase())) }]],
    skipHtml: false,
    components,
  }) as ReactElement;
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, element);
  return element;
}

const NO_MENTIONS: readonly string[] = [];

/** A body taller than this many lines is folded behind "Show more". */
export const FOLDED_LINES = 24;

/** Bodies unfolded by their reader, by id: a virtualized list remounts a row scrolled back into view. */
const unfolded = new Set<string>();

/**
 * A message body. `mentions`: the handles the message mentions (others are plain text). `foldId`: fold
 * a body taller than FOLDED_LINES behind "Show more" (remembered by that id while the page is open).
 */
export const Markdown = memo(function Markdown({
  body,
  meHandle,
  mentions = NO_MENTIONS,
  foldId,
}: {
  body: string;
  meHandle?: string;
  mentions?: readonly string[];
  foldId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(() => !foldId || unfolded.has(foldId));
  // Measured, not counted: how many lines a body takes depends on the width it is given.
  const [tall, setTall] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !foldId) return;
    const measure = () => setTall(el.scrollHeight > FOLDED_LINES * parseFloat(getComputedStyle(el).lineHeight) + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [foldId]);
  const folded = !!foldId && !open;
  const toggle = () => {
    if (!foldId) return;
    if (open) unfolded.delete(foldId);
    else unfolded.add(foldId);
    setOpen(!open);
  };
  return (
    <>
      <div
        ref={ref}
        className={folded && tall ? "prose-chat prose-chat-folded" : "prose-chat"}
        style={folded ? { maxHeight: `${FOLDED_LINES * 1.45}em`, overflow: "hidden" } : undefined}
        dir="auto"
        data-testid="message-body"
      >
        {render(body, meHandle, mentions)}
      </div>
      {foldId && tall && (
        <button
          type="button"
          onClick={toggle}
          aria-expanded={open}
          className="rounded text-[13px] font-medium text-indigo-700 hover:underline"
          data-testid="message-fold"
        >
          {open ? "Show less" : "Show more"}
        </button>
      )}
    </>
  );
});
