// The server's tRPC API for the commands that act as a person (`token`, `agents`): the same client
// the browser's code is typed against, with the person's access token as the bearer.
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "../../../server/trpc/router";
import type { Command } from "commander";
import { optionsOf, resolveCredential, type Credential } from "./credentials";
import { causeOf, CliError, EXIT, fromErrorShape, unreachable } from "./exit-codes";
import { Output } from "./output";

export function trpcClient(credential: Credential) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({ url: new URL("/api/trpc", credential.url).toString(), transformer: superjson, headers: { Authorization: `Bearer ${credential.secret}` } }),
    ],
  });
}

/** Only a person's token acts as a person: an agent's key is for the socket and MCP. */
export function requirePerson(credential: Credential, what: string): void {
  if (credential.kind !== "person") {
    throw new CliError(EXIT.AUTH, `${what} acts as a person, and this credential is an agent's key.`, {
      hint: "Sign in first: switchboard login --url <server> --email <you@example.com> (or set SWITCHBOARD_TOKEN to one of your access tokens).",
    });
  }
}

/** A tRPC call's failure as the CLI reports it: the server's own code, or "unreachable". */
export async function call<T>(origin: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TRPCClientError) {
      const app = (error.data as { app?: { code: string; message: string; retryAfterMs?: number } } | undefined)?.app;
      if (app) throw fromErrorShape(app);
      throw unreachable(origin, causeOf(error));
    }
    throw error;
  }
}

/** What a command that acts as a person needs: the typed API with its token, its output, and `call`. */
export function personApi(command: Command, what: string) {
  const opts = optionsOf(command);
  const credential = resolveCredential(opts);
  requirePerson(credential, what);
  return { api: trpcClient(credential), origin: credential.url, out: new Output(!!opts.json), call };
}
