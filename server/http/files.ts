// Files over plain HTTP, for the browser and any agent: the body is the file's bytes, streamed.
//
//   POST /api/files?roomId=<id>&name=<file name>   uploads into the room: { ok, data: FileView }
//   GET  /api/files/<id>[/<name>]                  the file, to whoever may read it (HEAD too)
//
// Signed in by the session cookie (from the app's own pages) or `Authorization: Bearer` (an agent's
// key, a person's access token). What is served is never active content on the app's origin: only
// images, PDF and plain text are shown in place (text as text/plain); everything else, markup and
// script above all, is a download, as text/plain or application/octet-stream. Every answer carries
// nosniff and a sandboxing Content-Security-Policy, so even a file opened directly runs nothing.
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream";
import { FILES_PATH, type FileView } from "@switchboard/sdk/files";
import { z } from "zod";
import { authenticateAuthorization } from "../auth/bearer";
import { accountIdFromCookies } from "../auth/session";
import { env } from "../env";
import { AppError, ERROR_CODES, toErrorShape } from "../errors";
import { assertMayWrite, type Actor } from "../policies";
import { openFile, uploadFile, workspaceOfFile } from "../services/files/files";
import { workspaceOfRoom } from "../services/rooms/references";
import { countRequest, EVENT_LIMITS } from "../services/governance/request-limits";
import { actorForAccount } from "../services/identity/accounts";
import { stampedAddress } from "./client-address";

export { FILES_PATH };

const uploadQuery = z.strictObject({ roomId: z.string().min(1).max(64), name: z.string().min(1).max(1000) });

/** Types shown in place; the rest are downloads. */
const INLINE = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "text/plain", "text/markdown", "text/csv"]);

/** What a file is served as: text of any kind as text/plain, never markup or script. */
export function servedAs(file: Pick<FileView, "contentType">): { type: string; inline: boolean } {
  const text = file.contentType.startsWith("text/") || file.contentType === "image/svg+xml" || file.contentType === "application/xml";
  return { type: text ? "text/plain; charset=utf-8" : file.contentType, inline: INLINE.has(file.contentType) };
}

/** Answers a request under FILES_PATH. */
export async function serveFiles(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "POST" && url.pathname === FILES_PATH) return await upload(req, res, url);
    const match = /^\/api\/files\/([A-Za-z0-9_-]{1,64})(?:\/[^/]*)?$/.exec(url.pathname);
    if ((req.method === "GET" || req.method === "HEAD") && match) return await download(req, res, match[1]);
    throw new AppError("NOT_FOUND", `POST ${FILES_PATH}?roomId=&name= with the file as the body, or GET ${FILES_PATH}/<id>`);
  } catch (error) {
    const shape = toErrorShape(error);
    if (shape.retryAfterMs !== undefined) res.setHeader("Retry-After", String(Math.ceil(shape.retryAfterMs / 1000)));
    res.statusCode = ERROR_CODES[shape.code].status;
    res.setHeader("Content-Type", "application/json");
    res.setHeader("Cache-Control", "no-store");
    res.removeHeader("Content-Disposition");
    // Refused before the whole body arrived (too large, not allowed): closed once the answer is out,
    // rather than kept alive with the rest of the body unread.
    if (!req.complete) res.setHeader("Connection", "close");
    res.end(JSON.stringify({ ok: false, error: shape }));
  }
}

async function upload(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const query = uploadQuery.safeParse(Object.fromEntries(url.searchParams));
  const actor = await actorOf(req, true, query.success ? () => workspaceOfRoom(query.data.roomId) : null);
  assertMayWrite(actor);
  await countRequest(EVENT_LIMITS["file:upload"], actor, "file:upload");
  if (!query.success) throw new AppError("INVALID_PAYLOAD", `Upload to ${FILES_PATH}?roomId=<room id>&name=<file name>, the file as the body`);
  const length = req.headers["content-length"] === undefined ? null : Number(req.headers["content-length"]);
  const file = await uploadFile(actor, query.data, req, Number.isFinite(length) ? length : null);
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Cache-Control", "no-store");
  res.end(JSON.stringify({ ok: true, data: file }));
}

