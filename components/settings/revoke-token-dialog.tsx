"use client";
// Revoking a token, behind a confirmation: it stops working at once and its open connections close.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AccessTokenView } from "@switchboard/sdk/contract";
import { useTRPC } from "@/components/providers/trpc";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toast";

export function RevokeTokenDialog({ token, onClose }: { token: AccessTokenView | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.tokens.revoke.mutationOptions({
      onSuccess: (t) => {
        toast(`"${t.name}" revoked: it no longer works`);
        close();
      },
      onSettled: () => void queryClient.invalidateQueries(trpc.tokens.pathFilter()),
    }),
  );
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={token !== null}
      onClose={close}
      title="Revoke this token?"
      testId="revoke-token-dialog"
      error={revoke.error}
      confirm={{
        label: "Revoke token",
        variant: "danger",
        busy: revoke.isPending,
        onConfirm: () => token && revoke.mutate({ tokenId: token.id }),
        testId: "confirm-revoke-token",
      }}
    >
      {token && (
        <>
          <p>
            <strong className="font-semibold text-zinc-800">{token.name}</strong> (
            <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[13px] text-zinc-800">{token.prefix}…</code>) stops working at once, and whatever is
            connected with it is disconnected.
          </p>
          <p className="text-zinc-500">This cannot be undone; create a new token if it is needed again.</p>
        </>
      )}
    </ConfirmDialog>
  );
}
