// Claude Code: an http server, and the work board's hooks in `.claude/settings.local.json`
// (./claude-hooks.ts, kept out of git).
//
// Where the server goes: with Claude Code's own `claude` on PATH, its local scope for this project
// (`claude mcp add-json --scope local`, kept in ~/.claude.json by Claude Code itself), which Claude Code
// connects to at its next start without asking, its Authorization header printed by a headersHelper
// from the agent's key file in the config dir: no file outside the config dir holds the key and
// nothing needs exporting. Without `claude`, `.mcp.json` in the project (project scope, meant to be
// committed, so it names no file of this machine): a header Claude Code expands from
// $SWITCHBOARD_API_KEY, and a server Claude Code connects to once someone approves it in a session.
import { execFile } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual, promisify } from "node:util";
import { claudeHooksBlock, hooksNeedExport, mergeClaudeHooks } from "./claude-hooks";
import { commandOnPath, KEY_VARIABLE, printFile, SERVER_NAME, shellWord, type Host, type Wired, type WiringContext } from "./host";
import { mergeMcpServer } from "./json-config";
import { ignoreInGit } from "../files";

/** The project's .mcp.json entry (no personal path in it): the key from $SWITCHBOARD_API_KEY. */
export const claudeEntry = (ctx: WiringContext) => ({
  type: "http",
  url: ctx.mcpUrl,
  headers: { Authorization: `Bearer \${${KEY_VARIABLE}}` },
});

/** The local scope's entry: the header printed from the key file when Claude Code connects. */
export const claudeLocalEntry = (ctx: WiringContext) => ({
  type: "http",
  url: ctx.mcpUrl,
  headersHelper: printFile(ctx.keys.json, ctx.platform),
});

export const claude: Host = {
  name: "claude",
  label: "Claude Code",
  framework: "claude-code",
  writes: (ctx) => [path.join(ctx.cwd, ".claude", "settings.local.json"), path.join(ctx.cwd, ".mcp.json")],
  async wire(ctx) {
    const settings = path.join(ctx.cwd, ".claude", "settings.local.json");
    const bin = commandOnPath("claude", ctx.env);
    const server = bin ? await addLocalServer(bin, ctx) : null;
    const file = path.join(ctx.cwd, ".mcp.json");
    // The hooks name this machine's server: personal, so kept out of the project's commits.
    const ignored = ignoreInGit(ctx.cwd, ".claude/settings.local.json");
    const keyFromEnv = !server || hooksNeedExport(ctx);
    const hooksKey = hooksNeedExport(ctx) ? `key from $${KEY_VARIABLE}` : "curl, key from the config dir";
    return {
      files: [
        server ?? { path: file, status: mergeMcpServer(file, claudeEntry(ctx)), what: `mcpServers.${SERVER_NAME} (http, key from $${KEY_VARIABLE})` },
        { path: settings, status: mergeClaudeHooks(settings, ctx), what: `hooks for the work board (${hooksKey})` },
        ...(ignored ? [{ ...ignored, what: "ignores .claude/settings.local.json (it names this machine's server)" }] : []),
      ],
      notes: server
        ? [`Start \`claude\` in this directory${keyFromEnv ? " from a shell where the key is exported" : ""}: Switchboard's tools are there.`]
        : [
            "Start `claude` in this directory from a shell where the key is exported, and approve the project's MCP server when asked",
            "(with Claude Code's `claude` on PATH, connect adds it to Claude Code's local scope instead, which needs no approval and no export).",
          ],
      keyFromEnv,
    };
  },
  print(ctx) {
    const hooks = JSON.stringify({ hooks: claudeHooksBlock(ctx) }, null, 2);
    return {
      files: [],
      notes: [
        `claude mcp add-json --scope local ${SERVER_NAME} ${shellWord(JSON.stringify(claudeLocalEntry(ctx)))}`,
        "",
        "And merge these hooks into .claude/settings.local.json (the work board):",
        hooks,
      ],
      keyFromEnv: hooksNeedExport(ctx),
    };
  },
};

/**
 * Our server in Claude Code's local scope for this project, by Claude Code's own command (which
 * writes its own file); unchanged when that scope already holds exactly this entry. Null if the
 * command fails: then the project's .mcp.json is written instead.
 */
async function addLocalServer(bin: string, ctx: WiringContext): Promise<Wired["files"][number] | null> {
  const entry = claudeLocalEntry(ctx);
  const config = path.join(ctx.env.CLAUDE_CONFIG_DIR ?? ctx.homedir, ".claude.json");
  const what = `${SERVER_NAME} in Claude Code's local scope for this project (http, key from the config dir): no approval to wait for`;
  const current = localServer(config, ctx.cwd);
  if (current && isDeepStrictEqual(current, entry)) return { path: config, status: "unchanged", what };
  // Claude Code need not look for updates or report anything for this.
  const env = { ...ctx.env, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" };
  const claudeCode = (args: string[]) => promisify(execFile)(bin, args, { cwd: ctx.cwd, env, timeout: 30_000 });
  try {
    if (current) await claudeCode(["mcp", "remove", "--scope", "local", SERVER_NAME]);
    await claudeCode(["mcp", "add-json", "--scope", "local", SERVER_NAME, JSON.stringify(entry)]);
    return { path: config, status: current ? "updated" : "created", what };
  } catch {
    return null;
  }
}

/** What Claude Code's local scope for `cwd` holds under our name (read only: Claude Code writes it). */
function localServer(config: string, cwd: string): unknown {
  try {
    const projects = (JSON.parse(readFileSync(config, "utf8")) as { projects?: Record<string, { mcpServers?: Record<string, unknown> }> }).projects;
    return projects?.[realpathSync(cwd)]?.mcpServers?.[SERVER_NAME] ?? projects?.[cwd]?.mcpServers?.[SERVER_NAME];
  } catch {
    return undefined;
  }
}
