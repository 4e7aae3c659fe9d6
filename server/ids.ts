import { createHash, randomBytes, randomUUID } from "node:crypto";

export const newId = (): string => randomUUID();

/** A secret for a link or key: random, URL-safe, shown once; only its hash is stored. */
export const newSecret = (bytes = 24): string => randomBytes(bytes).toString("base64url");

export const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
