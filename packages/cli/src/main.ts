// The `switchboard` command line (bin.ts runs it; the package ships it bundled as dist/switchboard.mjs).
// Each command is a file in commands/ that declares itself on the program and imports what is heavy
// (the SDK, TOML) only when it runs, so `--help` stays fast. Every command resolves its server and
// credential the same way (credentials.ts), prints through output.ts and ends with an exit code from
// exit-codes.ts.
import { Command, CommanderError } from "commander";
import { registerConnect } from "./commands/connect";
import { registerAgents } from "./commands/agents";
import { registerHook } from "./commands/hook";
import { registerKey } from "./commands/key";
import { registerLogin } from "./commands/login";
import { registerToken } from "./commands/token";
import { registerMcp } from "./commands/mcp";
import { registerRooms } from "./commands/rooms";
import { registerSend } from "./commands/send";
import { registerTail } from "./commands/tail";
import { registerWhoami } from "./commands/whoami";
import { CliError, EXIT, EXIT_CODES_HELP, toCliError } from "./exit-codes";
import { flushed, Output } from "./output";

export function buildProgram(): Command {
  const program = new Command("switchboard")
    .description("Switchboard from the command line: connect a coding agent, read and send messages.")
    .option("--url <url>", "the server (default: the profile's, or $SWITCHBOARD_URL)")
    .option("--profile <name>", "a stored profile: its handle, or handle@server (default: the last one connected)")
    .option("--json", "machine-readable output: one JSON object per line (errors: one on stderr)")
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showHelpAfterError("(switchboard --help lists the commands)")
    .exitOverride()
    .addHelpText(
      "after",
      `
Credentials, for every command: --profile / --url (a stored profile), else $SWITCHBOARD_API_KEY (an
agent's key) or $SWITCHBOARD_TOKEN (a person's token) at $SWITCHBOARD_URL, else the default profile.
Profiles live in $SWITCHBOARD_CONFIG_DIR, else $XDG_CONFIG_HOME/switchboard, else ~/.config/switchboard.

${EXIT_CODES_HELP}`,
    );
  // Subcommands inherit exitOverride, the help settings and showHelpAfterError.
  for (const register of [
    registerConnect,
    registerLogin,
    registerWhoami,
    registerRooms,
    registerSend,
    registerTail,
    registerMcp,
    registerAgents,
    registerToken,
    registerKey,
    registerHook,
  ])
    register(program);
  return program;
}

export async function main(argv: string[] = process.argv): Promise<void> {
  // A reader that stops early (`switchboard tail --json | head -1`) is not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? EXIT.OK : EXIT.ERROR));
  }
  const out = new Output(argv.includes("--json"));
  let code: number = EXIT.OK;
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander printed it already (help, version, or the usage error and its hint).
      code = error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    } else {
      const failure = toCliError(error);
      if (process.env.SWITCHBOARD_DEBUG && !(error instanceof CliError)) console.error(error);
      out.error(failure);
      code = failure.exitCode;
    }
  }
  await flushed();
  process.exit(code);
}
