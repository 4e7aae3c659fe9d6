// How `switchboard connect` edits hosts' config files: Codex's TOML as text (only our table's lines),
// the JSON configs merged with their indentation kept, nothing written when already right.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "smol-toml";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { withServerTable } from "../../packages/cli/src/clients/codex";
import { mergeMcpServer } from "../../packages/cli/src/clients/json-config";
import { CliError } from "../../packages/cli/src/exit-codes";
import { ignoreInGit } from "../../packages/cli/src/files";

const entry = { url: "http://127.0.0.1:3000/api/mcp", bearer_token_env_var: "SWITCHBOARD_API_KEY" };

describe("Codex's config.toml", () => {
  it("appends our table to a file without one, after a blank line, leaving every byte before it", () => {
    const original = '# mine\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "npx"\n';
    const next = withServerTable(original, entry, "config.toml");
    expect(next.startsWith(original)).toBe(true);
    expect(parse(next)).toEqual({ model: "o3", mcp_servers: { docs: { command: "npx" }, switchboard: entry } });
    expect(withServerTable("", entry, "config.toml")).toMatch(
      /^# Switchboard .*\n\[mcp_servers\.switchboard\]\nurl = "http:\/\/127\.0\.0\.1:3000\/api\/mcp"\nbearer_token_env_var = "SWITCHBOARD_API_KEY"\n$/,
    );
  });

  it("returns the text unchanged when our table already holds the entry (whatever its layout)", () => {
    const text = '[mcp_servers."switchboard"]\nbearer_token_env_var = "SWITCHBOARD_API_KEY"   # env\nurl = "http://127.0.0.1:3000/api/mcp"\n';
    expect(withServerTable(text, entry, "config.toml")).toBe(text);
  });

  it("replaces a stale table and its sub-tables in place, keeping the comments that lead into the next table", () => {
    const text = [
      "# top",
      "[mcp_servers.switchboard]",
      'command = "old-bridge"',
      "",
      "[mcp_servers.switchboard.env]",
      'TOKEN = "x"',
      "",
      "# the docs server",
      "[mcp_servers.docs]",
      'url = "http://docs/mcp"',
      "",
    ].join("\r\n");
    const next = withServerTable(text, entry, "config.toml");
    expect(next).toBe(
      [
        "# top",
        "[mcp_servers.switchboard]",
        `url = "${entry.url}"`,
        'bearer_token_env_var = "SWITCHBOARD_API_KEY"',
        "",
        "# the docs server",
        "[mcp_servers.docs]",
        'url = "http://docs/mcp"',
        "",
      ].join("\r\n"),
    );
  });

  it("refuses (and changes nothing) when the servers are written in a form it does not edit, or the file does not parse", () => {
    expect(() => withServerTable('mcp_servers = { docs = { command = "npx" } }\n', entry, "config.toml")).toThrow(CliError);
    expect(() => withServerTable("[broken\n", entry, "config.toml")).toThrow(/not valid TOML/);
  });
});

describe("JSON configs with mcpServers", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("merges our entry, keeps the other servers and the file's indentation, and then leaves the file alone", () => {
    dir = mkdtempSync(path.join(tmpdir(), "sb-wiring-"));
    const file = path.join(dir, ".mcp.json");
    writeFileSync(file, '{\n    "mcpServers": {\n        "docs": { "command": "npx" }\n    },\n    "other": true\n}\n');
    const ours = { type: "http", url: entry.url, headers: { Authorization: "Bearer ${SWITCHBOARD_API_KEY}" } };
    expect(mergeMcpServer(file, ours)).toBe("updated");
    const text = readFileSync(file, "utf8");
    expect(text).toContain('\n    "mcpServers": {\n        "docs": {');
    expect(JSON.parse(text)).toEqual({ mcpServers: { docs: { command: "npx" }, switchboard: ours }, other: true });
    const mtime = statSync(file).mtimeMs;
    expect(mergeMcpServer(file, { headers: ours.headers, url: ours.url, type: "http" })).toBe("unchanged");
    expect(statSync(file).mtimeMs).toBe(mtime);
    expect(mergeMcpServer(path.join(dir, "new", "mcp.json"), ours)).toBe("created");
  });

  it("refuses a file that is not JSON, leaving it as it was", () => {
    dir = mkdtempSync(path.join(tmpdir(), "sb-wiring-"));
    const file = path.join(dir, ".mcp.json");
    writeFileSync(file, "{ not json");
    expect(() => mergeMcpServer(file, {})).toThrow(/not valid JSON/);
    expect(readFileSync(file, "utf8")).toBe("{ not json");
  });
});

describe("ignoreInGit", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const project = (git: boolean, gitignore?: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), "switchboard-ignore-"));
    dirs.push(dir);
    if (git) mkdirSync(path.join(dir, ".git"));
    if (gitignore !== undefined) writeFileSync(path.join(dir, ".gitignore"), gitignore);
    return dir;
  };

  it("adds the entry to a git repository's .gitignore once, on a line of its own, and keeps what was there", () => {
    const dir = project(true, "node_modules/");
    expect(ignoreInGit(dir, ".claude/settings.local.json")?.status).toBe("updated");
    expect(readFileSync(path.join(dir, ".gitignore"), "utf8")).toBe("node_modules/\n.claude/settings.local.json\n");
    expect(ignoreInGit(dir, ".claude/settings.local.json")?.status).toBe("unchanged");
    const fresh = project(true);
    expect(ignoreInGit(fresh, ".claude/settings.local.json")?.status).toBe("created");
  });

  it("leaves a .gitignore that already ignores the file or its folder, and folders outside git, alone", () => {
    for (const existing of ["/.claude/settings.local.json\n", ".claude/\n", "settings.local.json\n"]) {
      const dir = project(true, existing);
      expect(ignoreInGit(dir, ".claude/settings.local.json")?.status, existing).toBe("unchanged");
      expect(readFileSync(path.join(dir, ".gitignore"), "utf8")).toBe(existing);
    }
    const outside = project(false);
    expect(ignoreInGit(outside, ".claude/settings.local.json")).toBeNull();
    expect(existsSync(path.join(outside, ".gitignore"))).toBe(false);
  });
});
