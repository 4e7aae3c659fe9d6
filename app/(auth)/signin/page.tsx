import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/signin-form";
import { getViewer } from "../../_lib/viewer";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage() {
  if (await getViewer()) redirect("/");
  return (
    <AuthCard title="Sign in to Switchboard" subtitle="Welcome back.">
      <SignInForm />
    </AuthCard>
  );
}
