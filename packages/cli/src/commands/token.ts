// `switchboard token create|list|revoke`: a person's access tokens, with a write token of theirs
// (`switchboard login`, or SWITCHBOARD_TOKEN). A token cannot make one broader or longer-lived than itself.
import type { Command } from "commander";
import type { AccessTokenView } from "@switchboard/sdk/contract";
import { tokenOptions } from "../token-options";

const line = (t: AccessTokenView) =>
  `${t.id}  ${t.prefix}…  ${t.scope.padEnd(5)}  ${t.state.padEnd(7)}  ${t.expiresAt ? `expires ${t.expiresAt.slice(0, 10)}` : "no expiry"}  ${t.lastUsedAt ? `used ${t.lastUsedAt.slice(0, 16).replace("T", " ")}` : "never used"}  ${t.name}`;

export function registerToken(program: Command): void {
  const token = program
    .command("token")
    .summary("your personal access tokens")
    .description("Create, list and revoke your personal access tokens (as a person: switchboard login first).");

  token
    .command("create")
    .summary("create a token (shown once)")
    .requiredOption("--name <name>", "what it is for")
    .option("--scope <scope>", "read or write", "write")
    // Shorter than login's 90 days: a token may not outlive the token that creates it.
    .option("--expires-in-days <days>", "1 to 365, or never (not past the expiry of the token you use)", "30")
    .action(async (local: { name: string; scope: string; expiresInDays: string }, command: Command) => {
      const options = tokenOptions(local);
      const { api, origin, out, call } = (await import("../trpc")).personApi(command, "token create");
      const created = await call(origin, () => api.tokens.create.mutate({ name: local.name, ...options }));
      out.record(created, `${created.token}\n(shown once: keep it now) ${line(created.accessToken)}`);
    });

  token
    .command("list")
    .summary("list your tokens")
    .action(async (_local: object, command: Command) => {
      const { api, origin, out, call } = (await import("../trpc")).personApi(command, "token list");
      const tokens = await call(origin, () => api.tokens.list.query());
      if (out.json) for (const t of tokens) out.record(t, "");
      else out.record(tokens, tokens.length ? tokens.map(line).join("\n") : "No access tokens.");
    });

  token
    .command("revoke <id>")
    .summary("revoke a token at once (its open connections close)")
    .action(async (id: string, _local: object, command: Command) => {
      const { api, origin, out, call } = (await import("../trpc")).personApi(command, "token revoke");
      const revoked = await call(origin, () => api.tokens.revoke.mutate({ tokenId: id }));
      out.record(revoked, `Revoked: ${line(revoked)}`);
    });
}
