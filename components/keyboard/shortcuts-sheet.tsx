"use client";
// The sheet `?` opens: every shortcut, with this platform's key names (⌘ and ⌥ on a Mac).
import { Fragment } from "react";
import { Dialog } from "@/components/ui/dialog";
import { keyLabel, useIsMac } from "./keys";
import { SHORTCUT_GROUPS } from "./shortcuts";

export function ShortcutsSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts" width="max-w-2xl" testId="shortcuts-sheet">
      <Sheet />
    </Dialog>
  );
}

function Sheet() {
  const mac = useIsMac();
  const name = (key: string) => (key === "Alt" || key === "Mod" || key === "Shift" ? keyLabel(key, mac) : key);
  return (
    <div className="grid gap-x-8 gap-y-5 sm:grid-cols-2">
      {SHORTCUT_GROUPS.map((group) => (
        <section key={group.title} aria-labelledby={`shortcuts-${group.title}`}>
          <h3 id={`shortcuts-${group.title}`} className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
            {group.title}
          </h3>
          <dl className="divide-y divide-zinc-100">
            {group.shortcuts.map((s) => (
              <div key={s.label} className="flex items-center justify-between gap-3 py-1.5 text-sm">
                <dt className="text-zinc-700">{s.label}</dt>
                <dd className="flex shrink-0 items-center gap-0.5 text-xs text-zinc-500">
                  {s.keys.map((key) =>
                    typeof key === "string" ? (
                      <Key key={key}>{name(key)}</Key>
                    ) : (
                      key.map((alternative, i) => (
                        <Fragment key={alternative}>
                          {i > 0 && <span className="px-0.5">/</span>}
                          <Key>{name(alternative)}</Key>
                        </Fragment>
                      ))
                    ),
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}

function Key({ children }: { children: string }) {
  return (
    <kbd className="inline-flex h-5 min-w-5 items-center justify-center rounded border border-zinc-200 bg-zinc-50 px-1 font-sans text-[11px] font-medium text-zinc-700 shadow-[0_1px_0_var(--color-zinc-200)]">
      {children}
    </kbd>
  );
}
