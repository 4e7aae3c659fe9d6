"use client";
// A person sets their own status (tRPC work.setStatus): working, waiting (for whom), blocked or idle,
// with a few words. It holds until they change it; everyone sees it beside their name.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { STATUS_TEXT_MAX, WORK_STATES, type WorkState, type WorkStatusView } from "@switchboard/sdk/work";
import { useDirectory } from "@/components/providers/directory";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, inputClass } from "@/components/ui/field";
import { Segmented } from "@/components/ui/segmented";
import { toast } from "@/components/ui/toast";
import { patchStatuses } from "./status-list";
import { useWorkStatuses } from "./use-work-statuses";
import { WorkStateChip } from "./work-state";

const LABELS: Record<WorkState, string> = { working: "Working", waiting: "Waiting", blocked: "Blocked", idle: "Idle" };

export function SetStatusButton() {
  const { me } = useViewer();
  const mine = useWorkStatuses().get(me.id);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} data-testid="set-status" title="Set your status">
        {mine ? <WorkStateChip status={mine} className="-ml-1 ring-0" /> : <span className="h-2 w-2 rounded-full bg-zinc-300" aria-hidden="true" />}
        {mine ? "" : <span className="max-sm:sr-only">Set your status</span>}
      </Button>
      {open && <SetStatusDialog current={mine} onClose={() => setOpen(false)} />}
    </>
  );
}

function SetStatusDialog({ current, onClose }: { current: WorkStatusView | undefined; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { me } = useViewer();
  const { participants } = useDirectory({ fresh: true });
  const [state, setState] = useState<WorkState>(current?.state ?? "working");
  const [text, setText] = useState(current?.text ?? "");
  const [waitingFor, setWaitingFor] = useState(current?.waitingFor?.id ?? "");
  const save = useMutation(
    trpc.work.setStatus.mutationOptions({
      onSuccess: (status) => {
        queryClient.setQueryData(trpc.work.statuses.queryKey(), (old) => (old ? patchStatuses(old, status) : old));
        toast(status.state === "idle" ? "Status cleared" : "Status set");
        onClose();
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ state, text: state === "idle" ? "" : text, ...(state === "waiting" && waitingFor ? { waitingFor } : {}) });
  };
  const others = participants.filter((p) => p.id !== me.id).sort((a, b) => a.displayName.localeCompare(b.displayName));
  return (
    <Dialog
      open
      onClose={onClose}
      title="Your status"
      description="Everyone sees it beside your name until you change it."
      testId="set-status-dialog"
      footer={<DialogActions onCancel={onClose} label="Save" testId="save-status" form="set-status-form" busy={save.isPending} />}
    >
      <form id="set-status-form" onSubmit={submit} className="space-y-4">
        <FormError message={save.error ? errorMessage(save.error) : null} />
        <div>
          <span className="mb-1.5 block text-sm font-medium text-zinc-800">State</span>
          <Segmented options={WORK_STATES.map((s) => ({ key: s, label: LABELS[s] }))} value={state} onChange={setState} label="State" testId="status-state" />
        </div>
        {state === "waiting" && (
          <Field label="Waiting for" hint="Optional: the person or agent you need.">
            <select value={waitingFor} onChange={(e) => setWaitingFor(e.target.value)} className={inputClass} data-testid="status-waiting-for">
              <option value="">Nobody in particular</option>
              {others.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.displayName} (@{p.handle})
                </option>
              ))}
            </select>
          </Field>
        )}
        {state !== "idle" && (
          <Field label="What" hint="A few words, up to 200 characters.">
            <input
              value={text}
              onChange={(e) => setText(e.target.value)}
              maxLength={STATUS_TEXT_MAX}
              placeholder="Reviewing the auth refactor"
              className={inputClass}
              data-testid="status-text-input"
              autoFocus
            />
          </Field>
        )}
      </form>
    </Dialog>
  );
}
