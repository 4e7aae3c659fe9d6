"use client";
// Brief confirmations ("Request sent", "Key revoked") and alerts that find the person wherever they are
// (a budget warning, a suspension, a decided connection request: components/notifications/alerts.tsx):
// a module-level queue any component can push to and one <Toaster /> that shows it. Polite live region;
// errors are assertive. An alert may link to the page that says more.
import { useSyncExternalStore } from "react";
import { AlertIcon, CheckIcon, XIcon } from "./icons";
import { Link } from "@/components/nav/workspace-routing";

type Tone = "success" | "warning" | "error";
interface Toast {
  id: number;
  text: string;
  tone: Tone;
  link?: { href: string; label: string };
}

const TONES: Record<Tone, string> = {
  success: "bg-zinc-900 text-zinc-50 ring-zinc-800",
  warning: "bg-amber-50 text-amber-950 ring-amber-300",
  error: "bg-rose-600 text-white ring-rose-700",
};

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function dismiss(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export function toast(text: string, tone: Tone = "success", link?: Toast["link"]) {
  const id = nextId++;
  toasts = [...toasts.slice(-3), { id, text, tone, link }];
  emit();
  // Something to act on stays long enough to be read and followed.
  setTimeout(() => dismiss(id), link ? 10_000 : tone === "success" ? 3500 : 6000);
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
          data-tone={t.tone}
          className={`animate-pop pointer-events-auto flex items-start gap-2.5 rounded-lg px-3.5 py-2.5 text-sm shadow-lg ring-1 ${TONES[t.tone]}`}
        >
          {t.tone === "success" ? <CheckIcon size={17} className="mt-px shrink-0 text-emerald-400" /> : <AlertIcon size={17} className="mt-px shrink-0" />}
          <span className="flex-1">
            {t.text}
            {t.link && (
              <>
                {" "}
                <Link href={t.link.href} onClick={() => dismiss(t.id)} className="font-semibold whitespace-nowrap underline underline-offset-2">
                  {t.link.label}
                </Link>
              </>
            )}
          </span>
          <button type="button" onClick={() => dismiss(t.id)} aria-label="Dismiss" className="-mr-1 rounded p-0.5 opacity-70 hover:opacity-100">
            <XIcon size={15} />
          </button>
        </div>
      ))}
    </div>
  );
}
