"use client";
// The first thing Tab reaches on every signed-in page, shown only then: past the sidebar to the room's
// composer (or, on a page without one, to the page itself).
import { usePathname } from "@/components/nav/workspace-routing";

export const MAIN_ID = "main-content";

export function SkipLink() {
  const inRoom = usePathname().startsWith("/r/");
  return (
    <a
      href={`#${MAIN_ID}`}
      onClick={(e) => {
        const target = document.querySelector<HTMLElement>("[data-composer=room]") ?? document.getElementById(MAIN_ID);
        if (!target) return;
        e.preventDefault();
        target.focus();
      }}
      data-testid="skip-link"
      className="sr-only rounded-md bg-indigo-600 text-sm font-semibold text-white shadow-lg focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:px-3 focus:py-2"
    >
      {inRoom ? "Skip to the composer" : "Skip to main content"}
    </a>
  );
}
