"use client";
// Rotating (every active key revoked, one new key shown once) and revoking a single key.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AgentView, ApiKeyView } from "@switchboard/sdk/contract";
import { useTRPC } from "@/components/providers/trpc";
import { ConfirmBody, ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { KeyIcon } from "@/components/ui/icons";
import { toast } from "@/components/ui/toast";
import { KeyReveal } from "./key-reveal";

export function RotateKeyDialog({ agent, onClose }: { agent: AgentView | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rotate = useMutation(
    trpc.agents.rotateKey.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries(trpc.agents.pathFilter()),
    }),
  );
  const close = () => {
    rotate.reset();
    onClose();
  };
  const active = agent?.keys.filter((k) => !k.revokedAt).length ?? 0;
  return (
    <Dialog
      open={agent !== null}
      onClose={close}
      title={rotate.data ? `New key for @${rotate.data.agent.handle}` : `Rotate @${agent?.handle ?? ""}'s key?`}
      description={rotate.data ? "The old keys no longer work." : undefined}
      width={rotate.data ? "max-w-xl" : "max-w-md"}
      testId="rotate-dialog"
      footer={
        <DialogActions
          onCancel={close}
          done={rotate.data !== undefined}
          doneTestId="rotate-done"
          label="Rotate key"
          icon={<KeyIcon size={15} />}
          busy={rotate.isPending}
          onConfirm={() => agent && rotate.mutate({ agentId: agent.id })}
          testId="confirm-rotate"
        />
      }
    >
      {agent &&
        (rotate.data ? (
          <KeyReveal apiKey={rotate.data.apiKey} handle={rotate.data.agent.handle} />
        ) : (
          <ConfirmBody error={rotate.error}>
            <p>
              {active === 0
                ? "It has no active key. A new key is issued and shown once."
                : `Its ${active === 1 ? "active key is" : `${active} active keys are`} revoked now and any running process using ${active === 1 ? "it" : "them"} is disconnected. A new key is issued and shown once.`}
            </p>
            <p>Restart the agent with the new key.</p>
          </ConfirmBody>
        ))}
    </Dialog>
  );
}

export function RevokeKeyDialog({ target, onClose }: { target: { agent: AgentView; key: ApiKeyView } | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.agents.revokeKey.mutationOptions({
      onSuccess: (a) => {
        void queryClient.invalidateQueries(trpc.agents.pathFilter());
        toast(`Key revoked; @${a.handle} was disconnected if it used it`);
        close();
      },
    }),
  );
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={target !== null}
      onClose={close}
      title="Revoke this key?"
      testId="revoke-key-dialog"
      error={revoke.error}
      confirm={{
        label: "Revoke key",
        variant: "danger",
        busy: revoke.isPending,
        onConfirm: () => target && revoke.mutate({ agentId: target.agent.id, keyId: target.key.id }),
        testId: "confirm-revoke-key",
      }}
    >
      {target && (
        <p>
          <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[13px] text-zinc-800">{target.key.prefix}…</code> of @{target.agent.handle} stops
          working at once, and any process using it is disconnected. This cannot be undone.
        </p>
      )}
    </ConfirmDialog>
  );
}
