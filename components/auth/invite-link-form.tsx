"use client";
// On the sign-up page: a field to paste an invite link into (a whole link or just its token), which
// opens the invite's own sign-up form. Where sign-up is invite-only, with where an invite comes from;
// where anyone may create a workspace (`compact`), under that form, for those joining one instead.
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormError, TextInput } from "@/components/ui/field";

/** The token from a pasted invite link (`https://host/invite/<token>`) or a bare token; null when neither. */
export function inviteTokenOf(pasted: string): string | null {
  const text = pasted.trim();
  const fromLink = /\/invite\/([A-Za-z0-9_-]+)\/?(?:[?#].*)?$/.exec(text);
  if (fromLink) return fromLink[1];
  return /^[A-Za-z0-9_-]{16,200}$/.test(text) ? text : null;
}

export function InviteLinkForm({ compact = false }: { compact?: boolean }) {
  const router = useRouter();
  const [link, setLink] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const token = inviteTokenOf(link);
    if (!token) return setError("That doesn't look like an invite link: it ends in /invite/ and a long code.");
    router.push(`/invite/${encodeURIComponent(token)}`);
  };
  return (
    <div className="space-y-5" data-testid={compact ? "invite-link-join" : "invite-only"}>
      {!compact && (
        <ol className="list-decimal space-y-1.5 pl-5 text-sm text-zinc-600">
          <li>Ask an owner or admin of this workspace for an invite link. They create one under Admin → Invite links, or with “Invite people” in any room.</li>
          <li>Open the link they send you, or paste it below, and create your account there.</li>
        </ol>
      )}
      <form onSubmit={submit} className="space-y-3">
        <FormError message={error} />
        <Field label={compact ? "Joining a workspace instead? Paste its invite link" : "Invite link"}>
          <TextInput
            value={link}
            onChange={(e) => {
              setLink(e.target.value);
              setError(null);
            }}
            placeholder="https://…/invite/…"
            autoComplete="off"
            required
            data-testid="invite-link-paste"
          />
        </Field>
        <Button type="submit" variant={compact ? "secondary" : "primary"} className="w-full" data-testid="invite-link-open">
          Open the invite
        </Button>
      </form>
    </div>
  );
}
