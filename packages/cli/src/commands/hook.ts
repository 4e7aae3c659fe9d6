// `switchboard hook claude-code`: a command hook for Claude Code, for a hook the `http` ones that
// `connect --client claude` writes cannot be (SessionStart, which Claude Code sends to command hooks
// only), or where the key cannot be in Claude Code's environment. It posts the hook's JSON from stdin to
// the server's hooks endpoint with the agent's key from the config dir, and prints nothing on stdout
// (Claude Code adds a hook's stdout to the conversation for some events) unless a person stopped the
// agent's turn: then Claude Code's hook output `{"continue": false}`, which stops the session. Any failure exits 1, which
// Claude Code treats as a non-blocking error (2 would block the tool call or the prompt), with one line
// on stderr. Run it synchronously: Claude Code kills an `async` hook still running when a headless
// session (`claude -p`) ends.
import type { Command } from "commander";
import { optionsOf, resolveCredential } from "../credentials";
import { HOOKS_PATH } from "../clients/claude-hooks";
import { CliError, EXIT, toCliError } from "../exit-codes";

const RUNTIMES = { "claude-code": HOOKS_PATH } as const;
/** The server takes bodies up to 16 MiB (server/bridges/claude-code/hooks.ts). */
const MAX_STDIN = 16 * 1024 * 1024;

export function registerHook(program: Command): void {
  program
    .command("hook")
    .summary("forward a coding agent's hook payload (stdin) to the work board")
    .description(
      "Post the hook payload on stdin to the server as the connected agent, for the hooks `connect --client claude` writes. Prints nothing on success, unless a person stopped the agent's turn: then the hook output that stops Claude Code.",
    )
    .argument("<runtime>", `whose hook it is: ${Object.keys(RUNTIMES).join(", ")}`)
    .action(async (runtime: string, _opts: object, command: Command) => {
      try {
        const route = RUNTIMES[runtime as keyof typeof RUNTIMES];
        if (!route) throw new CliError(EXIT.ERROR, `Unknown runtime ${runtime}; known: ${Object.keys(RUNTIMES).join(", ")}.`);
        const credential = resolveCredential(optionsOf(command));
        const payload = parsed(await readStdin());
        const { postJson } = await import("../http");
        const answer = await postJson<{ event: string; turn?: { stoppedBy: string | null } }>(credential.url, route, payload, {
          bearer: credential.secret,
          timeoutMs: 8_000,
        });
        // A turn a person stopped: Claude Code stops the session (its hook output, read from stdout), the tool call it was about to make denied.
        const by = answer.turn?.stoppedBy;
        if (by) process.stdout.write(`${JSON.stringify(stopOutput(answer.event, `Stopped by ${by} from Switchboard`))}\n`);
      } catch (error) {
        const failure = toCliError(error);
        throw new CliError(EXIT.ERROR, failure.message, { code: failure.code, hint: failure.hint });
      }
    });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_STDIN) throw new CliError(EXIT.ERROR, `The hook payload is larger than ${MAX_STDIN} bytes; not sent.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parsed(text: string): unknown {
  if (!text.trim())
    throw new CliError(EXIT.ERROR, "No hook payload on stdin.", {
      hint: "Claude Code passes it on stdin; to try it: echo '{…}' | switchboard hook claude-code",
    });
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(EXIT.ERROR, "The hook payload on stdin is not JSON; not sent.");
  }
}

/** Claude Code's hook output that stops a session (server/bridges/claude-code/hooks.ts answers the same at its top level). */
function stopOutput(event: string, reason: string) {
  const deny = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } };
  return { continue: false, stopReason: reason, ...(event === "PreToolUse" ? deny : {}) };
}
