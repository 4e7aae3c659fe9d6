// `switchboard login`: a person trades their email and password for a personal access token (POST
// /api/v1/tokens), kept as a profile in the config dir, so that the CLI (and `switchboard mcp`) act as
// them, in one of their workspaces (--workspace, by name or id; else the first they joined). The
// password is read from the terminal without echo, or from stdin with --password-stdin.
import { hostname } from "node:os";
import type { Command } from "commander";
import type { AccessTokenView } from "@switchboard/sdk/contract";
import { loadConfig, profileName, saveConfig, serverOrigin } from "../config";
import { optionsOf } from "../credentials";
import { CliError, EXIT } from "../exit-codes";
import { postJson } from "../http";
import { Output } from "../output";
import { tokenOptions } from "../token-options";

export function registerLogin(program: Command): void {
  program
    .command("login")
    .summary("sign in as a person (an access token kept in the config dir)")
    .description("Trade your email and password for a personal access token, kept as a profile and made the default, so that commands act as you.")
    .requiredOption("--email <email>", "your email")
    .option("--name <name>", "the token's name, shown under Settings → Access tokens", `switchboard CLI on ${hostname()}`)
    .option("--scope <scope>", "read or write", "write")
    .option("--expires-in-days <days>", "1 to 365, or never", "90")
    .option("--workspace <name or id>", "which of your workspaces it acts in (default: the first you joined)")
    .option("--password-stdin", "read the password from stdin instead of asking")
    .action(
      async (local: { email: string; name: string; scope: string; expiresInDays: string; workspace?: string; passwordStdin?: boolean }, command: Command) => {
        const opts = optionsOf(command);
        if (!opts.url)
          throw new CliError(EXIT.USAGE, "Which server? Pass --url.", {
            hint: "switchboard login --url https://switchboard.example.com --email you@example.com",
          });
        const { scope, expiresInDays } = tokenOptions(local);
        const origin = serverOrigin(opts.url);
        const password = local.passwordStdin ? (await readStdin()).replace(/\r?\n$/, "") : await askHidden(`Password for ${local.email}: `);
        if (!password) throw new CliError(EXIT.USAGE, "No password given.");
        const { token, accessToken, workspace } = await postJson<{ token: string; accessToken: AccessTokenView; workspace: { id: string; name: string } }>(
          origin,
          "/api/v1/tokens",
          { email: local.email, password, name: local.name, scope, expiresInDays, ...(local.workspace ? { workspace: local.workspace } : {}) },
        );
        const { withSession } = await import("../session");
        const who = await withSession({ url: origin, secret: token, kind: "person", source: { type: "env", variable: "SWITCHBOARD_TOKEN" } }, async (s) => ({
          me: s.me,
          workspaceId: s.workspaceId,
        }));
        const config = loadConfig();
        // Named for its workspace too when one was asked for, so each workspace keeps its own profile.
        const name = profileName(origin, who.me.handle, local.workspace ? workspace.name : undefined);
        config.profiles[name] = {
          url: origin,
          handle: who.me.handle,
          kind: "person",
          participantId: who.me.id,
          workspaceId: who.workspaceId,
          apiKey: token,
          createdAt: new Date().toISOString(),
        };
        config.default = name;
        saveConfig(config);
        new Output(!!opts.json).record(
          { profile: name, participant: who.me, workspace, accessToken },
          `Signed in as @${who.me.handle} in ${workspace.name} on ${origin}: token "${accessToken.name}" (${accessToken.scope}, ${accessToken.expiresAt ? `expires ${accessToken.expiresAt.slice(0, 10)}` : "no expiry"}) kept as profile ${name}, now the default.`,
        );
      },
    );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** Asks on the terminal without echoing what is typed. */
async function askHidden(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) throw new CliError(EXIT.USAGE, "No terminal to ask for the password on.", { hint: "Pipe it in with --password-stdin." });
  process.stderr.write(prompt);
  process.stdin.setRawMode(true);
  process.stdin.resume();
  let typed = "";
  try {
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") return typed;
        if (ch === "\u0003") throw new CliError(EXIT.USAGE, "Cancelled.");
        if (ch === "\u007f") typed = typed.slice(0, -1);
        else typed += ch;
      }
    }
    return typed;
  } finally {
    process.stdin.setRawMode(false);
    process.stdin.pause();
    process.stderr.write("\n");
  }
}
