// The platform tools are defined once (sdk/platform-tools.ts) and run by the server (bridges/mcp/tools.ts):
// every spec has exactly one run and every run a spec, the tools an adapter hands a model are all but
// the delivery loop's, and each tool's schema accepts the example its description gives the model.
import { describe, expect, it } from "vitest";
import { ADAPTER_TOOLS, platformTools, TOOL_NAMES, TOOL_SPECS, toolCallInput } from "@switchboard/sdk/platform-tools";
import { RUNS, TOOLS } from "../../server/bridges/mcp/tools";

/** The JSON after "Example:" in a description, if it has one. */
function example(description: string): unknown {
  const at = description.indexOf("Example: ");
  return at < 0 ? undefined : JSON.parse(description.slice(at + "Example: ".length));
}

describe("platform tools", () => {
  it("joins every spec to exactly one run, and every run to a spec, in the specs' order", () => {
    expect(Object.keys(RUNS).sort()).toEqual([...TOOL_NAMES].sort());
    expect(TOOLS.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(new Set(TOOL_NAMES).size).toBe(TOOL_NAMES.length);
    for (const t of TOOLS) {
      const spec = TOOL_SPECS[t.name as keyof typeof TOOL_SPECS];
      expect(t, t.name).toMatchObject({ description: spec.description, input: spec.input, readOnly: spec.readOnly });
      expect(t.run, t.name).toBe(RUNS[t.name as keyof typeof RUNS].run);
    }
  });

  it("hands an adapter's model every tool but the delivery loop's own", () => {
    const loop = ["wait_for_messages", "acknowledge", "mark_processing", "mark_processed", "mark_failed", "report_usage", "report_activity"];
    expect([...ADAPTER_TOOLS].sort()).toEqual(TOOL_NAMES.filter((n) => !loop.includes(n)).sort());
    for (const name of [
      "send_message",
      "lookup_peers",
      "invite",
      "open_dm",
      "request_connection",
      "set_status",
      "ask_human",
      "get_answer",
      "read_messages",
      "list_rooms",
      "whoami",
      "create_room",
      "join_room",
      "leave_room",
    ]) {
      expect(ADAPTER_TOOLS, name).toContain(name);
    }
  });

  it("gives zod schemas that accept each description's example, and calls through the function it is given", async () => {
    const calls: [string, Record<string, unknown>][] = [];
    const tools = platformTools(async (name, args) => (calls.push([name, args]), { ok: name }), TOOL_NAMES);
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      const args = example(t.description) ?? {};
      // A tool that takes arguments shows the model how to call it.
      if (Object.keys(t.input.shape).length > 0) expect(example(t.description), t.name).toBeDefined();
      const parsed = t.input.safeParse(args);
      expect(parsed.success ? "accepted" : parsed.error.issues, t.name).toBe("accepted");
      expect(await t.call(args as Record<string, unknown>)).toEqual({ ok: t.name });
    }
    expect(calls.map(([name]) => name)).toEqual(TOOL_NAMES);
    expect(platformTools(async () => ({})).map((t) => t.name)).toEqual(ADAPTER_TOOLS);
  });

  it("takes tool:call for a known tool only, naming an unknown one", () => {
    expect(toolCallInput.parse({ name: "whoami" })).toEqual({ name: "whoami", args: {} });
    const unknown = toolCallInput.safeParse({ name: "frobnicate", args: {} });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]).toMatchObject({ path: ["name"], message: 'no tool "frobnicate"' });
  });
});
