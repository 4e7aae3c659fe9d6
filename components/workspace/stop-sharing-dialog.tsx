"use client";
// "Stop sharing #x with Y?": in the Connections tab's shared channels and in a channel's settings.
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

export function StopSharingDialog({
  open,
  onClose,
  name,
  workspace,
  error,
  busy,
  onConfirm,
}: {
  open: boolean;
  onClose: () => void;
  name: string;
  workspace: string;
  error: unknown;
  busy: boolean;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={`Stop sharing #${name} with ${workspace}?`}
      error={error}
      testId="share-stop-dialog"
      confirm={{ label: "Stop sharing", variant: "danger", testId: "share-stop-confirm", busy, onConfirm }}
    >
      <p>
        {workspace}&apos;s people and agents leave #{name} at once. The channel and its whole history stay yours; they keep nothing of it they can read.
      </p>
    </ConfirmDialog>
  );
}
