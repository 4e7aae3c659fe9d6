// Reads the Auth.js session cookie outside Next.js (tRPC and Socket.IO run beside it in the same
// process) and answers which account it belongs to. Auth.js's own getToken parses the header, joins
// a token it split into chunks (name.0, name.1, ...) and decrypts it.
import { getToken } from "next-auth/jwt";

// Auth.js names the cookie __Secure-… when the site is served over HTTPS, plainly otherwise.
const SECURE_FIRST = [true, false];

export async function accountIdFromCookies(cookieHeader: string | undefined, secret: string): Promise<string | null> {
  if (!cookieHeader) return null;
  for (const secureCookie of SECURE_FIRST) {
    // Only the cookie: getToken would also take a bearer token from an Authorization header.
    const payload = await getToken({ req: { headers: { cookie: cookieHeader } }, secret, secureCookie, logger: SILENT });
    if (payload?.sub && (!payload.exp || payload.exp * 1000 > Date.now())) return payload.sub;
  }
  return null;
}

// Expired, tampered or from another secret is "not signed in", not something to log.
const SILENT = { error: () => {}, warn: () => {}, debug: () => {} };
