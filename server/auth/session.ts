// Reads the Auth.js session cookie outside Next.js (tRPC and Socket.IO run beside it in the same
// process) and answers which account it belongs to.
import { decode } from "next-auth/jwt";

const COOKIE_NAMES = ["__Secure-authjs.session-token", "authjs.session-token"];

export function parseCookies(header: string | undefined): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (header ?? "").split(";").map((p) => p.trim())) {
    const eq = part.indexOf("=");
    if (eq < 1) continue;
    const name = part.slice(0, eq);
    try {
      jar.set(name, decodeURIComponent(part.slice(eq + 1)));
    } catch {
      // A malformed cookie is not ours; ignore it.
    }
  }
  return jar;
}

/** Auth.js splits large tokens into name.0, name.1, ...; join them back. */
function readToken(jar: Map<string, string>, name: string): string | undefined {
  if (jar.has(name)) return jar.get(name);
  const chunks: string[] = [];
  for (let i = 0; jar.has(`${name}.${i}`); i++) chunks.push(jar.get(`${name}.${i}`)!);
  return chunks.length ? chunks.join("") : undefined;
}

export async function accountIdFromCookies(cookieHeader: string | undefined, secret: string): Promise<string | null> {
  const jar = parseCookies(cookieHeader);
  for (const name of COOKIE_NAMES) {
    const token = readToken(jar, name);
    if (!token) continue;
    try {
      const payload = await decode({ token, secret, salt: name });
      if (payload?.sub && (!payload.exp || payload.exp * 1000 > Date.now())) return payload.sub;
    } catch {
      // Expired, tampered or from another secret: not signed in.
    }
  }
  return null;
}
