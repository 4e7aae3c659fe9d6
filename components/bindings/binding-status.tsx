"use client";
// A binding's status as a small dot (pulsing while a turn runs) and in words.
import type { BindingStatus } from "@switchboard/sdk/bindings";
import { CheckIcon, CopyIcon } from "@/components/ui/icons";
import { useCopy } from "@/components/ui/secret-box";
import { STATUS } from "./format";

export function StatusDot({ status, warn = false }: { status: BindingStatus; warn?: boolean }) {
  const colour = warn && status !== "active" ? "bg-amber-500" : STATUS[status].dot;
  return (
    <span className="relative flex h-2 w-2 shrink-0" aria-hidden="true" data-testid="binding-dot" data-status={status}>
      {status === "active" && <span className={`absolute inline-flex h-full w-full rounded-full opacity-60 motion-safe:animate-ping ${colour}`} />}
      <span className={`relative inline-flex h-2 w-2 rounded-full ${colour}`} />
    </span>
  );
}

/** "Working", "Idle", "Awaiting input", "Stale · last turn did not finish", "Closed". */
export function StatusText({ status, long = false }: { status: BindingStatus; long?: boolean }) {
  const s = STATUS[status];
  return (
    <span className={`inline-flex items-center gap-1.5 font-medium ${s.text}`} data-testid="binding-status" data-status={status}>
      <StatusDot status={status} />
      {s.label}
      {long && status === "stale" && <span className="font-normal text-zinc-500">· {s.hint.toLowerCase()}</span>}
    </span>
  );
}

/** A quiet icon button that copies a session id. */
export function CopyIdButton({ value, label = "Copy session id" }: { value: string; label?: string }) {
  const [copied, copy] = useCopy();
  return (
    <button
      type="button"
      onClick={() => void copy(value)}
      aria-label={copied ? "Copied" : label}
      title={copied ? "Copied" : label}
      data-testid="copy-session-id"
      className="inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-zinc-500 hover:bg-zinc-100 hover:text-zinc-700"
    >
      {copied ? <CheckIcon size={13} className="text-emerald-600" /> : <CopyIcon size={13} />}
    </button>
  );
}
