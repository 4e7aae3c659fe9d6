"use client";
// A modal on the native <dialog>: the browser traps focus, closes on Escape and keeps it accessible.
import { useEffect, useRef, type ReactNode } from "react";
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

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose(); // a click on the backdrop
      }}
      className={`m-auto w-[calc(100%-2rem)] ${width} rounded-xl bg-white p-0 text-zinc-900 shadow-2xl ring-1 ring-zinc-900/10 backdrop:bg-zinc-950/40 backdrop:backdrop-blur-[1px] open:animate-pop`}
    >
      {open && (
        <div className="flex max-h-[85vh] flex-col">
          <div className="flex items-start justify-between gap-4 border-b border-zinc-100 px-5 pt-4 pb-3">
            <div>
              <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
              {description && <p className="mt-0.5 text-sm text-zinc-500">{description}</p>}
            </div>
            <button type="button" onClick={onClose} className="-mr-1 rounded-md p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700" aria-label="Close">
              <XIcon size={18} />
            </button>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
          {footer && <div className="flex justify-end gap-2 border-t border-zinc-100 bg-zinc-50/60 px-5 py-3">{footer}</div>}
        </div>
      )}
    </dialog>
  );
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
