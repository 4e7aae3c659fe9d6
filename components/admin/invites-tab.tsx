"use client";
// Invite links: a role, an expiry and an optional number of uses. The link is shown once. Below, every
// invite link of the workspace and everyone's onboarding tokens, each revocable.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { OnboardingTokenList } from "@/components/agents/onboarding-tokens";
import { InvitationList } from "@/components/invitations/invitation-list";
import { MaxUsesInput, ROLE_LABEL, RoleSelect, maxUsesOf, type InviteRole } from "@/components/invitations/invitation-fields";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { DaysSelect, Field, FormError } from "@/components/ui/field";
import { LinkIcon } from "@/components/ui/icons";
import { Pill } from "@/components/ui/pill";
import { SecretBox } from "@/components/ui/secret-box";
import { dateTime } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import type { InviteLinkRow } from "./types";

export function InvitesTab() {
  return (
    <div className="space-y-8">
      <CreateInvite />
      <InviteLinks />
      <WorkspaceOnboardingTokens />
    </div>
  );
}

function CreateInvite() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [role, setRole] = useState<InviteRole>("member");
  const [days, setDays] = useState(7);
  const [maxUses, setMaxUses] = useState("");
  const create = useMutation(
    trpc.workspace.createInvite.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.workspace.invites.queryKey() }) }),
  );
  const link = create.data ? `${window.location.origin}/invite/${create.data.token}` : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending) return;
    create.mutate({ role, expiresInDays: days, ...maxUsesOf(maxUses) });
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
                <RoleSelect value={role} onChange={setRole} testId="admin-invite-role" />
              </Field>
              <Field label="Expires after">
                <DaysSelect value={days} onChange={setDays} days={[1, 7, 14, 30]} testId="admin-invite-expiry" />
              </Field>
              <Field label="Max uses" hint="Empty: unlimited.">
                <MaxUsesInput value={maxUses} onChange={setMaxUses} placeholder="Unlimited" testId="admin-invite-max-uses" />
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

function Section({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div>
        <h2 id={id} className="text-[15px] font-semibold text-zinc-900">
          {title}
        </h2>
        <p className="mt-0.5 text-sm text-zinc-500">{description}</p>
      </div>
      {children}
    </section>
  );
}

function InviteLinks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invites = useQuery(trpc.workspace.invites.queryOptions());
  const revoke = useMutation(
    trpc.workspace.revokeInvite.mutationOptions({
      onSuccess: () => toast("Invite link revoked: it no longer works"),
      onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.workspace.invites.queryKey() }),
    }),
  );
  return (
    <Section
      id="invite-links-heading"
      title="Invite links"
      description="Links created in this workspace, with how often each was used. Revoke a link that was shared too widely."
    >
      <InvitationList
        query={invites}
        revoke={revoke}
        revokeInput={(row) => ({ inviteId: row.id })}
        noun="invite link"
        name={(row) => (
          <>
            <span className="inline-flex items-center gap-2">
              <LinkIcon size={15} className="shrink-0 text-zinc-400" />
              Joins as <Pill tone={row.role === "admin" ? "indigo" : row.role === "guest" ? "amber" : "zinc"}>{ROLE_LABEL[row.role]}</Pill>
            </span>
            <JoinedThrough row={row} />
          </>
        )}
        consequence={(row) => (
          <>
            Nobody can join with this {ROLE_LABEL[row.role].toLowerCase()} link any more.{" "}
            {row.uses === 0
              ? "Nobody has joined with it yet."
              : `The ${row.uses === 1 ? "person" : `${row.uses} people`} who joined with it stay${row.uses === 1 ? "s" : ""} in the workspace.`}
          </>
        )}
        empty={{
          icon: <LinkIcon size={22} />,
          title: "No invite links yet",
          body: "Links you create above are listed here with their uses, until 30 days after they expire.",
        }}
        testId="invite-links"
      />
    </Section>
  );
}

/** Who joined with the link, by name; joins from before links were recorded are counted. */
function JoinedThrough({ row }: { row: InviteLinkRow }) {
  const earlier = row.uses - row.joined.length;
  if (row.uses === 0) return null;
  return (
    <p className="mt-1 max-w-[22rem] text-xs text-zinc-600" data-testid="invite-joined">
      Joined:{" "}
      {row.joined.map((p, i) => (
        <span key={p.id} title={`${p.displayName}, ${dateTime(p.joinedAt)}`} data-testid="invite-joined-person">
          {i > 0 && ", "}
          <span className="font-medium text-zinc-800">@{p.handle}</span>
        </span>
      ))}
      {earlier > 0 && (
        <span className="text-zinc-500">
          {row.joined.length > 0 ? " and " : ""}
          {earlier} earlier sign-up{earlier === 1 ? "" : "s"} not recorded by name
        </span>
      )}
    </p>
  );
}

function WorkspaceOnboardingTokens() {
  return (
    <Section
      id="onboarding-tokens-heading"
      title="Onboarding tokens"
      description="Tokens members created on their Agents page to let scripts register agents they own."
    >
      <OnboardingTokenList
        scope="workspace"
        empty={{ title: "No onboarding tokens", body: "When a member creates one to onboard agents programmatically, it is listed here." }}
        testId="workspace-onboarding-tokens"
      />
    </Section>
  );
}
