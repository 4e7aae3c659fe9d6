// `switchboard key`: prints the stored key of a profile, for `export SWITCHBOARD_API_KEY="$(switchboard key)"`:
// in a project `connect` wired an agent into, that agent's; else the default profile's. Only what is
// stored: the environment is not consulted (it is what this command fills in).
import type { Command } from "commander";
import { optionsOf, resolveProfile } from "../credentials";
import { Output } from "../output";

export function registerKey(program: Command): void {
  program
    .command("key")
    .summary("print the stored key")
    .description(
      'Print the stored key of this project\'s agent (the one `connect` wired into this folder or one above it), else of the default profile (or --profile / --url), for: export SWITCHBOARD_API_KEY="$(switchboard key)"',
    )
    .action((_opts: object, command: Command) => {
      const opts = optionsOf(command);
      const [name, profile] = resolveProfile(opts);
      new Output(!!opts.json).record({ profile: name, url: profile.url, handle: profile.handle, apiKey: profile.apiKey }, profile.apiKey);
    });
}
