"use client";
import { signOut } from "next-auth/react";
import { useState } from "react";

export function SignOutButton({ to = "/signin", label = "Sign out" }: { to?: string; label?: string }) {
  const [busy, setBusy] = useState(false);
  const leave = async () => {
    setBusy(true);
    await signOut({ redirect: false });
    window.location.assign(to);
  };
  return (
    <button type="button" disabled={busy} onClick={() => void leave()} className="w-full text-center text-sm text-zinc-500 hover:text-zinc-800 hover:underline">
      {label}
    </button>
  );
}
