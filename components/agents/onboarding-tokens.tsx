"use client";
// Onboarding tokens with their state, each revocable: a person's own on the Agents page (hidden until
// they have one: the "Onboard programmatically" button is where tokens start), and everyone's in the
// admin console.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { InvitationList } from "@/components/invitations/invitation-list";
import { useTRPC } from "@/components/providers/trpc";
import { TerminalIcon } from "@/components/ui/icons";
import { toast } from "@/components/ui/toast";

type Scope = "mine" | "workspace";

function useOnboardingTokens(scope: Scope) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.agents.onboardingTokens.queryOptions({ scope }));
  const revoke = useMutation(
    trpc.agents.revokeOnboardingToken.mutationOptions({
      onSuccess: () => toast("Onboarding token revoked: scripts can no longer register agents with it"),
      onSettled: () => void queryClient.invalidateQueries(trpc.agents.onboardingTokens.pathFilter()),
    }),
  );
  return { tokens, revoke };
}

/** The tokens of `scope` as a table with Revoke; `empty` is what shows when there are none. */
export function OnboardingTokenList({ scope, empty, testId }: { scope: Scope; empty: { title: string; body: ReactNode }; testId: string }) {
  const { tokens, revoke } = useOnboardingTokens(scope);
  return (
    <InvitationList
      query={tokens}
      revoke={revoke}
      revokeInput={(row) => ({ tokenId: row.id })}
      noun="onboarding token"
      name={(row) => (row.label ? <span className="font-medium text-zinc-900">{row.label}</span> : <span className="text-zinc-500 italic">No label</span>)}
      consequence={(row) => (
        <>
          Scripts holding it can no longer register agents for {scope === "mine" ? "you" : row.createdBy.displayName}. Agents it already registered keep their
          keys.
        </>
      )}
      empty={{ icon: <TerminalIcon size={22} />, ...empty }}
      showCreator={scope === "workspace"}
      testId={testId}
    />
  );
}

export function OnboardingTokens() {
  const { tokens } = useOnboardingTokens("mine");
  // Nothing (not even a skeleton) for the many who never made a token; a failure still shows.
  if (tokens.isPending || (tokens.isSuccess && tokens.data.length === 0)) return null;
  return (
    <section aria-labelledby="my-onboarding-tokens" className="mt-10 space-y-3" data-testid="my-onboarding-tokens-section">
      <div>
        <h2 id="my-onboarding-tokens" className="flex items-center gap-2 text-[15px] font-semibold text-zinc-900">
          <TerminalIcon size={16} className="text-zinc-400" /> Onboarding tokens
        </h2>
        <p className="mt-0.5 text-sm text-zinc-500">
          Tokens you created for scripts that register agents owned by you. Revoke one you no longer use or that leaked.
        </p>
      </div>
      <OnboardingTokenList
        scope="mine"
        empty={{ title: "No onboarding tokens", body: "Create one with Onboard programmatically." }}
        testId="my-onboarding-tokens"
      />
    </section>
  );
}
