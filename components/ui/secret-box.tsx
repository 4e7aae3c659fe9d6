"use client";
// Secrets shown once (API keys, onboarding tokens, invite links) and copyable code snippets.
import { useRef, useState, type ReactNode } from "react";
import { Button } from "./button";
import { AlertIcon, CheckIcon, CopyIcon } from "./icons";

/** Copies `text`; falls back to selecting `fallback` when the clipboard is blocked (insecure origin). */
export function useCopy(): [boolean, (text: string, fallback?: HTMLElement | null) => Promise<void>] {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const copy = async (text: string, fallback?: HTMLElement | null) => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      if (fallback instanceof HTMLInputElement || fallback instanceof HTMLTextAreaElement) fallback.select();
      else if (fallback) window.getSelection()?.selectAllChildren(fallback);
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), 2000);
  };
  return [copied, copy];
}

export function CopyButton({
  text,
  target,
  testId,
  label = "Copy",
  size = "md",
}: {
  text: string;
  target?: () => HTMLElement | null;
  testId?: string;
  label?: string;
  size?: "sm" | "md";
}) {
  const [copied, copy] = useCopy();
  return (
    <Button variant="secondary" size={size} onClick={() => void copy(text, target?.())} data-testid={testId} aria-label={`${label} to clipboard`}>
      {copied ? <CheckIcon size={15} /> : <CopyIcon size={15} />}
      {copied ? "Copied" : label}
    </Button>
  );
}

/** A one-time secret in a read-only field with a copy button and a "you won't see it again" warning. */
export function SecretBox({
  label,
  value,
  testId,
  warning,
  children,
}: {
  label: string;
  value: string;
  testId: string;
  warning?: ReactNode;
  children?: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="space-y-2">
      <div
        role="note"
        className="flex gap-2.5 rounded-lg bg-amber-50 px-3 py-2.5 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset"
        data-testid="secret-warning"
      >
        <AlertIcon size={18} className="mt-px shrink-0 text-amber-600" />
        <div>
          {warning ?? (
            <>
              <strong className="font-semibold">Copy it now: you won&apos;t see this again.</strong> Only a hash is stored; if you lose it, rotate the key.
            </>
          )}
        </div>
      </div>
      <span className="block text-sm font-medium text-zinc-800">{label}</span>
      <div className="flex gap-2">
        <input
          ref={input}
          readOnly
          value={value}
          aria-label={label}
          data-testid={testId}
          onFocus={(e) => e.currentTarget.select()}
          className="block w-full min-w-0 rounded-md border-0 bg-zinc-950 px-3 py-2 font-mono text-[13px] text-emerald-300 ring-1 ring-zinc-800 ring-inset focus:ring-2 focus:ring-indigo-500 focus:outline-none"
        />
        <CopyButton text={value} target={() => input.current} testId={`${testId}-copy`} />
      </div>
      {children}
    </div>
  );
}

/** A shell or code snippet with its label and a copy button above it. */
export function CodeBlock({ code, label, testId }: { code: string; label?: string; testId?: string }) {
  const pre = useRef<HTMLPreElement>(null);
  const [copied, copy] = useCopy();
  return (
    <div className="overflow-hidden rounded-lg bg-zinc-900 ring-1 ring-zinc-800">
      <div className="flex items-center justify-between gap-2 border-b border-white/10 px-3 py-1.5">
        <span className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">{label ?? "Snippet"}</span>
        <button
          type="button"
          onClick={() => void copy(code, pre.current)}
          aria-label={`Copy ${label ?? "snippet"}`}
          className="inline-flex h-6 items-center gap-1 rounded-md px-1.5 text-xs font-medium text-zinc-300 hover:bg-white/10 hover:text-white"
        >
          {copied ? <CheckIcon size={13} /> : <CopyIcon size={13} />}
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <pre ref={pre} data-testid={testId} className="scroll-dark overflow-x-auto p-3 font-mono text-[12.5px] leading-5 whitespace-pre text-zinc-100">
        {code}
      </pre>
    </div>
  );
}