async function download(req: IncomingMessage, res: ServerResponse, fileId: string): Promise<void> {
  const actor = await actorOf(req, false, () => workspaceOfFile(fileId));
  await countRequest(EVENT_LIMITS["file:get"], actor, "file:get");
  const { file, body } = await openFile(actor, fileId);
  const served = servedAs(file);
  res.setHeader("Content-Type", served.type);
  res.setHeader("Content-Length", file.size);
  res.setHeader("Content-Disposition", contentDisposition(served.inline ? "inline" : "attachment", file.name));
  res.setHeader("X-Content-Type-Options", "nosniff");
  // Nothing in a file runs, whoever opens it; the app's own pages may frame it (the PDF viewer).
  res.setHeader("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'");
  res.setHeader("X-Frame-Options", "SAMEORIGIN");
  res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
  // Readable until its message is deleted: asked again each time, answered 304 while unchanged.
  res.setHeader("Cache-Control", "private, no-cache");
  const etag = `"${file.id}"`;
  res.setHeader("ETag", etag);
  if (req.method === "HEAD" || req.headers["if-none-match"] === etag) {
    body.destroy();
    if (req.method !== "HEAD") res.statusCode = 304;
    return void res.end();
  }
  // Either side failing or going away ends both: a file closed, never left open.
  pipeline(body, res, () => {});
}

/** `inline` or `attachment`, with the name as ASCII (what old clients read) and as UTF-8 (RFC 6266). */
function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * Who asks: a bearer credential, else the session cookie. A cookie uploads only from the app's own
 * pages (the `Origin` a browser sends), so no other site can post files as its visitor. A person in
 * several workspaces acts as their participant in the workspace the file (or the room) belongs to.
 */
async function actorOf(req: IncomingMessage, writes: boolean, workspaceOf: (() => Promise<string | null>) | null): Promise<Actor> {
  if (req.headers.authorization !== undefined) return (await authenticateAuthorization(req.headers.authorization, stampedAddress(req))).actor;
  const accountId = await accountIdFromCookies(req.headers.cookie, env.AUTH_SECRET);
  // Not a member there (or no such file or room): the workspace the browser showed last (a shared
  // room's other side), else the person's first, whose answer is then "not found" if it may not read it.
  const workspaceId = accountId && workspaceOf ? await workspaceOf() : null;
  const last = lastWorkspace(req.headers.cookie);
  const actor = accountId
    ? (workspaceId && (await actorForAccount(accountId, workspaceId))) ||
      (last && (await actorForAccount(accountId, last))) ||
      (await actorForAccount(accountId))
    : null;
  if (!actor) throw new AppError("UNAUTHENTICATED", "Sign in first, or send Authorization: Bearer <an agent's API key or a person's access token>");
  if (writes && req.headers.origin !== undefined && !ownOrigin(req.headers.origin, req.headers.host)) {
    throw new AppError("FORBIDDEN", "Files are uploaded with a session cookie only from the app's own pages");
  }
  return actor;
}

/** The browser's last workspace, the cookie its pages keep (components/nav/workspace-paths.ts: `sb-workspace`). */
function lastWorkspace(cookie: string | undefined): string | null {
  const value = cookie?.match(/(?:^|;\s*)sb-workspace=([^;]+)/)?.[1];
  try {
    return value ? decodeURIComponent(value) : null;
  } catch {
    return null; // not percent-encoded as the pages write it: no workspace named
  }
}

function ownOrigin(origin: string, host: string | undefined): boolean {
  try {
    return env.AUTH_URL ? origin === new URL(env.AUTH_URL).origin : new URL(origin).host === host;
  } catch {
    return false;
  }
}
