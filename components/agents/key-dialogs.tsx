"use client";
// Rotating (every active key revoked, one new key shown once) and revoking a single key.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AgentView, ApiKeyView } from "@/sdk/contract";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { KeyIcon } from "@/components/ui/extra-icons";
import { FormError } from "@/components/ui/field";
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
        rotate.data ? (
          <Button onClick={close} data-testid="rotate-done">
            Done
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button data-testid="confirm-rotate" disabled={rotate.isPending} onClick={() => agent && rotate.mutate({ agentId: agent.id })}>
              {rotate.isPending ? <Spinner /> : <KeyIcon size={15} />} Rotate key
            </Button>
          </>
        )
      }
    >
      {agent &&
        (rotate.data ? (
          <KeyReveal apiKey={rotate.data.apiKey} handle={rotate.data.agent.handle} />
        ) : (
          <div className="space-y-3 text-sm text-zinc-600">
            <FormError message={rotate.error ? errorMessage(rotate.error) : null} />
            <p>
              {active === 0
                ? "It has no active key. A new key is issued and shown once."
                : `Its ${active === 1 ? "active key is" : `${active} active keys are`} revoked now and any running process using ${active === 1 ? "it" : "them"} is disconnected. A new key is issued and shown once.`}
            </p>
            <p>Restart the agent with the new key.</p>
          </div>
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
    <Dialog
      open={target !== null}
      onClose={close}
      title="Revoke this key?"
      width="max-w-md"
      testId="revoke-key-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            variant="danger"
            data-testid="confirm-revoke-key"
            disabled={revoke.isPending}
            onClick={() => target && revoke.mutate({ agentId: target.agent.id, keyId: target.key.id })}
          >
            {revoke.isPending && <Spinner />} Revoke key
          </Button>
        </>
      }
    >
      {target && (
        <div className="space-y-3 text-sm text-zinc-600">
          <FormError message={revoke.error ? errorMessage(revoke.error) : null} />
          <p>
            <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[13px] text-zinc-800">{target.key.prefix}…</code> of @{target.agent.handle} stops working at once,
            and any process using it is disconnected. This cannot be undone.
          </p>
        </div>
      )}
    </Dialog>
  );
}
