// docs/mcp.md lists every MCP tool's arguments as the server lists them to hosts: `npm run docs:mcp`
// writes that section, and this test fails when a tool or an argument changed without it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOOL_SPECS } from "@switchboard/sdk/platform-tools";
import { MCP_DOC, toolArgumentsMarkdown, updatedDoc } from "../../scripts/mcp-tools-doc";

describe("docs/mcp.md's tool arguments", () => {
  it("are what the tools' specs say (run `npm run docs:mcp` after changing a tool)", () => {
    const doc = readFileSync(MCP_DOC, "utf8");
    expect(updatedDoc(doc) === doc, "docs/mcp.md is out of date: run npm run docs:mcp").toBe(true);
  });

  it("name every tool and every argument", () => {
    const section = toolArgumentsMarkdown();
    for (const [name, spec] of Object.entries(TOOL_SPECS)) {
      expect(section).toContain(`#### \`${name}\``);
      for (const arg of Object.keys(spec.input.shape)) expect(section, `${name}.${arg}`).toContain(`| \`${arg}\` |`);
    }
  });
});
