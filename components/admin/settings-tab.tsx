"use client";
// Workspace settings (name, whether people may talk without a connection request, its domain), the limits that keep
// agents and people in check (message rates and bursts, the loop guard), the component map of the Work
// page, and the owner's own exemption.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, TextInput } from "@/components/ui/field";
import { ErrorState, SkeletonRows } from "@/components/ui/states";
import { toast } from "@/components/ui/toast";
import { LIMIT_BOUNDS, WORKSPACE_NAME_MAX } from "@switchboard/sdk/admin";
import { Card } from "./card";
import { ComponentMapCard } from "./component-map-card";
import { DomainCard } from "./domain-card";
import type { WorkspaceLimits } from "./types";
import { useRouter } from "@/components/nav/workspace-routing";

export function SettingsTab() {
  const trpc = useTRPC();
  const me = useQuery(trpc.workspace.me.queryOptions());
  const limits = useQuery(trpc.workspace.limits.queryOptions());
  return (
    <div className="space-y-6">
      {me.isPending ? (
        <SkeletonRows rows={2} />
      ) : me.isError || !me.data ? (
        <ErrorState error={me.error} onRetry={() => void me.refetch()} title="Couldn't load the settings" />
      ) : (
        <GeneralForm
          key={`${me.data.workspace.name}:${me.data.workspace.peopleTalkFreely}`}
          name={me.data.workspace.name}
          peopleTalkFreely={me.data.workspace.peopleTalkFreely}
        />
      )}
      {limits.isPending ? (
        <SkeletonRows rows={2} />
      ) : limits.isError ? (
        <ErrorState error={limits.error} onRetry={() => void limits.refetch()} title="Couldn't load the limits" />
      ) : (
        <LimitsForm key={JSON.stringify(limits.data)} limits={limits.data} />
      )}
      <DomainCard />
      <ComponentMapCard />
      <RateExemption />
    </div>
  );
}

function GeneralForm({ name: initialName, peopleTalkFreely: initialFree }: { name: string; peopleTalkFreely: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState(initialName);
  const [free, setFree] = useState(initialFree);
  const save = useMutation(
    trpc.workspace.updateSettings.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.workspace.me.queryKey(), data);
        void queryClient.invalidateQueries(trpc.directory.pathFilter());
        toast("Settings saved");
        router.refresh(); // the sidebar shows the workspace's name from the server
      },
    }),
  );
  const dirty = name.trim() !== initialName || free !== initialFree;
  return (
    <Card
      title="Workspace"
      description="How the workspace is called and how people reach each other."
      testId="settings-general"
      onSubmit={(e) => {
        e.preventDefault();
        if (!dirty || save.isPending) return;
        save.mutate({ ...(name.trim() !== initialName ? { name: name.trim() } : {}), ...(free !== initialFree ? { peopleTalkFreely: free } : {}) });
      }}
      footer={
        <Button type="submit" size="sm" disabled={!dirty || save.isPending || !name.trim()} data-testid="save-settings">
          {save.isPending && <Spinner />} Save changes
        </Button>
      }
    >
      <div className="space-y-4">
        <FormError message={save.error ? errorMessage(save.error) : null} />
        <Field label="Name">
          <TextInput
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={WORKSPACE_NAME_MAX}
            required
            className="max-w-sm"
            data-testid="settings-name"
          />
        </Field>
        <label className="flex max-w-xl cursor-pointer items-start gap-3">
          <input
            type="checkbox"
            checked={free}
            onChange={(e) => setFree(e.target.checked)}
            className="mt-0.5 h-4 w-4 rounded border-zinc-300 accent-indigo-600"
            data-testid="settings-people-free"
          />
          <span>
            <span className="block text-sm font-medium text-zinc-800">People may talk without a connection request</span>
            <span className="block text-xs text-zinc-500">
              People of this workspace can message, invite and mention each other directly. Agents always need a connection (except with their owner).
            </span>
          </span>
        </label>
      </div>
    </Card>
  );
}

const LIMIT_FIELDS: { key: keyof WorkspaceLimits; label: string; hint: string; unit: string }[] = [
  { key: "agentMessagesPerMinute", label: "Agent messages per minute", hint: "The sustained rate each agent may send.", unit: "/ min" },
  { key: "agentBurst", label: "Agent burst", hint: "Extra messages an agent may send in a short spike.", unit: "msgs" },
  { key: "peopleMessagesPerMinute", label: "People's messages per minute", hint: "The sustained rate each person may send (scripts included).", unit: "/ min" },
  { key: "peopleBurst", label: "People's burst", hint: "Extra messages a person may send in a short spike.", unit: "msgs" },
  { key: "loopGuardMessages", label: "Loop guard: messages", hint: "Agents-only messages in a room before agents pause there.", unit: "msgs" },
  { key: "loopGuardWindowSec", label: "Loop guard: window", hint: "Within this many seconds, since a person last spoke.", unit: "sec" },
];

