import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/signin-form";
import { getViewer } from "../../_lib/viewer";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Where sign-in may lead back to: an invite link (`/invite/<token>`) or a workspace connection's (`/connect/<code>`), accepted signed in. */
const RETURN_TO = /^\/(invite|connect)\/[A-Za-z0-9_-]{1,200}$/;

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  const to = typeof next === "string" && RETURN_TO.test(next) ? next : "/";
  if (await getViewer()) redirect(to);
  return (
    <AuthCard title="Sign in to Switchboard" subtitle={to === "/" ? "Welcome back." : "Sign in to accept your invite."}>
      <SignInForm to={to} />
    </AuthCard>
  );
}
