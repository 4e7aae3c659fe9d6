"use client";
// Files an agent touched in the window: path, what it did (icons), lines added and removed, and the
// component the map files it under. Commands it ran (`run`) read as commands.
import { useState } from "react";
import type { FileOperation } from "@switchboard/sdk/work";
import { PencilIcon, TerminalIcon, TrashIcon } from "@/components/ui/icons";
import type { FileSummary } from "./types";
import { EyeIcon, FilePlusIcon } from "./work-icons";

const SHOWN = 6;
const OPERATIONS: Record<FileOperation, { label: string; icon: typeof EyeIcon; tone: string }> = {
  read: { label: "Read", icon: EyeIcon, tone: "text-zinc-500" },
  edit: { label: "Edited", icon: PencilIcon, tone: "text-indigo-500" },
  create: { label: "Created", icon: FilePlusIcon, tone: "text-emerald-600" },
  delete: { label: "Deleted", icon: TrashIcon, tone: "text-rose-500" },
  run: { label: "Ran", icon: TerminalIcon, tone: "text-zinc-500" },
};

export function FileList({ files }: { files: FileSummary[] }) {
  const [all, setAll] = useState(false);
  const shown = all ? files : files.slice(0, SHOWN);
  return (
    <div>
      <ul className="divide-y divide-zinc-100 rounded-lg ring-1 ring-zinc-200" data-testid="file-list">
        {shown.map((f) => (
          <li key={f.path} className="flex items-center gap-2 px-2.5 py-1.5 text-xs" data-testid="file" data-path={f.path}>
            <span className="flex shrink-0 gap-0.5">
              {f.operations.map((op) => {
                const { label, icon: OpIcon, tone } = OPERATIONS[op];
                return (
                  <span key={op} title={label} className={tone} data-testid="file-op" data-op={op}>
                    <OpIcon size={13} />
                    <span className="sr-only">{label}</span>
                  </span>
                );
              })}
            </span>
            <span className="min-w-0 flex-1 truncate font-mono text-zinc-800" title={f.path}>
              {f.path}
            </span>
            {(f.linesAdded > 0 || f.linesRemoved > 0) && (
              <span className="shrink-0 font-mono tabular-nums" data-testid="file-lines">
                <span className="text-emerald-700">+{f.linesAdded}</span> <span className="text-rose-700">−{f.linesRemoved}</span>
              </span>
            )}
            {f.component && (
              <span className="max-w-[8rem] shrink-0 truncate rounded bg-zinc-100 px-1.5 py-px text-[11px] text-zinc-600" title={`Component: ${f.component}`}>
                {f.component}
              </span>
            )}
          </li>
        ))}
      </ul>
      {files.length > SHOWN && (
        <button type="button" onClick={() => setAll((v) => !v)} aria-expanded={all} className="mt-1 text-xs font-medium text-zinc-500 hover:text-zinc-800">
          {all ? "Show fewer" : `Show all ${files.length} files`}
        </button>
      )}
    </div>
  );
}
