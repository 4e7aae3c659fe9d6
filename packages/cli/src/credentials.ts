// Which server and which credential a command uses, decided the same way for every command:
//   1. --profile / --url: a stored profile that fits (with --url and no profile for it, the env's key);
//   2. the environment: SWITCHBOARD_API_KEY (an agent's sb_… key) or SWITCHBOARD_TOKEN (a person's
//      sbp_… token), at SWITCHBOARD_URL (else the default profile's server, else http://127.0.0.1:3000);
//   3. the profile of the project the command runs in (the one `connect` wired into the nearest folder at
//      or above the working directory), else the default profile (the last one `connect` set up).
import type { Command } from "commander";
import { realpathSync } from "node:fs";
import { configFile, findProfile, loadConfig, projectProfile, serverOrigin, type Config, type Profile } from "./config";
import { CliError, EXIT } from "./exit-codes";

export type GlobalOptions = {
  url?: string;
  profile?: string;
  json?: boolean;
};

export interface Credential {
  /** The server's origin. */
  url: string;
  /** Sent as the socket's `auth.apiKey`, or as `Authorization: Bearer` over HTTP. */
  secret: string;
  kind: "agent" | "person";
  /** Where it came from, for whoami and for error messages. */
  source: { type: "profile"; name: string; profile: Profile } | { type: "env"; variable: "SWITCHBOARD_API_KEY" | "SWITCHBOARD_TOKEN" };
}

const DEFAULT_URL = "http://127.0.0.1:3000";

export function resolveCredential(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Credential {
  const config = loadConfig(env);
  const fromEnv = envSecret(env);
  if (opts.profile || opts.url) {
    const origin = opts.url ? serverOrigin(opts.url) : undefined;
    const found = findProfile(config, { profile: opts.profile, origin });
    if (found) return fromProfile(...found);
    if (origin && !opts.profile && fromEnv) return { url: origin, ...fromEnv };
    const known = Object.keys(config.profiles);
    throw new CliError(EXIT.AUTH, opts.profile ? `No profile ${opts.profile}${origin ? ` on ${origin}` : ""}.` : `No credential for ${origin}.`, {
      hint: known.length
        ? `Known profiles: ${known.join(", ")}. Or connect: switchboard connect --url <server> --token <onboarding token>`
        : "Connect first: switchboard connect --url <server> --token <onboarding token>",
    });
  }
  if (fromEnv) {
    const fallback = config.default ? config.profiles[config.default]?.url : undefined;
    return { url: serverOrigin(env.SWITCHBOARD_URL || fallback || DEFAULT_URL), ...fromEnv };
  }
  const found = storedDefault(config);
  if (found) return fromProfile(...found);
  throw new CliError(EXIT.AUTH, "Not connected: no profile in " + configFile(env) + " and no SWITCHBOARD_API_KEY or SWITCHBOARD_TOKEN.", {
    hint: "Run `switchboard connect --url <server> --token <onboarding token>`, or set SWITCHBOARD_URL and SWITCHBOARD_API_KEY.",
  });
}

/** The stored profile only (for `switchboard key`, which prints what is stored, never the environment). */
export function resolveProfile(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): [string, Profile] {
  const config = loadConfig(env);
  const found =
    opts.profile || opts.url ? findProfile(config, { profile: opts.profile, origin: opts.url ? serverOrigin(opts.url) : undefined }) : storedDefault(config);
  if (found) return found;
  throw new CliError(EXIT.AUTH, `No stored profile${opts.profile ? ` ${opts.profile}` : ""}${opts.url ? ` for ${opts.url}` : ""}.`, {
    hint: "Connect first: switchboard connect --url <server> --token <onboarding token>",
  });
}

/** With nothing on the command line: the project's profile, else the default one. */
function storedDefault(config: Config): [string, Profile] | null {
  const inProject = projectProfile(config, realCwd());
  if (inProject) return inProject;
  return config.default && config.profiles[config.default] ? [config.default, config.profiles[config.default]] : null;
}

/** The working directory with its symlinks resolved, as `connect` records it. */
export function realCwd(): string {
  try {
    return realpathSync(process.cwd());
  } catch {
    return process.cwd();
  }
}

function fromProfile(name: string, profile: Profile): Credential {
  return { url: profile.url, secret: profile.apiKey, kind: profile.kind, source: { type: "profile", name, profile } };
}

function envSecret(env: NodeJS.ProcessEnv): Omit<Credential, "url"> | null {
  if (env.SWITCHBOARD_API_KEY)
    return { secret: env.SWITCHBOARD_API_KEY, kind: kindOf(env.SWITCHBOARD_API_KEY), source: { type: "env", variable: "SWITCHBOARD_API_KEY" } };
  if (env.SWITCHBOARD_TOKEN)
    return { secret: env.SWITCHBOARD_TOKEN, kind: kindOf(env.SWITCHBOARD_TOKEN), source: { type: "env", variable: "SWITCHBOARD_TOKEN" } };
  return null;
}

/** Agents' keys start `sb_`, people's tokens `sbp_`. */
const kindOf = (secret: string): "agent" | "person" => (secret.startsWith("sbp_") ? "person" : "agent");

/** A command's options together with the program's (--url, --profile, --json). */
export function optionsOf<T extends object = object>(command: Command): GlobalOptions & T {
  return command.optsWithGlobals() as GlobalOptions & T;
}
