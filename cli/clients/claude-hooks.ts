// Claude Code's hooks for the work board, in `.claude/settings.local.json` (the project's personal
// settings, which Claude Code keeps out of git: the command names this machine's CLI and profile, so
// it is not for the team's committed settings.json). Each event the server maps
// (server/bridges/claude-code/hooks.ts) runs `switchboard hook claude-code`, which posts the hook's
// stdin with the key from the CLI's config dir, so the file names a profile, never a key.
// Our hook is found again by its command, so a second connect changes nothing, and other hooks
// (the person's own, other tools') are kept as they are.
import { isDeepStrictEqual } from "node:util";
import { shellWord, type WiringContext } from "./host";
import { isObject, malformed, mergeJsonConfig, type JsonObject } from "./json-config";

/** The events wired, and for tool events the tools the board tracks (a matcher is a regex of tool names). */
export const WIRED_EVENTS: { event: string; matcher?: string }[] = [
  { event: "PostToolUse", matcher: "Edit|MultiEdit|Write|NotebookEdit|Read|Bash|TodoWrite" },
  { event: "TaskCreated" },
  { event: "TaskCompleted" },
  { event: "SessionStart" },
  { event: "UserPromptSubmit" },
  { event: "Notification" },
  { event: "Stop" },
  { event: "SessionEnd" },
];

const OURS = " hook claude-code";

/** Async: Claude Code does not wait for it (the CLI takes a moment to start); 10 s at most. */
export const claudeHook = (ctx: WiringContext) => ({ type: "command", command: `${ctx.cli}${OURS} --profile ${shellWord(ctx.profile)}`, async: true, timeout: 10 });

/** The `hooks` block to paste by hand (what `mergeClaudeHooks` writes). */
export function claudeHooksBlock(ctx: WiringContext): JsonObject {
  const hook = claudeHook(ctx);
  return Object.fromEntries(WIRED_EVENTS.map(({ event, matcher }) => [event, [{ ...(matcher ? { matcher } : {}), hooks: [hook] }]]));
}

export function mergeClaudeHooks(file: string, ctx: WiringContext): ReturnType<typeof mergeJsonConfig> {
  const hook = claudeHook(ctx);
  return mergeJsonConfig(file, (settings) => {
    const hooks = settings.hooks ?? {};
    if (!isObject(hooks)) throw malformed(file, "has a hooks entry that is not an object");
    const next: JsonObject = { ...hooks };
    for (const { event, matcher } of WIRED_EVENTS) {
      const groups = next[event] ?? [];
      if (!Array.isArray(groups)) throw malformed(file, `has hooks.${event} that is not a list`);
      next[event] = withOurHook(groups, hook, matcher);
    }
    return isDeepStrictEqual(next, hooks) ? settings : { ...settings, hooks: next };
  });
}

/** The event's matcher groups with our hook in its own group (replacing an older one of ours). */
function withOurHook(groups: unknown[], hook: JsonObject, matcher: string | undefined): unknown[] {
  const ours = (h: unknown) => isObject(h) && typeof h.command === "string" && h.command.includes(OURS);
  const group = { ...(matcher ? { matcher } : {}), hooks: [hook] };
  const at = groups.findIndex((g) => isObject(g) && Array.isArray(g.hooks) && g.hooks.some(ours));
  if (at === -1) return [...groups, group];
  const found = groups[at] as { hooks: unknown[] };
  // Someone put our hook in a group of theirs: leave it there, as it is now written.
  const replaced = found.hooks.length === 1 ? group : { ...found, hooks: found.hooks.map((h) => (ours(h) ? hook : h)) };
  return groups.map((g, i) => (i === at ? replaced : g));
}
