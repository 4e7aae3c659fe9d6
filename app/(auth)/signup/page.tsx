import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SignUpForm } from "@/components/auth/signup-form";
import { InviteLinkForm } from "@/components/auth/invite-link-form";
import { getViewer, publicApi } from "../../_lib/viewer";

export const metadata: Metadata = { title: "Create your workspace" };
export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  if (await getViewer()) redirect("/");
  const { firstRun, mayCreate } = await publicApi().workspace.signUpOptions();
  if (!mayCreate) {
    return (
      <AuthCard
        title="This workspace is invite-only"
        subtitle="Someone already set up Switchboard here. You join it with an invite link."
        footer={
          <Link href="/signin" className="font-medium text-indigo-600 hover:underline">
            Sign in instead
          </Link>
        }
      >
        <InviteLinkForm />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Create your workspace"
      subtitle={
        firstRun
          ? "You're the first one here: you'll own the workspace and can invite people and agents."
          : "A workspace of your own: you'll own it and can invite people and agents. To join one, open its invite link instead."
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
      <SignUpForm mode="first-run" />
      {!firstRun && (
        <div className="mt-6 border-t border-zinc-100 pt-5">
          <InviteLinkForm compact />
        </div>
      )}
    </AuthCard>
  );
}
