"use client";
import { signIn } from "next-auth/react";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button, Spinner } from "@/components/ui/button";
import { Field, FormError, TextInput } from "@/components/ui/field";

/** Signs in with Auth.js credentials and opens the app on success (a full load, so the socket gets the cookie). */
export async function signInAndEnter(email: string, password: string, to = "/"): Promise<string | null> {
  try {
    const result = await signIn("credentials", { email, password, redirect: false });
    // `code` is set by server/auth/config.ts (SignInRateLimited) when the email is blocked for a while.
    if (result?.code === "rate_limited") return "Too many failed sign-ins for this email. Wait 15 minutes, then try again.";
    if (!result || result.error) return "Wrong email or password.";
  } catch {
    return "Could not reach the server. Check your connection and try again.";
  }
  window.location.assign(to);
  return null;
}

export function SignInForm({ to = "/" }: { to?: string }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const failure = await signInAndEnter(email, password, to);
    if (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" data-testid="signin-form">
      <FormError message={error} testId="signin-error" />
      <Field label="Email">
        <TextInput type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus data-testid="signin-email" />
      </Field>
      <Field label="Password">
        <TextInput
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          data-testid="signin-password"
        />
      </Field>
      <Button type="submit" className="w-full" disabled={busy} data-testid="signin-submit">
        {busy && <Spinner />} Sign in
      </Button>
      <p className="text-center text-sm text-zinc-500">
        New here?{" "}
        <Link href="/signup" className="font-medium text-indigo-600 hover:underline">
          Create an account
        </Link>
      </p>
    </form>
  );
}
