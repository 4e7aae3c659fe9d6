"use client";
// The workspace's domain, shown to connected workspaces once verified: name it, publish the TXT record
// it asks for, then verify. Where this deployment cannot reach DNS, its operator verifies it
// (`npm run workspace:verify-domain`, docs/operations.md).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { WorkspaceDomainView } from "@switchboard/sdk/workspace-connections";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, TextInput } from "@/components/ui/field";
import { CheckCircleIcon } from "@/components/ui/icons";
import { CodeBlock } from "@/components/ui/secret-box";
import { ErrorState, SkeletonRows } from "@/components/ui/states";
import { dateTime } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { Card } from "./card";

export function DomainCard() {
  const trpc = useTRPC();
  const domain = useQuery(trpc.workspaceConnections.domain.queryOptions());
  if (domain.isPending) return <SkeletonRows rows={2} />;
  if (domain.isError) return <ErrorState error={domain.error} onRetry={() => void domain.refetch()} title="Couldn't load the domain" />;
  return <DomainForm key={domain.data.domain ?? ""} current={domain.data} />;
}

function DomainForm({ current }: { current: WorkspaceDomainView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(current.domain ?? "");
  const saved = (view: WorkspaceDomainView) => queryClient.setQueryData(trpc.workspaceConnections.domain.queryKey(), view);
  const set = useMutation(trpc.workspaceConnections.setDomain.mutationOptions({ onSuccess: saved }));
  const verify = useMutation(
    trpc.workspaceConnections.verifyDomain.mutationOptions({
      onSuccess: (view) => {
        saved(view);
        toast(`${view.domain} is verified: connected workspaces see it beside your name`);
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!set.isPending) set.mutate({ domain: value.trim() || null });
  };
  const changed = (value.trim() || null) !== current.domain;
  return (
    <Card
      title="Your domain"
      description="Shown to workspaces you connect with, once verified, so their people know it is really you."
      onSubmit={submit}
      testId="domain-card"
      footer={
        <Button type="submit" disabled={!changed || set.isPending} data-testid="domain-save">
          {set.isPending && <Spinner />} Save
        </Button>
      }
    >
      <div className="space-y-4">
        <FormError message={set.error ? errorMessage(set.error) : verify.error ? errorMessage(verify.error) : null} />
        <Field label="Domain" hint="Your company's, such as acme.com. Empty: none.">
          <TextInput value={value} onChange={(e) => setValue(e.target.value)} placeholder="acme.com" autoComplete="off" data-testid="domain-input" />
        </Field>
        {current.domain && current.verifiedAt ? (
          <p className="flex items-center gap-2 text-sm text-emerald-700" data-testid="domain-verified">
            <CheckCircleIcon size={16} /> {current.domain} verified {current.verifiedBy === "operator" ? "by this deployment's operator" : "by DNS"},{" "}
            {dateTime(current.verifiedAt)}
          </p>
        ) : current.record ? (
          <div className="space-y-3" data-testid="domain-unverified">
            <p className="text-sm text-zinc-600">
              Add this TXT record to {current.domain}&apos;s DNS, then verify. If this server cannot reach DNS, ask its operator to verify it.
            </p>
            <CodeBlock label="TXT record" code={`${current.record.name}  TXT  "${current.record.value}"`} testId="domain-record" />
            <Button type="button" variant="secondary" onClick={() => verify.mutate()} disabled={verify.isPending} data-testid="domain-verify">
              {verify.isPending && <Spinner />} Verify
            </Button>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
