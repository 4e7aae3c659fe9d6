import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { JoinWorkspaceForm } from "@/components/auth/join-workspace-form";
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

  // Someone signed in joins with the account they have: a new person in that workspace, beside their others.
  const viewer = await getViewer();
  if (viewer) {
    const mine = await viewer.api.workspaces.invite({ token });
    if (mine.valid && mine.memberOf) {
      return (
        <AuthCard title={`You're already in ${mine.workspaceName}`} subtitle="This invite link leads to a workspace you are a member of.">
          <div className="space-y-3" data-testid="invite-already-member">
            <Link
              href={`/w/${encodeURIComponent(mine.memberOf)}`}
              className="flex h-10 w-full items-center justify-center rounded-md bg-indigo-600 text-sm font-medium text-white hover:bg-indigo-500"
              data-testid="invite-open-workspace"
            >
              Open {mine.workspaceName}
            </Link>
            <SignOutButton to={`/invite/${token}`} label="Sign out to create a new account with this invite" />
          </div>
        </AuthCard>
      );
    }
    if (mine.valid) {
      return (
        <AuthCard
          title={`Join ${mine.workspaceName}`}
          subtitle={
            <span data-testid="invite-details">
              <b className="font-semibold text-zinc-700">{mine.invitedBy}</b> invited you to <b className="font-semibold text-zinc-700">{mine.workspaceName}</b>
              . You join with the account you are signed in with, and keep your other workspaces.
            </span>
          }
          footer={<SignOutButton to={`/invite/${token}`} label="Not you? Sign out to create a new account with this invite" />}
        >
          <JoinWorkspaceForm token={token} workspaceName={mine.workspaceName} suggested={mine.suggested} handleTaken={mine.handleTaken} />
        </AuthCard>
      );
    }
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
          <Link
            href={`/signin?next=${encodeURIComponent(`/invite/${token}`)}`}
            className="font-medium text-indigo-600 hover:underline"
            data-testid="invite-signin"
          >
            Sign in
          </Link>
        </>
      }
    >
      <SignUpForm mode="invite" inviteToken={token} />
    </AuthCard>
  );
}
