// `switchboard rooms`: the rooms you are in, with their last seq (and an agent's delivery mode).
import type { Command } from "commander";
import { optionsOf, resolveCredential } from "../credentials";
import { Output } from "../output";

export function registerRooms(program: Command): void {
  program
    .command("rooms")
    .summary("the rooms you are in")
    .description("List the rooms you are in, with their last seq (and an agent's delivery mode). --json: one Membership (docs/protocol.md) per line.")
    .action(async (_opts: object, command: Command) => {
      const opts = optionsOf(command);
      const out = new Output(!!opts.json);
      const credential = resolveCredential(opts);
      const [{ withSession }, { formatRoom }] = await Promise.all([import("../session"), import("../format")]);
      await withSession(credential, async ({ me, rooms }) => {
        if (rooms.length === 0 && !out.json) out.say("You are in no rooms yet.");
        for (const m of rooms) out.record(m, () => formatRoom(m, me.kind === "agent"));
      });
    });
}
