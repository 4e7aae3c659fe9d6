"use client";
// The viewer's tokens: name, scope, how each starts, when it was made and last used, until when it
// works, and its state. Active ones first; those that stopped lately stay listed, dimmed.
import { useMemo } from "react";
import type { AccessTokenView } from "@switchboard/sdk/contract";
import { Button } from "@/components/ui/button";
import { Pill, type Tone } from "@/components/ui/pill";
import { DataTable } from "@/components/ui/table";
import { dateTime, relativeTime, shortDate } from "@/components/ui/time";

const STATES: Record<AccessTokenView["state"], [string, Tone]> = {
  active: ["Active", "emerald"],
  expired: ["Expired", "zinc"],
  revoked: ["Revoked", "rose"],
};

export function ScopePill({ scope }: { scope: AccessTokenView["scope"] }) {
  return scope === "write" ? (
    <Pill tone="amber" testId="token-scope" title="Does whatever you may do">
      Read and write
    </Pill>
  ) : (
    <Pill tone="sky" testId="token-scope" title="Reads, and moves your own read cursors; nothing else">
      Read only
    </Pill>
  );
}

function Expires({ token }: { token: AccessTokenView }) {
  if (token.state === "revoked" && token.revokedAt) return <span title={dateTime(token.revokedAt)}>Revoked {relativeTime(token.revokedAt)}</span>;
  if (!token.expiresAt) return <span className="text-zinc-700">Never</span>;
  const past = token.state === "expired";
  return (
    <span title={dateTime(token.expiresAt)} className={past ? "text-zinc-500" : "text-zinc-700"}>
      {past ? `Expired ${relativeTime(token.expiresAt)}` : relativeTime(token.expiresAt)}
      <span className="block text-xs text-zinc-500">{shortDate(token.expiresAt)}</span>
    </span>
  );
}

export function AccessTokenTable({ tokens, onRevoke }: { tokens: AccessTokenView[]; onRevoke: (token: AccessTokenView) => void }) {
  const rows = useMemo(() => [...tokens].sort((a, b) => Number(a.state !== "active") - Number(b.state !== "active")), [tokens]);
  return (
    <DataTable
      columns={["Name", "Scope", "Token", "Created", "Last used", "Expires", "State", { label: <span className="sr-only">Actions</span> }]}
      minWidth="min-w-[52rem]"
      testId="tokens-list"
    >
      {rows.map((token) => (
        <tr key={token.id} className={token.state === "active" ? "" : "text-zinc-500"} data-testid="token-row" data-id={token.id} data-state={token.state}>
          <td className="max-w-[14rem] truncate px-4 py-2.5 font-medium text-zinc-900" title={token.name}>
            {token.name}
          </td>
          <td className="px-4 py-2.5">
            <ScopePill scope={token.scope} />
          </td>
          <td className="px-4 py-2.5">
            <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[12.5px] text-zinc-700" data-testid="token-prefix">
              {token.prefix}…
            </code>
          </td>
          <td className="px-4 py-2.5 whitespace-nowrap" title={dateTime(token.createdAt)}>
            {relativeTime(token.createdAt)}
          </td>
          <td className="px-4 py-2.5 whitespace-nowrap" title={dateTime(token.lastUsedAt)} data-testid="token-last-used">
            {token.lastUsedAt ? relativeTime(token.lastUsedAt) : <span className="text-zinc-500">Never</span>}
          </td>
          <td className="px-4 py-2.5 whitespace-nowrap">
            <Expires token={token} />
          </td>
          <td className="px-4 py-2.5">
            <Pill tone={STATES[token.state][1]} dot testId="token-state">
              {STATES[token.state][0]}
            </Pill>
          </td>
          <td className="px-4 py-2.5 text-right">
            {token.can.revoke && (
              <Button variant="secondary" size="sm" onClick={() => onRevoke(token)} data-testid="token-revoke" aria-label={`Revoke the token ${token.name}`}>
                Revoke
              </Button>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
