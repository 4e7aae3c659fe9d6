// `switchboard whoami`: who the credential speaks for, in which workspace, on which server.
import type { Command } from "commander";
import { optionsOf, resolveCredential } from "../credentials";
import { Output } from "../output";

export function registerWhoami(program: Command): void {
  program
    .command("whoami")
    .summary("who you are connected as")
    .description("Show the participant, workspace and server the credential speaks for, and where the credential comes from.")
    .action(async (_opts: object, command: Command) => {
      const opts = optionsOf(command);
      const out = new Output(!!opts.json);
      const credential = resolveCredential(opts);
      const { withSession } = await import("../session");
      await withSession(credential, async ({ me, workspaceId }) => {
        const source = credential.source.type === "profile" ? { type: "profile" as const, name: credential.source.name } : credential.source;
        out.record({ participant: me, workspaceId, url: credential.url, credential: source }, () =>
          [
            `@${me.handle} (${me.displayName}), ${me.kind}${me.status === "suspended" ? ", suspended" : ""}`,
            `participant  ${me.id}`,
            `workspace    ${workspaceId}`,
            `server       ${credential.url}`,
            `credential   ${source.type === "profile" ? `profile ${source.name}` : `$${source.variable}`}`,
          ].join("\n"),
        );
      });
    });
}
