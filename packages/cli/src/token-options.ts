// The options every command that makes an access token shares (`login`, `token create`), checked once.
import { CliError, EXIT } from "./exit-codes";

export interface TokenOptions {
  scope: "read" | "write";
  /** null: until revoked. */
  expiresInDays: number | null;
}

export function tokenOptions(raw: { scope: string; expiresInDays: string }): TokenOptions {
  if (raw.scope !== "read" && raw.scope !== "write") throw new CliError(EXIT.USAGE, "--scope is read or write.");
  const days = raw.expiresInDays === "never" ? null : Number(raw.expiresInDays);
  if (days !== null && !(Number.isInteger(days) && days >= 1 && days <= 365)) throw new CliError(EXIT.USAGE, "--expires-in-days is 1 to 365, or never.");
  return { scope: raw.scope, expiresInDays: days };
}
