"use client";
// A modal on the native <dialog>: the browser traps focus, closes on Escape and keeps it accessible.
// Focus goes to the dialog's first field (or the element marked `autoFocus`), and back to what had it
// when the dialog closes.
import { useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { Button, Spinner, type ButtonVariant } from "./button";
import { XIcon } from "./icons";

export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  width = "max-w-lg",
  testId,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  width?: string;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Opener>({ element: null, around: null });
  // The content mounts once the dialog is open: in a closed <dialog> nothing can take focus, so an
  // `autoFocus` field mounted with it would lose to showModal(), which focuses the Close button.
  const [shown, setShown] = useState(false);

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = openerOf(document.activeElement);
      dialog.showModal();
      setShown(true);
    }
    if (!open && dialog.open) {
      dialog.close();
      setShown(false);
      restoreFocus(opener.current);
    }
  }, [open]);

  // Still open when unmounted (its page went away): give focus back all the same.
  useLayoutEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) {
        dialog.close();
        restoreFocus(opener.current);
      }
    };
  }, []);

  // No `autoFocus` in the content took focus: its first field does (or, with none, its first control).
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!shown || !dialog) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== dialog && dialog.contains(active) && active.dataset.dialogClose === undefined) return;
    initialFocus(dialog)?.focus();
  }, [shown]);

  return (
    <dialog
      ref={ref}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      // The browser may close it by itself (Escape pressed again while a cancel is refused).
      onClose={() => {
        if (open && !ref.current?.open) onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose(); // a click on the backdrop
      }}
      className={`m-auto w-[calc(100%-2rem)] ${width} rounded-xl bg-white p-0 text-zinc-900 shadow-2xl ring-1 ring-zinc-900/10 backdrop:bg-zinc-950/40 backdrop:backdrop-blur-[1px] open:animate-pop`}
    >
      {open && shown && (
        <div className="flex max-h-[85vh] flex-col">
          <div className="flex items-start justify-between gap-4 border-b border-zinc-100 px-5 pt-4 pb-3">
            <div>
              <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
              {description && <p className="mt-0.5 text-sm text-zinc-500">{description}</p>}
            </div>
            <button
              type="button"
              onClick={onClose}
              className="-mr-1 rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-700"
              aria-label="Close"
              data-dialog-close
            >
              <XIcon size={18} />
            </button>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4" data-dialog-body>
            {children}
          </div>
          {footer && (
            <div className="flex justify-end gap-2 border-t border-zinc-100 bg-zinc-50/60 px-5 py-3" data-dialog-footer>
              {footer}
            </div>
          )}
        </div>
      )}
    </dialog>
  );
}

const FIELDS = "input:not([type=hidden]):not([disabled]), textarea:not([disabled]), select:not([disabled]), [contenteditable=true]";
const CONTROLS = `a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"]), ${FIELDS}`;

/** Where focus starts in a dialog: its body's first field, else its body's first control, else the footer's first (Cancel). */
function initialFocus(dialog: HTMLDialogElement): HTMLElement | null {
  const usable = (el: Element): el is HTMLElement =>
    el instanceof HTMLElement && el.getClientRects().length > 0 && !(el instanceof HTMLInputElement && el.type === "radio" && !el.checked);
  const first = (root: Element | null, selector: string) => (root ? (Array.from(root.querySelectorAll(selector)).find(usable) ?? null) : null);
  const body = dialog.querySelector("[data-dialog-body]");
  const footer = dialog.querySelector("[data-dialog-footer]");
  return first(body, FIELDS) ?? first(body, CONTROLS) ?? first(footer, CONTROLS);
}

/** What had focus when a dialog opened, and its nearest focusable ancestor (a message, for its Delete button). */
interface Opener {
  element: HTMLElement | null;
  around: HTMLElement | null;
}

function openerOf(el: Element | null): Opener {
  if (!(el instanceof HTMLElement) || el === document.body) return { element: null, around: null };
  return { element: el, around: el.parentElement?.closest<HTMLElement>("[tabindex]") ?? null };
}

/** Focus back to the opener; if it is gone (the action removed its button), to what was around it. */
function restoreFocus({ element, around }: Opener) {
  if (element?.isConnected) element.focus();
  else if (around?.isConnected) around.focus();
}

export interface DialogAction {
  label: ReactNode;
  testId: string;
  /** A plain button; without it, give `form`: the button submits that form, so Enter in a field does too. */
  onConfirm?: () => void;
  form?: string;
  variant?: ButtonVariant;
  /** Shown before the label, replaced by a spinner while `busy`. */
  icon?: ReactNode;
  busy?: boolean;
  autoFocus?: boolean;
}

/**
 * A dialog's footer: Cancel and the button that does the thing. Once `done` (a result is on screen,
 * such as a key shown once), a single Done that closes.
 */
export function DialogActions({
  onCancel,
  done = false,
  doneTestId,
  label,
  testId,
  onConfirm,
  form,
  variant = "primary",
  icon,
  busy = false,
  autoFocus,
}: DialogAction & { onCancel: () => void; done?: boolean; doneTestId?: string }) {
  if (done) {
    return (
      <Button onClick={onCancel} data-testid={doneTestId}>
        Done
      </Button>
    );
  }
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button variant={variant} type={form ? "submit" : "button"} form={form} disabled={busy} onClick={onConfirm} autoFocus={autoFocus} data-testid={testId}>
        {busy ? <Spinner /> : icon} {label}
      </Button>
    </>
  );
}
