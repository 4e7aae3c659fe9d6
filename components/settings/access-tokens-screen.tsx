"use client";
// /settings/tokens: the viewer's personal access tokens. A script, the switchboard CLI or an MCP host
// acts as the viewer with one (read-only, or read and write); each is shown once and can be revoked.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { AccessTokenView } from "@switchboard/sdk/contract";
import { PageFrame } from "@/components/nav/page-frame";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { KeyIcon, PlusIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { AccessTokenTable } from "./access-token-table";
import { CreateTokenDialog } from "./create-token-dialog";
import { RevokeTokenDialog } from "./revoke-token-dialog";

export function AccessTokensScreen() {
  const trpc = useTRPC();
  const tokens = useQuery(trpc.tokens.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<AccessTokenView | null>(null);
  const active = tokens.data?.filter((t) => t.state === "active").length ?? 0;

  return (
    <PageFrame
      title="Access tokens"
      icon={<KeyIcon size={18} />}
      subtitle={tokens.data ? `${active} active token${active === 1 ? "" : "s"}` : "Your personal access tokens"}
      testId="tokens-page"
      wide
      actions={
        <Button size="sm" onClick={() => setCreating(true)} data-testid="open-create-token">
          <PlusIcon size={15} /> New token
        </Button>
      }
    >
      <p className="mb-5 text-sm text-zinc-600">
        A token lets a script, the <code className="font-mono text-[13px]">switchboard</code> CLI or an MCP host act as you, with your role and never more. A{" "}
        <strong className="font-semibold">read</strong> token only reads; a <strong className="font-semibold">write</strong> token does whatever you may. Revoke
        one you no longer use or that leaked: it stops working at once.
      </p>
      {tokens.isPending ? (
        <SkeletonRows rows={3} testId="tokens-loading" />
      ) : tokens.isError ? (
        <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} title="Couldn't load your tokens" testId="tokens-error" />
      ) : tokens.data.length === 0 ? (
        <EmptyState
          icon={<KeyIcon size={22} />}
          title="You don't have any access tokens"
          body="Create one for a script or the CLI. It is shown once; only a hash is kept."
          testId="tokens-empty"
        >
          <Button size="sm" onClick={() => setCreating(true)}>
            <PlusIcon size={15} /> New token
          </Button>
        </EmptyState>
      ) : (
        <AccessTokenTable tokens={tokens.data} onRevoke={setRevoking} />
      )}
      <CreateTokenDialog open={creating} onClose={() => setCreating(false)} />
      <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} />
    </PageFrame>
  );
}
