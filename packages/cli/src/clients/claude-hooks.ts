// Claude Code's hooks for the work board, in `.claude/settings.local.json` (the project's personal
// settings, which Claude Code keeps out of git: they name this machine's server and files). Each event
// the server maps (server/bridges/claude-code/hooks.ts) is posted to the hooks endpoint as Claude Code
// hands it over, by a synchronous command hook running `curl`, whose Authorization header comes from
// the agent's key file in the config dir (`-H @file`, config.ts keyFiles): no file outside the config
// dir holds the key, and nothing needs exporting. Without curl, an `http` hook whose header Claude Code
// takes from $SWITCHBOARD_API_KEY (then connect says to export it).
//
// Why these two (what real Claude Code runs showed, tests/integration/claude-code-hooks-real.test.ts):
// an `async` command hook is killed when a headless session (`claude -p`, the Agent SDK) ends, so the
// last tool calls and the Stop of every such session were lost, and async hooks may arrive out of
// order; a synchronous hook is delivered in order, each before the next model call, and the session's
// end before Claude Code exits. curl starts in milliseconds (a synchronous `node` would cost a process
// start of Node on every tool call). An http hook cannot have SessionStart; UserPromptSubmit says
// "working" when the first prompt comes.
//
// Our hook is found again by the endpoint it posts to (or, from older versions, by its command), so a
// second connect changes nothing, and other hooks (the person's own, other tools') are kept as they are.
import { isDeepStrictEqual } from "node:util";
import { commandOnPath, KEY_VARIABLE, shellWord, type WiringContext } from "./host";
import { isObject, malformed, mergeJsonConfig, type JsonObject } from "./json-config";

export const HOOKS_PATH = "/api/hooks/claude-code";

/**
 * The events wired (a tool event without a matcher: every tool). `answers`: Claude Code reads the
 * server's answer (the hook's stdout) as its hook output: before a tool call, `continue: false` stops a
 * session whose turn a person stopped. Every other hook's answer is discarded (Claude Code adds some
 * events' stdout to the conversation).
 */
export const WIRED_EVENTS: { event: string; matcher?: string; answers?: true }[] = [
  // Every tool call, before and after: the room watches them as steps of the agent's running turn.
  { event: "PreToolUse", answers: true },
  { event: "PostToolUse" },
  { event: "PostToolUseFailure" },
  { event: "TaskCreated" },
  { event: "TaskCompleted" },
  { event: "UserPromptSubmit" },
  { event: "Notification" },
  { event: "Stop" },
  { event: "SessionEnd" },
];

/** Whether the hooks read the key from $SWITCHBOARD_API_KEY: only when curl is not on PATH. */
export const hooksNeedExport = (ctx: WiringContext) => !commandOnPath("curl", ctx.env);

/** Claude Code waits for it (a loopback answer takes milliseconds); 10 s at most, then it goes on. */
export function claudeHook(ctx: WiringContext, opts: { answers?: boolean } = {}): JsonObject {
  const url = `${ctx.origin}${HOOKS_PATH}`;
  const curl = commandOnPath("curl", ctx.env);
  if (!curl) return { type: "http", url, headers: { Authorization: `Bearer $${KEY_VARIABLE}` }, allowedEnvVars: [KEY_VARIABLE], timeout: 10 };
  // -f: a refusal fails the hook (Claude Code shows it, and goes on). An answer Claude Code reads is
  // JSON it takes `continue` from (false once a person stopped the turn), ignoring the rest.
  const discard = ctx.platform === "win32" ? "NUL" : "/dev/null";
  const command = [
    curl,
    "-sSf",
    "--max-time",
    "9",
    ...(opts.answers ? [] : ["-o", discard]),
    "-H",
    "Content-Type: application/json",
    "-H",
    `@${ctx.keys.header}`,
    "--data-binary",
    "@-",
    url,
  ];
  return { type: "command", command: command.map(shellWord).join(" "), timeout: 10 };
}

/** The `hooks` block to paste by hand (what `mergeClaudeHooks` writes). */
export function claudeHooksBlock(ctx: WiringContext): JsonObject {
  return Object.fromEntries(
    WIRED_EVENTS.map(({ event, matcher, answers }) => [event, [{ ...(matcher ? { matcher } : {}), hooks: [claudeHook(ctx, { answers })] }]]),
  );
}

export function mergeClaudeHooks(file: string, ctx: WiringContext): ReturnType<typeof mergeJsonConfig> {
  return mergeJsonConfig(file, (settings) => {
    const hooks = settings.hooks ?? {};
    if (!isObject(hooks)) throw malformed(file, "has a hooks entry that is not an object");
    const next: JsonObject = {};
    for (const event of new Set([...Object.keys(hooks), ...WIRED_EVENTS.map((w) => w.event)])) {
      const groups = hooks[event] ?? [];
      if (!Array.isArray(groups)) throw malformed(file, `has hooks.${event} that is not a list`);
      const wired = WIRED_EVENTS.find((w) => w.event === event);
      // An event no longer wired (an older version's SessionStart) loses our hook, and goes if that was all.
      const merged = wired ? withOurHook(groups, claudeHook(ctx, { answers: wired.answers }), wired.matcher) : withoutOurs(groups);
      if (merged.length > 0 || groups.length === 0) next[event] = merged;
    }
    return isDeepStrictEqual(next, hooks) ? settings : { ...settings, hooks: next };
  });
}

/** Ours: an http hook or a curl posting to the hooks endpoint, or an older version's command running `switchboard hook claude-code`. */
const ours = (h: unknown) =>
  isObject(h) &&
  ((typeof h.url === "string" && h.url.endsWith(HOOKS_PATH)) ||
    (typeof h.command === "string" && (h.command.includes(HOOKS_PATH) || h.command.includes(" hook claude-code"))));
const hasOurs = (g: unknown): g is { hooks: unknown[] } => isObject(g) && Array.isArray(g.hooks) && g.hooks.some(ours);

/** The event's matcher groups less our hooks (a group left empty goes too). */
function withoutOurs(groups: unknown[]): unknown[] {
  return groups.flatMap((g) => {
    if (!hasOurs(g)) return [g];
    const rest = g.hooks.filter((h) => !ours(h));
    return rest.length ? [{ ...g, hooks: rest }] : [];
  });
}

/** The event's matcher groups with our hook once, in its own group (where an older one of ours was, if one was). */
function withOurHook(groups: unknown[], hook: JsonObject, matcher: string | undefined): unknown[] {
  const group = { ...(matcher ? { matcher } : {}), hooks: [hook] };
  const at = groups.findIndex(hasOurs);
  if (at === -1) return [...groups, group];
  return groups.flatMap((g, i) => {
    if (i !== at) return i > at ? withoutOurs([g]) : [g];
    const found = g as { hooks: unknown[] };
    // Someone put our hook in a group of theirs: leave it there, as it is now written.
    return [found.hooks.length === 1 ? group : { ...found, hooks: found.hooks.map((h) => (ours(h) ? hook : h)) }];
  });
}
