"use client";
// A file opened in the app: an image large, a PDF in a frame of its own URL (served inline, sandboxed),
// Markdown rendered as messages are, text and code with line numbers; anything else offers its
// download. Text is fetched with the session's cookie and shown as text, never as markup.
import { useEffect, useState } from "react";
import { fileDisplay, formatBytes, type FileView } from "@switchboard/sdk/files";
import { Dialog } from "@/components/ui/dialog";
import { DownloadIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/button";
import { Markdown } from "@/components/rooms/markdown";

/** Text past this many characters is cut in the viewer (the download has all of it). */
const SHOWN_CHARS = 500_000;

export function FileViewer({ file, onClose }: { file: FileView | null; onClose: () => void }) {
  return (
    <Dialog open={!!file} onClose={onClose} title={file?.name ?? ""} description={file ? describe(file) : undefined} width="max-w-4xl" testId="file-viewer">
      {file && <FileBody file={file} />}
      {file && (
        <a
          href={file.url}
          download={file.name}
          className="mt-4 inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-indigo-700 hover:underline"
          data-testid="file-download"
        >
          <DownloadIcon size={15} /> Download
        </a>
      )}
    </Dialog>
  );
}

/** "Markdown · 14 KB", "PNG image · 640 × 480 · 1.2 MB". */
export function describe(file: FileView): string {
  const kind = file.contentType.split(";")[0];
  const label = KIND_LABELS[kind] ?? kind;
  const size = file.width && file.height ? `${file.width} × ${file.height} · ` : "";
  return `${label} · ${size}${formatBytes(file.size)}`;
}

const KIND_LABELS: Record<string, string> = {
  "image/png": "PNG image",
  "image/jpeg": "JPEG image",
  "image/gif": "GIF image",
  "image/webp": "WebP image",
  "application/pdf": "PDF",
  "text/markdown": "Markdown",
  "text/plain": "Text",
  "text/csv": "CSV",
  "text/html": "HTML (shown as text)",
  "image/svg+xml": "SVG (shown as text)",
  "text/javascript": "JavaScript",
  "application/octet-stream": "File",
};

function FileBody({ file }: { file: FileView }) {
  const display = fileDisplay(file);
  if (display === "image")
    return (
      <img
        src={file.url}
        alt={file.name}
        width={file.width ?? undefined}
        height={file.height ?? undefined}
        className="mx-auto h-auto max-h-[70vh] w-auto max-w-full rounded"
      />
    );
  if (display === "pdf") return <iframe src={file.url} title={file.name} className="h-[70vh] w-full rounded border border-zinc-200" data-testid="file-pdf" />;
  if (display === "markdown" || display === "text") return <TextBody file={file} markdown={display === "markdown"} />;
  return <p className="text-sm text-zinc-600">This kind of file is not shown here. Download it to open it.</p>;
}

function TextBody({ file, markdown }: { file: FileView; markdown: boolean }) {
  const [state, setState] = useState<{ status: "loading" } | { status: "error"; message: string } | { status: "ready"; text: string }>({ status: "loading" });
  useEffect(() => {
    const abort = new AbortController();
    fetch(file.url, { signal: abort.signal })
      .then(async (res) => {
        if (!res.ok) {
          const answer = (await res.json().catch(() => null)) as { error?: { message: string } } | null;
          throw new Error(answer?.error?.message ?? `HTTP ${res.status}`);
        }
        return res.text();
      })
      .then((text) => setState({ status: "ready", text }))
      .catch((error: Error) => !abort.signal.aborted && setState({ status: "error", message: error.message }));
    return () => abort.abort();
  }, [file.url]);

  if (state.status === "loading")
    return (
      <div className="flex items-center gap-2 text-sm text-zinc-500" data-testid="file-loading">
        <Spinner /> Loading…
      </div>
    );
  if (state.status === "error")
    return (
      <p className="text-sm text-rose-700" role="alert" data-testid="file-error">
        Could not open the file: {state.message}
      </p>
    );
  if (state.text.trim() === "")
    return (
      <p className="text-sm text-zinc-500" data-testid="file-empty">
        This file is empty.
      </p>
    );
  const text = state.text.length > SHOWN_CHARS ? state.text.slice(0, SHOWN_CHARS) : state.text;
  const cut = text.length < state.text.length && (
    <p className="mt-2 text-xs text-zinc-500">Shown up to {SHOWN_CHARS.toLocaleString()} characters: download it for the rest.</p>
  );
  if (markdown)
    return (
      <div data-testid="file-markdown">
        <Markdown body={text} />
        {cut}
      </div>
    );
  const lines = text.replace(/\n$/, "").split("\n");
  return (
    <div data-testid="file-text">
      <pre className="overflow-x-auto rounded-md bg-zinc-50 py-2 text-[13px] leading-5 text-zinc-800 ring-1 ring-zinc-200">
        <code className="grid grid-cols-[auto_1fr]">
          {lines.map((line, i) => (
            <span key={i} className="contents">
              <span className="px-3 text-right text-zinc-500 select-none" aria-hidden="true">
                {i + 1}
              </span>
              <span className="pr-4 whitespace-pre">{line || " "}</span>
            </span>
          ))}
        </code>
      </pre>
      {cut}
    </div>
  );
}
