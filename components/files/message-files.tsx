"use client";
// A message's files: images as previews (their size reserved from the dimensions the server read, so
// the timeline does not jump as they load) with their dimensions under them, other files as cards;
// either opens the viewer.
import { useState } from "react";
import { fileDisplay, formatBytes, type FileView } from "@switchboard/sdk/files";
import { FileIcon } from "./file-icons";
import { FileViewer, describe } from "./file-viewer";

/** Previews fit in this box (CSS pixels). */
const PREVIEW = { width: 360, height: 240 };

export function MessageFiles({ files }: { files: FileView[] }) {
  const [open, setOpen] = useState<FileView | null>(null);
  if (files.length === 0) return null;
  return (
    <div className="mt-1.5 flex flex-wrap gap-2" data-testid="message-files">
      {files.map((file) =>
        fileDisplay(file) === "image" ? (
          <ImagePreview key={file.id} file={file} onOpen={() => setOpen(file)} />
        ) : (
          <button
            key={file.id}
            type="button"
            onClick={() => setOpen(file)}
            className="flex w-72 max-w-full items-center gap-3 rounded-lg border border-zinc-200 bg-white px-3 py-2.5 text-left hover:border-zinc-300 hover:bg-zinc-50 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
            data-testid="file-card"
            aria-label={`Open ${file.name}`}
          >
            <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-md bg-indigo-50 text-indigo-700">
              <FileIcon size={20} />
            </span>
            <span className="min-w-0">
              <span className="block truncate text-sm font-medium text-zinc-900" data-testid="file-name">
                {file.name}
              </span>
              <span className="block truncate text-xs text-zinc-600">{describe(file)}</span>
            </span>
          </button>
        ),
      )}
      {open && <FileViewer file={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

function ImagePreview({ file, onOpen }: { file: FileView; onOpen: () => void }) {
  const [broken, setBroken] = useState(false);
  const scale = file.width && file.height ? Math.min(1, PREVIEW.width / file.width, PREVIEW.height / file.height) : 1;
  const width = file.width ? Math.max(1, Math.round(file.width * scale)) : undefined;
  const height = file.height ? Math.max(1, Math.round(file.height * scale)) : undefined;
  return (
    <figure className="max-w-full">
      <button
        type="button"
        onClick={onOpen}
        className="block overflow-hidden rounded-lg border border-zinc-200 bg-zinc-50 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
        aria-label={`Open ${file.name}`}
        data-testid="image-preview"
      >
        {broken ? (
          <span
            className="flex items-center justify-center px-4 text-xs text-zinc-600"
            style={{ width, height: Math.min(height ?? 80, 80) }}
            data-testid="image-broken"
          >
            The image could not be loaded
          </span>
        ) : (
          <img
            src={file.url}
            alt={file.name}
            width={width}
            height={height}
            loading="lazy"
            onError={() => setBroken(true)}
            className="block h-auto max-w-full"
            style={{ maxHeight: PREVIEW.height }}
          />
        )}
      </button>
      <figcaption className="mt-0.5 truncate text-xs text-zinc-600" data-testid="image-caption">
        {file.name} · {file.width && file.height ? `${file.width} × ${file.height} · ` : ""}
        {formatBytes(file.size)}
      </figcaption>
    </figure>
  );
}
