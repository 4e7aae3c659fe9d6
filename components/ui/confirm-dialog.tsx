"use client";
// "Are you sure?": what the action does, why the last attempt failed, Cancel and the button that does it.
import type { ReactNode } from "react";
import { Dialog, DialogActions, type DialogAction } from "./dialog";
import { errorMessage } from "./errors";
import { FormError } from "./field";

export function ConfirmDialog({
  open,
  onClose,
  title,
  description,
  testId,
  error,
  confirm,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  testId?: string;
  /** The last attempt's failure (a mutation's `error`), shown above the explanation. */
  error?: unknown;
  confirm: DialogAction;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      width="max-w-md"
      testId={testId}
      footer={<DialogActions onCancel={onClose} {...confirm} />}
    >
      <ConfirmBody error={error}>{children}</ConfirmBody>
    </Dialog>
  );
}

/** The explanation under a confirmation's title, with the last attempt's failure above it. */
export function ConfirmBody({ error, children }: { error?: unknown; children: ReactNode }) {
  return (
    <div className="space-y-3 text-sm text-zinc-600">
      <FormError message={error ? errorMessage(error) : null} />
      {children}
    </div>
  );
}
