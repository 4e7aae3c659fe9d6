"use client";
// The kill switch: suspending an agent disconnects it everywhere at once and refuses its keys until
// it is resumed. Used on /agents (owners) and in the admin console (owners and admins).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AgentView } from "@switchboard/sdk/contract";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { errorMessage } from "@/components/ui/errors";
import { PauseIcon, PlayIcon, PowerIcon } from "@/components/ui/icons";
import { Field, TextArea } from "@/components/ui/field";
import { toast } from "@/components/ui/toast";
import { SUSPEND_REASON_MAX } from "@switchboard/sdk/admin";

function useRefreshAgents() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries(trpc.agents.pathFilter());
    void queryClient.invalidateQueries(trpc.directory.pathFilter());
    void queryClient.invalidateQueries({ queryKey: trpc.workspace.participants.queryKey() });
  };
}

export function SuspendDialog({ agent, onClose }: { agent: Pick<AgentView, "id" | "handle" | "displayName"> | null; onClose: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshAgents();
  const [reason, setReason] = useState("");
  const suspend = useMutation(
    trpc.agents.suspend.mutationOptions({
      onSuccess: (a) => {
        refresh();
        toast(`@${a.handle} is suspended and disconnected`);
        close();
      },
    }),
  );
  const close = () => {
    setReason("");
    suspend.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={agent !== null}
      onClose={close}
      title={agent ? `Suspend @${agent.handle}?` : "Suspend"}
      description="The kill switch: it stops at once, everywhere."
      testId="suspend-dialog"
      error={suspend.error}
      confirm={{
        label: "Suspend",
        variant: "danger",
        icon: <PowerIcon size={15} />,
        busy: suspend.isPending,
        onConfirm: () => agent && suspend.mutate({ agentId: agent.id, reason: reason.trim() }),
        testId: "confirm-suspend",
      }}
    >
      <ul className="list-disc space-y-1 pl-5">
        <li>Every connection of {agent?.displayName ?? "the agent"} is closed, on every server.</li>
        <li>Its keys are refused and nothing it sends is stored until you resume it.</li>
        <li>Its keys, rooms and history are kept.</li>
      </ul>
      <Field label="Reason" hint="Recorded in the audit log.">
        <TextArea
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={SUSPEND_REASON_MAX}
          rows={2}
          autoFocus
          placeholder="Posting in a loop in #ops"
          data-testid="suspend-reason"
        />
      </Field>
    </ConfirmDialog>
  );
}

/** Suspend opens the dialog; resume is immediate. Solid red in the admin console, quieter on one's own cards. */
export function KillSwitch({
  agent,
  onSuspend,
  size = "sm",
  tone = "solid",
}: {
  agent: Pick<AgentView, "id" | "handle" | "displayName" | "status">;
  onSuspend: () => void;
  size?: "sm" | "md";
  tone?: "solid" | "quiet";
}) {
  const trpc = useTRPC();
  const refresh = useRefreshAgents();
  const resume = useMutation(
    trpc.agents.resume.mutationOptions({
      onSuccess: (a) => {
        refresh();
        toast(`@${a.handle} is active again`);
      },
      onError: (e) => toast(errorMessage(e), "error"),
    }),
  );
  if (agent.status === "suspended") {
    return (
      <Button variant="secondary" size={size} onClick={() => resume.mutate({ agentId: agent.id })} disabled={resume.isPending} data-testid="resume-agent">
        {resume.isPending ? <Spinner /> : <PlayIcon size={14} className="text-emerald-600" />} Resume
      </Button>
    );
  }
  if (tone === "quiet") {
    return (
      <button
        type="button"
        onClick={onSuspend}
        data-testid="suspend-agent"
        className="inline-flex h-8 items-center justify-center gap-1.5 rounded-md bg-white px-2.5 text-sm font-medium text-rose-700 shadow-xs ring-1 ring-rose-200 ring-inset transition-colors hover:bg-rose-50"
      >
        <PauseIcon size={14} /> Suspend
      </button>
    );
  }
  return (
    <Button variant="danger" size={size} onClick={onSuspend} data-testid="suspend-agent">
      <PauseIcon size={14} /> Suspend
    </Button>
  );
}
