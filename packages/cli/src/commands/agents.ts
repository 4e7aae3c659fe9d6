// `switchboard agents [list|suspend|resume]`: the agents a person owns, and the kill switch for them
// (as a person: switchboard login first). Suspension closes the agent's connections on every process.
import type { Command } from "commander";
import type { AgentView } from "@switchboard/sdk/contract";
import { CliError, EXIT } from "../exit-codes";

const line = (a: AgentView) =>
  `@${a.handle.padEnd(20)} ${a.status.padEnd(9)} ${a.framework ?? ""}  ${a.lastSeenAt ? `seen ${a.lastSeenAt.slice(0, 16).replace("T", " ")}` : "never connected"}  ${a.displayName}`;

export function registerAgents(program: Command): void {
  const agents = program
    .command("agents")
    .summary("your agents: list, suspend, resume")
    .description("List the agents you own; suspend one at once (the kill switch) or resume it.");

  agents
    .command("list", { isDefault: true })
    .summary("the agents you own")
    .action(async (_local: object, command: Command) => {
      const { api, origin, out, call } = (await import("../trpc")).personApi(command, `agents ${command.name()}`);
      const mine = await call(origin, () => api.agents.mine.query());
      if (out.json) for (const a of mine) out.record(a, "");
      else out.record(mine, mine.length ? mine.map(line).join("\n") : "You own no agents yet: switchboard connect registers one.");
    });

  agents
    .command("suspend <agent>")
    .summary("suspend an agent now (@handle or id)")
    .option("--reason <text>", "why, for the audit log and the agent's owner", "")
    .action(async (ref: string, local: { reason: string }, command: Command) => {
      const { api, origin, out, call } = (await import("../trpc")).personApi(command, `agents ${command.name()}`);
      const agentId = await idOf(ref, () => call(origin, () => api.agents.mine.query()));
      const agent = await call(origin, () => api.agents.suspend.mutate({ agentId, reason: local.reason }));
      out.record(agent, `Suspended: ${line(agent)}`);
    });

  agents
    .command("resume <agent>")
    .summary("let a suspended agent connect again")
    .action(async (ref: string, _local: object, command: Command) => {
      const { api, origin, out, call } = (await import("../trpc")).personApi(command, `agents ${command.name()}`);
      const agentId = await idOf(ref, () => call(origin, () => api.agents.mine.query()));
      const agent = await call(origin, () => api.agents.resume.mutate({ agentId }));
      out.record(agent, `Resumed: ${line(agent)}`);
    });
}

/** `@handle` among the agents you own, or an id as it is. */
async function idOf(ref: string, mine: () => Promise<AgentView[]>): Promise<string> {
  if (!ref.startsWith("@")) return ref;
  const found = (await mine()).find((a) => a.handle === ref.slice(1).toLowerCase());
  if (!found) throw new CliError(EXIT.NOT_FOUND, `You own no agent ${ref}.`, { hint: "switchboard agents lists yours." });
  return found.id;
}
