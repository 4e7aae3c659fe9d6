"use client";
// The files in the composer before they are sent: name, size, upload progress, or why it was refused;
// each removable.
import { formatBytes } from "@switchboard/sdk/files";
import { AlertIcon, XIcon } from "@/components/ui/icons";
import { FileIcon } from "./file-icons";
import type { Attachment } from "./use-attachments";

export function PendingAttachments({ items, onRemove }: { items: Attachment[]; onRemove: (key: string) => void }) {
  if (items.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2 px-3 pt-3" aria-label="Files to send" data-testid="composer-files">
      {items.map((a) => (
        <li
          key={a.key}
          className={`relative flex max-w-64 items-center gap-2 overflow-hidden rounded-md border py-1.5 pr-1 pl-2 text-xs ${a.status === "error" ? "border-rose-300 bg-rose-50" : "border-zinc-200 bg-zinc-50"}`}
          data-testid="composer-file"
          data-status={a.status}
        >
          {a.status === "error" ? <AlertIcon size={15} className="shrink-0 text-rose-600" /> : <FileIcon size={15} className="shrink-0 text-zinc-600" />}
          <span className="min-w-0">
            <span className="block truncate font-medium text-zinc-800">{a.name}</span>
            <span className={`block truncate ${a.status === "error" ? "text-rose-700" : "text-zinc-600"}`} role={a.status === "error" ? "alert" : undefined}>
              {a.status === "error" ? a.error : a.status === "uploading" ? `Uploading… ${Math.round(a.progress * 100)}%` : formatBytes(a.size)}
            </span>
          </span>
          <button
            type="button"
            onClick={() => onRemove(a.key)}
            className="rounded p-1 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-800"
            aria-label={`Remove ${a.name}`}
          >
            <XIcon size={13} />
          </button>
          {a.status === "uploading" && (
            <span
              className="absolute bottom-0 left-0 h-0.5 bg-indigo-500 transition-[width]"
              style={{ width: `${Math.round(a.progress * 100)}%` }}
              aria-hidden="true"
            />
          )}
        </li>
      ))}
    </ul>
  );
}
