// `npm run docs:mcp`: writes every MCP tool's arguments into docs/mcp.md (between the
// `mcp-tool-arguments` markers), from the same specs and JSON Schemas the MCP server lists
// (packages/sdk/src/platform-tools.ts), so the doc cannot drift from what hosts are told.
// tests/unit/mcp-tools-doc.test.ts fails when the doc is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { TOOL_SPECS } from "@switchboard/sdk/platform-tools";

export const MCP_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/mcp.md");
const START = "<!-- mcp-tool-arguments:start -->";
const END = "<!-- mcp-tool-arguments:end -->";

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

/** A schema's type as a reader wants it: `"a" | "b"`, `string[]`, `integer (1-100)`. */
function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) return [...new Set(schema.anyOf.map(typeOf))].join(" | ");
  if (schema.type === "array") {
    const items = schema.items ? typeOf(schema.items) : "any";
    return items.includes(" | ") ? `(${items})[]` : `${items}[]`;
  }
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  if (schema.minimum !== undefined && schema.maximum !== undefined) return `${type} (${schema.minimum}-${schema.maximum})`;
  if (schema.maxLength !== undefined) return `${type} (≤ ${schema.maxLength})`;
  return type;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** Every tool's arguments, as Markdown: a table per tool, in the order the server lists them. */
export function toolArgumentsMarkdown(): string {
  const sections = Object.entries(TOOL_SPECS).map(([name, spec]) => {
    const schema = z.toJSONSchema(spec.input, { io: "input" }) as JsonSchema;
    const properties = Object.entries(schema.properties ?? {});
    const heading = `#### \`${name}\`${spec.readOnly ? " (reads)" : ""}`;
    if (properties.length === 0) return `${heading}\n\nNo arguments.`;
    const rows = properties.map(([arg, prop]) => {
      const required = schema.required?.includes(arg) && prop.default === undefined;
      const presence = required ? "required" : prop.default !== undefined ? `default ${JSON.stringify(prop.default)}` : "optional";
      return `| \`${arg}\` | ${cell(typeOf(prop))} | ${presence} | ${cell(prop.description ?? "")} |`;
    });
    return [heading, "", "| argument | type | | |", "|---|---|---|---|", ...rows].join("\n");
  });
  return [START, "", ...sections.flatMap((s) => [s, ""]), END].join("\n");
}

/** docs/mcp.md with its tool-arguments section as the specs say it should be. */
export function updatedDoc(doc: string): string {
  const marked = new RegExp(`${START}[\\s\\S]*${END}`);
  if (!marked.test(doc)) throw new Error(`docs/mcp.md has no ${START} … ${END} section`);
  return doc.replace(marked, () => toolArgumentsMarkdown());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(MCP_DOC, updatedDoc(readFileSync(MCP_DOC, "utf8")));
  console.log(`docs/mcp.md: the arguments of ${Object.keys(TOOL_SPECS).length} tools written`);
}
