"use client";
// A small non-modal panel under the button that opened it: focus moves into it; Escape (focus goes
// back to the button), a click outside or tabbing out closes it. Escape is claimed (preventDefault)
// so the room's own Escape (closing a thread) does not also fire.
import { useEffect, useRef, type ReactNode, type RefObject } from "react";

export function Popover({
  open,
  onClose,
  anchor,
  label,
  children,
  testId,
  className = "w-80",
}: {
  open: boolean;
  onClose: () => void;
  /** The button that opens it: clicks on it are its own, and focus goes back to it. */
  anchor: RefObject<HTMLElement | null>;
  label: string;
  children: ReactNode;
  testId?: string;
  className?: string;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      close.current();
      anchor.current?.focus();
    };
    const onDown = (e: MouseEvent) => {
      const target = e.target as Node;
      if (panel.current?.contains(target) || anchor.current?.contains(target)) return;
      close.current();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onDown);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onDown);
    };
  }, [open, anchor]);

  if (!open) return null;
  return (
    <div
      ref={panel}
      role="dialog"
      aria-label={label}
      tabIndex={-1}
      onBlur={(e) => {
        // Tabbing out closes it; focus lost to nothing (a button inside that was replaced) does not.
        const to = e.relatedTarget as Node | null;
        if (to && !panel.current?.contains(to) && !anchor.current?.contains(to)) onClose();
      }}
      data-testid={testId}
      className={`animate-pop absolute top-full right-0 z-40 mt-1.5 max-h-[min(32rem,calc(100vh-6rem))] max-w-[calc(100vw-2rem)] overflow-y-auto rounded-lg bg-white text-sm text-zinc-700 shadow-xl ring-1 ring-zinc-900/10 focus:outline-none ${className}`}
    >
      {children}
    </div>
  );
}
