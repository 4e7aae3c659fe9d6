// What a command prints. Human text by default; with --json, data is JSON Lines on stdout (one object
// per line: whoami one, rooms one per room, tail one per message) and errors one object on stderr.
// Progress and notes go to stderr in JSON mode, so stdout stays parseable.
import type { CliError } from "./exit-codes";

export class Output {
  constructor(readonly json: boolean) {}

  /** One record: its JSON line, or the human text for it. */
  record(value: unknown, human: string | (() => string)): void {
    process.stdout.write(this.json ? `${JSON.stringify(value)}\n` : `${typeof human === "function" ? human() : human}\n`);
  }

  /** Human text only (in JSON mode it goes to stderr, where it does not break the data). */
  say(text: string): void {
    (this.json ? process.stderr : process.stdout).write(`${text}\n`);
  }

  error(error: CliError): void {
    if (this.json) {
      const body = {
        code: error.code ?? null,
        message: error.message,
        hint: error.hint ?? null,
        exitCode: error.exitCode,
        retryAfterMs: error.retryAfterMs ?? null,
      };
      process.stderr.write(`${JSON.stringify({ error: body })}\n`);
      return;
    }
    const code = error.code ? ` (${error.code})` : "";
    process.stderr.write(`switchboard: ${error.message}${code}\n${error.hint ? `  ${error.hint}\n` : ""}`);
  }
}

/** Resolves when what was written to stdout and stderr has left the process (pipes are async on macOS). */
export function flushed(): Promise<void> {
  const drain = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write("", () => resolve()));
  return Promise.all([drain(process.stdout), drain(process.stderr)]).then(() => undefined);
}
