// The environment, validated once. Everything else reads `env`, never process.env.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, "must be a file: (SQLite) or postgres:// URL")
    .default("file:./data/switchboard.db"),
  REDIS_URL: z.string().url().optional(),
  /** Prefix of the Redis channels; processes that should share fan-out use the same one. */
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default("switchboard"),
  AUTH_SECRET: z.string().min(16).optional(),
  AUTH_URL: z.string().url().optional(),
  /** Seed a demo workspace on an empty database. Unset: yes, except in production. */
  SEED_DEMO: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true" || v === "1")),
  DATA_DIR: z.string().default("data"),
  /** Where the packages the server hands out at /install/ are (`npm run build` packs them): default dist/install of its checkout. */
  INSTALL_DIR: z.string().optional(),
  /** Serve tRPC and Socket.IO without Next.js's pages (integration tests, agent gateways). */
  SWITCHBOARD_API_ONLY: z
    .enum(["1", "0", "true", "false"])
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  /** Sends one process holds waiting for one room's batch; past it, a send is refused as RATE_LIMITED. */
  SEND_QUEUE_PER_ROOM: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  /**
   * Requests one socket connection may have waiting for a place in its in-flight window, and their
   * payloads' bytes (as JSON); a request that does not fit is refused as RATE_LIMITED. At least one
   * largest packet (256 KiB), so that any request fits an empty buffer.
   */
  SOCKET_BUFFER_REQUESTS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  SOCKET_BUFFER_BYTES: z.coerce
    .number()
    .int()
    .min(256 * 1024)
    .max(1024 * 1024 * 1024)
    .default(4 * 1024 * 1024),
  /**
   * Who may create a workspace: `invite` (the first person to sign up; everyone after joins a workspace
   * by its invite link, signed-in people too) or `open` (anyone: a sign-up without an invite, or a
   * signed-in person (tRPC `workspaces.create`), creates a workspace of its own, which its person owns).
   */
  WORKSPACE_SIGNUP: z.enum(["invite", "open"]).default("invite"),
  /**
   * Sign-up attempts one client address may make in an hour that do not join by a usable invite (no
   * invite, a bad, expired or used-up one, or an invite sign-up that failed). Those that do are bounded
   * by the invite's uses and expiry instead.
   */
  SIGNUPS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Sign-in attempts (right or wrong) one client address may make in 10 minutes. */
  SIGNINS_PER_ADDRESS_PER_10_MINUTES: z.coerce.number().int().min(1).max(100_000).default(60),
  /** Agents one client address may register with onboarding tokens in an hour. */
  REGISTRATIONS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Socket handshakes with a bad credential one client address may make in 10 minutes before its handshakes are refused. */
  FAILED_HANDSHAKES_PER_ADDRESS_PER_10_MINUTES: z.coerce.number().int().min(1).max(100_000).default(30),
  /** How many proxies in front of the server append to X-Forwarded-For (0: clients connect directly). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Where notification emails go out: smtp://user:pass@host:587 (STARTTLS) or smtps://…:465. Unset: no email. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]+/, "must be an smtp:// or smtps:// URL")
    .optional(),
  /** The From of notification emails. Unset: Switchboard <notifications@the public URL's host>. */
  SMTP_FROM: z.string().trim().min(3).max(200).optional(),
  /** How long a person's first pending notification waits before their digest is mailed: a burst is one mail. */
  NOTIFY_BATCH_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** The key that encrypts stored secrets of remote A2A agents (their credentials, their bridge's API key). Unset: derived from AUTH_SECRET. */
  A2A_SECRET_KEY: z.string().min(16).optional(),
  /** The longest wait between attempts to reach a remote A2A agent that is down (the wait doubles from 500 ms). */
  A2A_RETRY_MAX_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  /**
   * How often a process looks for remote A2A agents' bridges to start or stop and renews their leases:
   * at most 10 s, so that a 30 s lease outlives a few passes that come late.
   */
  A2A_HOST_PASS_MS: z.coerce.number().int().min(50).max(10_000).default(2000),
  /** The largest file one upload may carry, in bytes (default 25 MB); past it, FILE_TOO_LARGE before the body is read whole. */
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 31 - 1)
    .default(25 * 1024 * 1024),
  /** How often a process removes uploads never attached to a message (after a day) and deleted files' last traces. */
  FILE_SWEEP_MS: z.coerce.number().int().min(50).max(86_400_000).default(600_000),
  /** How often a process clears the work statuses whose TTL ran out (and tells everyone). */
  STATUS_SWEEP_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
});

export type Env = Omit<z.infer<typeof schema>, "SEED_DEMO" | "SMTP_FROM"> & { SEED_DEMO: boolean; AUTH_SECRET: string; PUBLIC_URL: string; SMTP_FROM: string };

function load(): Env {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const publicUrl = e.AUTH_URL ?? `http://${e.HOST === "0.0.0.0" ? "localhost" : e.HOST}:${e.PORT}`;
  return {
    ...e,
    // A production start is never a demo unless asked: the demo's owner would own the workspace.
    SEED_DEMO: e.SEED_DEMO ?? e.NODE_ENV !== "production",
    AUTH_SECRET: e.AUTH_SECRET ?? persistentSecret(e.DATA_DIR),
    PUBLIC_URL: publicUrl,
    SMTP_FROM: e.SMTP_FROM ?? `Switchboard <notifications@${new URL(publicUrl).hostname}>`,
  };
}

/** Without AUTH_SECRET, one is made on first start and kept under data/, so sessions survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.resolve(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export const env: Env = load();
// Auth.js reads these from process.env itself.
process.env.AUTH_SECRET = env.AUTH_SECRET;
process.env.AUTH_TRUST_HOST ??= "true";
