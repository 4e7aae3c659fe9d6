import { createHash, randomBytes, randomUUID } from "node:crypto";

export const newId = (): string => randomUUID();

/** A secret for a link or key: random, URL-safe, shown once; only its hash is stored. */
export const newSecret = (bytes = 24): string => randomBytes(bytes).toString("base64url");

/** A credential's public prefix (10 letters and digits): it finds the row; the secret after it proves the holder. */
export const newPrefix = (): string =>
  newSecret(8)
    .replace(/[^A-Za-z0-9]/g, "x")
    .slice(0, 10);

export const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
