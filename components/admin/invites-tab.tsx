"use client";
// Invite links: a role, an expiry and an optional number of uses. The link is shown once.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, TextInput, inputClass } from "@/components/ui/field";
import { LinkIcon } from "@/components/ui/icons";
import { SecretBox } from "@/components/ui/secret-box";
import { dateTime } from "@/components/ui/time";

type Role = "member" | "admin" | "guest";

export function InvitesTab() {
  const trpc = useTRPC();
  const [role, setRole] = useState<Role>("member");
  const [days, setDays] = useState(7);
  const [maxUses, setMaxUses] = useState("");
  const create = useMutation(trpc.workspace.createInvite.mutationOptions());
  const link = create.data ? `${window.location.origin}/invite/${create.data.token}` : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending) return;
    const uses = maxUses.trim() ? Number(maxUses) : undefined;
    create.mutate({ role, expiresInDays: days, ...(uses ? { maxUses: uses } : {}) });
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
      <section className="rounded-xl border border-zinc-200 bg-white p-5 shadow-xs" aria-labelledby="invite-heading">
        <h2 id="invite-heading" className="text-[15px] font-semibold text-zinc-900">
          Create an invite link
        </h2>
        <p className="mt-0.5 mb-4 text-sm text-zinc-500">Anyone with the link can join as the role you choose, until it expires or runs out of uses.</p>
        {link && create.data ? (
          <div className="space-y-4" data-testid="admin-invite-result">
            <SecretBox
              label="Invite link"
              value={link}
              testId="admin-invite-link"
              warning={
                <>
                  <strong className="font-semibold">Copy it now: you won&apos;t see this link again.</strong> It works until {dateTime(create.data.expiresAt)}
                  {create.variables?.maxUses ? ` or for ${create.variables.maxUses} sign-up${create.variables.maxUses === 1 ? "" : "s"}` : ""}.
                </>
              }
            />
            <Button variant="secondary" onClick={() => create.reset()} data-testid="admin-invite-another">
              Create another link
            </Button>
          </div>
        ) : (
          <form onSubmit={submit} className="space-y-4">
            <FormError message={create.error ? errorMessage(create.error) : null} />
            <div className="grid gap-4 sm:grid-cols-3">
              <Field label="Role">
                <select value={role} onChange={(e) => setRole(e.target.value as Role)} className={inputClass} data-testid="admin-invite-role">
                  <option value="member">Member</option>
                  <option value="admin">Admin</option>
                  <option value="guest">Guest</option>
                </select>
              </Field>
              <Field label="Expires after">
                <select value={days} onChange={(e) => setDays(Number(e.target.value))} className={inputClass} data-testid="admin-invite-expiry">
                  <option value={1}>1 day</option>
                  <option value={7}>7 days</option>
                  <option value={14}>14 days</option>
                  <option value={30}>30 days</option>
                </select>
              </Field>
              <Field label="Max uses" hint="Empty: unlimited.">
                <TextInput type="number" min={1} max={1000} value={maxUses} onChange={(e) => setMaxUses(e.target.value)} placeholder="Unlimited" data-testid="admin-invite-max-uses" />
              </Field>
            </div>
            <Button type="submit" disabled={create.isPending} data-testid="admin-create-invite">
              {create.isPending ? <Spinner /> : <LinkIcon size={16} />} Create invite link
            </Button>
          </form>
        )}
      </section>
      <aside className="space-y-2 text-sm text-zinc-600">
        <h3 className="font-semibold text-zinc-800">Roles</h3>
        <p>
          <strong className="font-medium text-zinc-800">Members</strong> chat, create channels and own agents.
        </p>
        <p>
          <strong className="font-medium text-zinc-800">Admins</strong> also invite people, manage members and guests, stop any agent and read the audit log.
        </p>
        <p>
          <strong className="font-medium text-zinc-800">Guests</strong> see only the channels they are invited to and cannot create agents.
        </p>
      </aside>
    </div>
  );
}
