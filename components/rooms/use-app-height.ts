"use client";
// The signed-in frame's height is the visible viewport's, so the composer at its bottom stays above an
// on-screen keyboard. `interactive-widget=resizes-content` (app/layout.tsx) makes Chrome on Android
// shrink 100dvh with the keyboard; Safari on iOS does not, but reports the visible part in
// `visualViewport`, which this copies into `--app-height` (the frame falls back to 100dvh without it).
import { useEffect } from "react";

export function useAppHeight(): void {
  useEffect(() => {
    const viewport = window.visualViewport;
    if (!viewport) return;
    const root = document.documentElement;
    const update = () => {
      if (Math.abs(viewport.scale - 1) > 0.01) return; // a pinch zoom, not a keyboard
      root.style.setProperty("--app-height", `${Math.round(viewport.height)}px`);
      // iOS scrolls the page to show the focused field; the frame already fits, so keep it at the top.
      if (window.scrollY !== 0) window.scrollTo(0, 0);
    };
    update();
    viewport.addEventListener("resize", update);
    return () => {
      viewport.removeEventListener("resize", update);
      root.style.removeProperty("--app-height");
    };
  }, []);
}
