"use client";
// Owners and admins make an invite link (workspace.createInvite) and copy it.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { RoleSelect, type InviteRole } from "@/components/invitations/invitation-fields";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { DaysSelect, Field, FormError, inputClass } from "@/components/ui/field";
import { CheckIcon, CopyIcon, LinkIcon } from "@/components/ui/icons";

export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Invite people" description="Anyone with the link can join this workspace." testId="invite-dialog">
      {open && <InviteBody />}
    </Dialog>
  );
}

function InviteBody() {
  const trpc = useTRPC();
  const [role, setRole] = useState<InviteRole>("member");
  const [days, setDays] = useState(7);
  const [copied, setCopied] = useState(false);
  const create = useMutation(trpc.workspace.createInvite.mutationOptions());
  const link = create.data ? `${window.location.origin}/invite/${create.data.token}` : null;

  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // Clipboard blocked (insecure origin): the field is selected for a manual copy instead.
      (document.querySelector('[data-testid="invite-link"]') as HTMLInputElement | null)?.select();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };

  return (
    <div className="space-y-4">
      <FormError message={create.error ? errorMessage(create.error) : null} />
      {!link ? (
        <>
          <div className="grid grid-cols-2 gap-3">
            <Field label="Role">
              <RoleSelect value={role} onChange={setRole} testId="invite-role" />
            </Field>
            <Field label="Expires after">
              <DaysSelect value={days} onChange={setDays} days={[1, 7, 30]} />
            </Field>
          </div>
          <Button className="w-full" onClick={() => create.mutate({ role, expiresInDays: days })} disabled={create.isPending} data-testid="create-invite">
            {create.isPending ? <Spinner /> : <LinkIcon size={16} />} Create invite link
          </Button>
        </>
      ) : (
        <>
          <Field label="Invite link" hint={`Works for ${days} day${days === 1 ? "" : "s"}. It is shown only now: copy it.`}>
            <div className="flex gap-2">
              <input readOnly value={link} className={`${inputClass} font-mono text-xs`} data-testid="invite-link" onFocus={(e) => e.currentTarget.select()} />
              <Button variant="secondary" onClick={() => void copy()} data-testid="copy-invite">
                {copied ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
                {copied ? "Copied" : "Copy"}
              </Button>
            </div>
          </Field>
          <button type="button" className="text-sm text-indigo-600 hover:underline" onClick={() => create.reset()}>
            Create another link
          </button>
        </>
      )}
    </div>
  );
}
