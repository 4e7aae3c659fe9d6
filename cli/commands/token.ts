// `switchboard token create|list|revoke`: a person's access tokens, with a write token of theirs
// (`switchboard login`, or SWITCHBOARD_TOKEN). A token cannot make one broader or longer-lived than itself.
import type { Command } from "commander";
import type { AccessTokenView } from "../../sdk/contract";
import { optionsOf, resolveCredential } from "../credentials";
import { CliError, EXIT } from "../exit-codes";
import { Output } from "../output";

const line = (t: AccessTokenView) =>
  `${t.id}  ${t.prefix}…  ${t.scope.padEnd(5)}  ${t.state.padEnd(7)}  ${t.expiresAt ? `expires ${t.expiresAt.slice(0, 10)}` : "no expiry"}  ${t.lastUsedAt ? `used ${t.lastUsedAt.slice(0, 16).replace("T", " ")}` : "never used"}  ${t.name}`;

export function registerToken(program: Command): void {
  const token = program.command("token").summary("your personal access tokens").description("Create, list and revoke your personal access tokens (as a person: switchboard login first).");

  token
    .command("create")
    .summary("create a token (shown once)")
    .requiredOption("--name <name>", "what it is for")
    .option("--scope <scope>", "read or write", "write")
    // Shorter than login's 90 days: a token may not outlive the token that creates it.
    .option("--expires-in-days <days>", "1 to 365, or never (not past the expiry of the token you use)", "30")
    .action(async (local: { name: string; scope: string; expiresInDays: string }, command: Command) => {
      if (local.scope !== "read" && local.scope !== "write") throw new CliError(EXIT.USAGE, "--scope is read or write.");
      const days = local.expiresInDays === "never" ? null : Number(local.expiresInDays);
      if (days !== null && !(Number.isInteger(days) && days >= 1 && days <= 365)) throw new CliError(EXIT.USAGE, "--expires-in-days is 1 to 365, or never.");
      const { api, credential, out, call } = await personApi(command, "token create");
      const created = await call(credential.url, () => api.tokens.create.mutate({ name: local.name, scope: local.scope as "read" | "write", expiresInDays: days }));
      out.record(created, `${created.token}\n(shown once: keep it now) ${line(created.accessToken)}`);
    });

  token
    .command("list")
    .summary("list your tokens")
    .action(async (_local: object, command: Command) => {
      const { api, credential, out, call } = await personApi(command, "token list");
      const tokens = await call(credential.url, () => api.tokens.list.query());
      if (out.json) for (const t of tokens) out.record(t, "");
      else out.record(tokens, tokens.length ? tokens.map(line).join("\n") : "No access tokens.");
    });

  token
    .command("revoke <id>")
    .summary("revoke a token at once (its open connections close)")
    .action(async (id: string, _local: object, command: Command) => {
      const { api, credential, out, call } = await personApi(command, "token revoke");
      const revoked = await call(credential.url, () => api.tokens.revoke.mutate({ tokenId: id }));
      out.record(revoked, `Revoked: ${line(revoked)}`);
    });
}

async function personApi(command: Command, what: string) {
  const opts = optionsOf(command);
  const credential = resolveCredential(opts);
  const { call, requirePerson, trpcClient } = await import("../trpc");
  requirePerson(credential, what);
  return { api: trpcClient(credential), credential, out: new Output(!!opts.json), call };
}
