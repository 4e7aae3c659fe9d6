"use client";
// Brief confirmations ("Request sent", "Key revoked"): a module-level queue any component can push to
// and one <Toaster /> that shows it. Polite live region; errors are assertive.
import { useSyncExternalStore } from "react";
import { AlertIcon, CheckIcon, XIcon } from "./icons";

interface Toast {
  id: number;
  text: string;
  tone: "success" | "error";
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function dismiss(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export function toast(text: string, tone: Toast["tone"] = "success") {
  const id = nextId++;
  toasts = [...toasts.slice(-3), { id, text, tone }];
  emit();
  setTimeout(() => dismiss(id), tone === "error" ? 6000 : 3500);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const snapshot = () => toasts;
const empty: Toast[] = [];

export function Toaster() {
  const list = useSyncExternalStore(subscribe, snapshot, () => empty);
  return (
    <div className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-[min(22rem,calc(100vw-2rem))] flex-col gap-2" aria-live="polite">
      {list.map((t) => (
        <div
          key={t.id}
          role={t.tone === "error" ? "alert" : "status"}
          data-testid="toast"
          className={`animate-pop pointer-events-auto flex items-start gap-2.5 rounded-lg px-3.5 py-2.5 text-sm shadow-lg ring-1 ${
            t.tone === "error" ? "bg-rose-600 text-white ring-rose-700" : "bg-zinc-900 text-zinc-50 ring-zinc-800"
          }`}
        >
          {t.tone === "error" ? <AlertIcon size={17} className="mt-px shrink-0" /> : <CheckIcon size={17} className="mt-px shrink-0 text-emerald-400" />}
          <span className="flex-1">{t.text}</span>
          <button type="button" onClick={() => dismiss(t.id)} aria-label="Dismiss" className="-mr-1 rounded p-0.5 opacity-70 hover:opacity-100">
            <XIcon size={15} />
          </button>
        </div>
      ))}
    </div>
  );
}
