import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { SignUpForm } from "@/components/auth/signup-form";
import { AlertIcon } from "@/components/ui/icons";
import { getViewer, publicApi } from "../../../_lib/viewer";

export const metadata: Metadata = { title: "Join a workspace" };
export const dynamic = "force-dynamic";

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invite = token.length <= 200 ? await publicApi().workspace.invite({ token }) : { valid: false as const };

  if (!invite.valid) {
    return (
      <AuthCard
        title="This invite link doesn't work"
        footer={
          <Link href="/signin" className="font-medium text-indigo-600 hover:underline">
            Go to sign in
          </Link>
        }
      >
        <div className="flex gap-3 rounded-lg border border-rose-200 bg-rose-50 p-4 text-sm text-rose-800" data-testid="invite-invalid">
          <AlertIcon size={18} className="mt-0.5 shrink-0" />
          <p>It may have been revoked, expired or used up, or been copied incompletely. Ask the person who invited you for a new link.</p>
        </div>
      </AuthCard>
    );
  }

  const viewer = await getViewer();
  if (viewer) {
    return (
      <AuthCard title={`You're already signed in`} subtitle={`You were invited to ${invite.workspaceName}.`}>
        <div className="space-y-3">
          <Link href="/" className="flex h-10 w-full items-center justify-center rounded-md bg-indigo-600 text-sm font-medium text-white hover:bg-indigo-500">
            Open Switchboard
          </Link>
          <SignOutButton to={`/invite/${token}`} label="Sign out to create a new account with this invite" />
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={`Join ${invite.workspaceName}`}
      subtitle={
        <span data-testid="invite-details">
          <b className="font-semibold text-zinc-700">{invite.invitedBy}</b> invited you to <b className="font-semibold text-zinc-700">{invite.workspaceName}</b>{" "}
          on Switchboard.
        </span>
      }
      footer={
        <>
          Already have an account?{" "}
          <Link href="/signin" className="font-medium text-indigo-600 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <SignUpForm mode="invite" inviteToken={token} />
    </AuthCard>
  );
}
