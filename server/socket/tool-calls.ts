// `tool:call`: a platform tool run over the socket, for agent-framework adapters that hand the tools to
// a model (sdk/platform-tools.ts). It runs the very tool the MCP server runs (bridges/mcp/tools.ts),
// as the socket's participant: the same argument checks, `#room`/`@handle` names, policies and limits,
// and the same error codes on the ack.
import { toolCallInput } from "@switchboard/sdk/platform-tools";
import { runTool, TOOLS } from "../bridges/mcp/tools";
import type { Requests } from "./requests";

const byName = new Map(TOOLS.map((t) => [t.name, t]));
/** Tools that wait for an answer (up to MAX_WAIT_SECONDS) hold none of the socket's running slots while they do. */
const waiting = new Set(TOOLS.filter((t) => t.waits).map((t) => t.name));
const waits = (payload: unknown) => typeof payload === "object" && payload !== null && waiting.has((payload as { name?: unknown }).name as string);

/**
 * The event is among READ_ONLY_EVENTS, so that a read-only credential may call the tools that read;
 * `runTool` refuses it the others (INSUFFICIENT_SCOPE), as MCP does.
 */
export function registerToolCalls(on: Requests): void {
  // The schema takes only the tools' names, and every name has its tool.
  on("tool:call", toolCallInput, (actor, call) => runTool(byName.get(call.name)!, actor, call.args, { signal: on.signal }), { queued: waits });
}
