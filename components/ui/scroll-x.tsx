"use client";
// A box that scrolls sideways when its content is wider than the screen (a table on a phone), and says
// so: a shade on each edge with more to see, and a line under it that points the way.
import { useEffect, useRef, useState, type ReactNode } from "react";

export function ScrollX({ children, className = "", label, testId }: { children: ReactNode; className?: string; label: string; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const left = el.scrollLeft > 1;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore((prev) => (prev.left === left && prev.right === right ? prev : { left, right }));
    };
    measure();
    el.addEventListener("scroll", measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => {
      el.removeEventListener("scroll", measure);
      observer.disconnect();
    };
  }, []);
  const scrolls = more.left || more.right;
  return (
    <div className={`relative ${className}`} data-testid={testId} data-scrolls={scrolls ? "true" : "false"}>
      {/* Focusable when it scrolls, so a keyboard can scroll it too. */}
      <div
        ref={ref}
        className="overflow-x-auto"
        tabIndex={scrolls ? 0 : undefined}
        role={scrolls ? "region" : undefined}
        aria-label={scrolls ? label : undefined}
      >
        {children}
      </div>
      {more.left && (
        <div className="pointer-events-none absolute top-0 bottom-0 left-0 w-4 bg-gradient-to-r from-zinc-900/10 to-transparent" aria-hidden="true" />
      )}
      {more.right && (
        <div className="pointer-events-none absolute top-0 right-0 bottom-0 w-4 bg-gradient-to-l from-zinc-900/10 to-transparent" aria-hidden="true" />
      )}
      {scrolls && (
        <p className="border-t border-zinc-100 bg-zinc-50 px-3 py-1 text-right text-[11px] text-zinc-600" aria-hidden="true" data-testid="scroll-cue">
          {more.right ? "Scroll sideways for more →" : "← Scroll back"}
        </p>
      )}
    </div>
  );
}
