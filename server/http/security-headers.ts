import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Headers every response carries. Scripts run only from this origin or inline with this response's
 * nonce: Next.js finds the nonce in the request's Content-Security-Policy header (set here, before the
 * request reaches it) and puts it on its own inline scripts, so every page renders per request
 * (app/layout.tsx). Connections (fetch, WebSocket) go to this origin only.
 */
export function setSecurityHeaders(req: IncomingMessage, res: ServerResponse, dev: boolean): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  const policy = contentSecurityPolicy(randomBytes(16).toString("base64"), dev);
  res.setHeader("Content-Security-Policy", policy);
  req.headers["content-security-policy"] = policy; // replaces whatever the client sent
}

export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    // React needs eval in development only, for its debugging information.
    `script-src 'self' 'nonce-${nonce}'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // 'self' covers ws: and wss: to this origin too (CSP level 3).
    "connect-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}
