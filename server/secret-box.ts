// Secrets the server must read back (a remote agent's credential, the API key its bridge connects
// with), sealed with AES-256-GCM. The key is A2A_SECRET_KEY's, or one derived from AUTH_SECRET by HKDF:
// changing either makes what was sealed with it unreadable (the owner enters the credential again).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "./env";

const VERSION = "v1";
let key: Buffer | null = null;

function secretKey(): Buffer {
  key ??= Buffer.from(hkdfSync("sha256", env.A2A_SECRET_KEY ?? env.AUTH_SECRET, "switchboard", "a2a-remote-secrets", 32));
  return key;
}

/** `v1:` + base64url(iv | tag | ciphertext). */
export function seal(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretKey(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

/** The plain text, or an error when it was sealed under another key or altered. */
export function open(sealed: string): string {
  const [version, data] = sealed.split(":");
  if (version !== VERSION || !data) throw new Error("Not a sealed secret");
  const raw = Buffer.from(data, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", secretKey(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