function LimitsForm({ limits }: { limits: WorkspaceLimits }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<keyof WorkspaceLimits, string>>({
    agentMessagesPerMinute: String(limits.agentMessagesPerMinute),
    agentBurst: String(limits.agentBurst),
    peopleMessagesPerMinute: String(limits.peopleMessagesPerMinute),
    peopleBurst: String(limits.peopleBurst),
    loopGuardMessages: String(limits.loopGuardMessages),
    loopGuardWindowSec: String(limits.loopGuardWindowSec),
  });
  const save = useMutation(
    trpc.workspace.setLimits.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.workspace.limits.queryKey(), data);
        toast("Limits saved");
      },
    }),
  );
  const changed = LIMIT_FIELDS.filter((f) => values[f.key] !== String(limits[f.key]));
  const invalid = LIMIT_FIELDS.find((f) => {
    const n = Number(values[f.key]);
    return values[f.key].trim() === "" || !Number.isInteger(n) || n < LIMIT_BOUNDS[f.key].min || n > LIMIT_BOUNDS[f.key].max;
  });
  return (
    <Card
      title="Limits"
      description="Every agent's and every person's default message rate; the loop guard pauses agents that talk only to each other until a person continues."
      testId="settings-limits"
      onSubmit={(e) => {
        e.preventDefault();
        if (invalid || changed.length === 0 || save.isPending) return;
        save.mutate(Object.fromEntries(changed.map((f) => [f.key, Number(values[f.key])])));
      }}
      footer={
        <>
          {invalid && (
            <span className="mr-auto text-xs text-rose-600">
              {invalid.label}: a whole number from {LIMIT_BOUNDS[invalid.key].min} to {LIMIT_BOUNDS[invalid.key].max.toLocaleString()}.
            </span>
          )}
          <Button type="submit" size="sm" disabled={!!invalid || changed.length === 0 || save.isPending} data-testid="save-limits">
            {save.isPending && <Spinner />} Save limits
          </Button>
        </>
      }
    >
      <FormError message={save.error ? errorMessage(save.error) : null} />
      <div className="grid gap-4 sm:grid-cols-2">
        {LIMIT_FIELDS.map((f) => (
          <Field key={f.key} label={f.label} hint={f.hint}>
            <div className="relative max-w-[14rem]">
              <TextInput
                type="number"
                inputMode="numeric"
                min={LIMIT_BOUNDS[f.key].min}
                max={LIMIT_BOUNDS[f.key].max}
                step={1}
                value={values[f.key]}
                onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
                className="pr-14"
                data-testid={`limit-${f.key}`}
              />
              <span className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-xs text-zinc-500">{f.unit}</span>
            </div>
          </Field>
        ))}
      </div>
    </Card>
  );
}

/** The owner alone may send without a message rate, and only by saying so here. */
function RateExemption() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const exemption = useQuery(trpc.workspace.rateExemption.queryOptions());
  const save = useMutation(
    trpc.workspace.setRateExemption.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.workspace.rateExemption.queryKey(), data);
        toast(data.exempt ? "You now send without a message rate" : "Your messages count against the people's rate again");
      },
    }),
  );
  if (!exemption.data?.can.change) return null;
  return (
    <div className="rounded-xl border border-zinc-200 bg-white p-5 shadow-xs" data-testid="settings-exemption">
      <label className="flex max-w-xl cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          checked={exemption.data.exempt}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ exempt: e.target.checked })}
          className="mt-0.5 h-4 w-4 rounded border-zinc-300 accent-indigo-600"
          data-testid="settings-exempt-me"
        />
        <span>
          <span className="block text-sm font-medium text-zinc-800">Exempt me from the people&apos;s message rate</span>
          <span className="block text-xs text-zinc-500">
            As the workspace&apos;s owner you may send without a limit, for instance from a script. Nobody else can be exempted. The change is audited.
          </span>
        </span>
      </label>
      <FormError message={save.error ? errorMessage(save.error) : null} />
    </div>
  );
}
