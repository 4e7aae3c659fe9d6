// Files shared in rooms: uploaded first (HTTP `POST /api/files?roomId=&name=` with the bytes as the body,
// or the socket's `file:upload` for small ones), then attached to a message by `fileIds` on
// `message:send`. Whoever may read the room may read its messages' files (`GET` on the file's `url`).
// The server sniffs each file's type from its bytes and never serves one as active content
// (docs/protocol.md, "Files"); the rules are in server/services/files/.
import { z } from "zod";

const id = z.string().min(1).max(64);

/** The most files one message carries. */
export const MAX_FILES_PER_MESSAGE = 10;
/** A file's name is kept to this many characters (the extension kept). */
export const FILE_NAME_MAX = 200;
/** The largest file the socket's `file:upload` takes (its base64 fits one Socket.IO packet); larger ones go over HTTP. */
export const SOCKET_UPLOAD_MAX_BYTES = 160 * 1024;
/** The platform tools' bound: upload_file takes, and read_file hands back, at most this many bytes of a file. */
export const TOOL_FILE_MAX_BYTES = 512 * 1024;
/** Where files are uploaded (POST) and served from (`<FILES_PATH>/<id>/<name>`). */
export const FILES_PATH = "/api/files";

/** A stored file as every transport presents it. */
export interface FileView {
  id: string;
  /** Sanitised: no path, no control characters. */
  name: string;
  /** Sniffed from the bytes, never taken from the uploader (application/octet-stream when unknown). */
  contentType: string;
  size: number;
  /** Images: their pixel size, read from the file's header. */
  width: number | null;
  height: number | null;
  /** Where to GET it (relative to the server), with the same credentials as the rest of the API. */
  url: string;
  createdAt: string;
}

/** `file:upload`: a small file as base64, into a room (attach it to a message with `fileIds`). */
export const uploadFileInput = z.strictObject({
  roomId: id,
  name: z.string().min(1).max(1000),
  /** The bytes as base64 (at most SOCKET_UPLOAD_MAX_BYTES once decoded). */
  contentBase64: z
    .string()
    .max(Math.ceil(SOCKET_UPLOAD_MAX_BYTES / 3) * 4 + 4)
    .regex(/^[A-Za-z0-9+/=\s]*$/, "base64"),
});
export type UploadFileInput = z.input<typeof uploadFileInput>;

export const fileIdInput = z.strictObject({ fileId: id });

/** `fileIds` on a send: the sender's own uploads to that room not yet on a message. */
export const attachedFileIds = z.array(id).max(MAX_FILES_PER_MESSAGE);

/** How a client shows a file: an image preview, or a viewer for PDF, Markdown or text, or a download. */
export type FileDisplay = "image" | "pdf" | "markdown" | "text" | "download";

/** How to show a file, from its sniffed type and, for text, its name (code and Markdown are text). */
export function fileDisplay(file: Pick<FileView, "name" | "contentType">): FileDisplay {
  if (/^image\/(png|jpeg|gif|webp)$/.test(file.contentType)) return "image";
  if (file.contentType === "application/pdf") return "pdf";
  if (file.contentType === "text/markdown") return "markdown";
  // Markup and script too, as their source: the server serves them as text/plain.
  if (file.contentType.startsWith("text/") || file.contentType === "image/svg+xml" || file.contentType === "application/xml") return "text";
  return "download";
}

/** A size as people read it: 820 B, 14.2 KB, 3.1 MB. */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(size < 10 * 1024 ? 1 : 0)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}
