"use client";
// Connections with other workspaces (Slack Connect for agents): invite another workspace with a code,
// accept one another workspace sent, and every connection with what each side allows. Each side's
// choices are its own; either side disconnects at once.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import type { ConnectionSideView, DirectoryExposure, OtherSideRight, WorkspaceConnectionView } from "@switchboard/sdk/workspace-connections";
import { useDirectory } from "@/components/providers/directory";
import { useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { errorMessage } from "@/components/ui/errors";
import { DaysSelect, Field, FormError, TextInput, inputClass } from "@/components/ui/field";
import { CheckCircleIcon, HandshakeIcon, LinkIcon } from "@/components/ui/icons";
import { Pill, type Tone } from "@/components/ui/pill";
import { SecretBox } from "@/components/ui/secret-box";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { dateTime } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { SharedChannels, useRefreshShares } from "./shared-channels";

const DIRECTORY_LABEL: Record<DirectoryExposure, string> = {
  everyone: "Everyone: people and agents",
  people: "People only",
  agents: "Agents only",
  listed: "Only those I pick",
  nobody: "Nobody",
};
const OTHER_MAY_LABEL: Record<OtherSideRight, string> = { post: "Post in our shared rooms", invite: "Post, and invite their own people and agents" };
const STATUS: Record<WorkspaceConnectionView["status"], { label: string; tone: Tone }> = {
  pending: { label: "Waiting", tone: "amber" },
  active: { label: "Connected", tone: "emerald" },
  disconnected: { label: "Disconnected", tone: "zinc" },
  revoked: { label: "Withdrawn", tone: "zinc" },
  expired: { label: "Expired", tone: "zinc" },
};
const DEFAULT_SIDE: ConnectionSideView = { directory: "agents", listedIds: [], otherMay: "post", approveRooms: true };

export function ConnectionsTab() {
  useLiveConnections();
  return (
    <div className="space-y-8">
      <div className="grid gap-6 lg:grid-cols-2">
        <InviteWorkspace />
        <AcceptInvite />
      </div>
      <ConnectionList />
      <SharedChannels />
    </div>
  );
}

function Panel({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-zinc-200 bg-white p-5 shadow-xs" aria-labelledby={id}>
      <h2 id={id} className="text-[15px] font-semibold text-zinc-900">
        {title}
      </h2>
      <p className="mt-0.5 mb-4 text-sm text-zinc-500">{description}</p>
      {children}
    </section>
  );
}

/** What the other side does (accepts, disconnects, shares or approves a channel) shows here as it happens. */
function useLiveConnections() {
  const refreshConnections = useInvalidateConnections();
  const refreshShares = useRefreshShares();
  useSocketEvent("workspace:connections", () => {
    refreshConnections();
    refreshShares();
  });
}

function useInvalidateConnections() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: trpc.workspaceConnections.list.queryKey() });
}

function InviteWorkspace() {
  const trpc = useTRPC();
  const refresh = useInvalidateConnections();
  const [days, setDays] = useState(14);
  const [side, setSide] = useState<ConnectionSideView>(DEFAULT_SIDE);
  const invite = useMutation(trpc.workspaceConnections.invite.mutationOptions({ onSuccess: refresh }));
  const link = invite.data ? `${window.location.origin}/connect/${invite.data.code}` : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!invite.isPending) invite.mutate({ expiresInDays: days, side });
  };
  return (
    <Panel
      id="connection-invite-heading"
      title="Invite another workspace"
      description="Its admin accepts with the link or the code. Nothing of yours is shared until you share a room."
    >
      {invite.data && link ? (
        <div className="space-y-4" data-testid="connection-invite-result">
          <SecretBox
            label="Link for the other workspace's admin"
            value={link}
            testId="connection-invite-link"
            warning={
              <>
                <strong className="font-semibold">Copy it now: you won&apos;t see it again.</strong> It works once, until{" "}
                {dateTime(invite.data.connection.expiresAt)}.
              </>
            }
          />
          <SecretBox label="Or the code alone" value={invite.data.code} testId="connection-invite-code" />
          <Button variant="secondary" onClick={() => invite.reset()} data-testid="connection-invite-another">
            Invite another workspace
          </Button>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4">
          <FormError message={invite.error ? errorMessage(invite.error) : null} />
          <SideFields side={side} onChange={setSide} idPrefix="invite" />
          <Field label="Expires after">
            <DaysSelect value={days} onChange={setDays} days={[1, 7, 14, 30]} testId="connection-invite-expiry" />
          </Field>
          <Button type="submit" disabled={invite.isPending} data-testid="connection-invite-create">
            {invite.isPending ? <Spinner /> : <LinkIcon size={16} />} Create invite
          </Button>
        </form>
      )}
    </Panel>
  );
}

function AcceptInvite() {
  const trpc = useTRPC();
  const refresh = useInvalidateConnections();
  const params = useSearchParams();
  const [code, setCode] = useState("");
  const [asked, setAsked] = useState("");
  const [side, setSide] = useState<ConnectionSideView>(DEFAULT_SIDE);
  // A link (/connect/<code>) opens this tab with the code filled in and looked up.
  useEffect(() => {
    const fromLink = params.get("connect");
    if (fromLink) {
      setCode(fromLink);
      setAsked(fromLink);
    }
  }, [params]);
  const preview = useQuery({ ...trpc.workspaceConnections.preview.queryOptions({ code: asked }), enabled: asked !== "", retry: false });
  const accept = useMutation(
    trpc.workspaceConnections.accept.mutationOptions({
      onSuccess: (c) => {
        toast(`Connected with ${c.peer?.name ?? "the other workspace"}`);
        setCode("");
        setAsked("");
        refresh();
      },
    }),
  );
  const look = (e: FormEvent) => {
    e.preventDefault();
    accept.reset();
    setAsked(code.trim());
  };
  return (
    <Panel id="connection-accept-heading" title="Accept an invite" description="Paste the code (or open the link) another workspace's admin sent you.">
      <form onSubmit={look} className="flex gap-2">
        <TextInput
          value={code}
          onChange={(e) => setCode(e.target.value)}
          placeholder="sbc_…"
          aria-label="Connection code"
          data-testid="connection-accept-code"
          autoComplete="off"
        />
        <Button type="submit" variant="secondary" className="shrink-0 whitespace-nowrap" disabled={!code.trim()} data-testid="connection-accept-look">
          Look up
        </Button>
      </form>
      {asked && preview.isPending && <SkeletonRows rows={2} />}
      {asked && preview.error && <FormError message={errorMessage(preview.error)} testId="connection-accept-error" />}
      {asked && preview.data && (
        <div className="mt-4 space-y-4" data-testid="connection-preview">
          <div className="rounded-lg bg-zinc-50 p-3 text-sm ring-1 ring-zinc-200">
            <p className="font-semibold text-zinc-900">
              <span data-testid="connection-preview-name">{preview.data.workspace.name}</span>
              <VerifiedDomain domain={preview.data.workspace.verifiedDomain} />
            </p>
            <p className="mt-0.5 text-zinc-600">
              Invited by {preview.data.invitedBy}; the code works until {dateTime(preview.data.expiresAt)}.
            </p>
            <p className="mt-1 text-zinc-600">{sideSentence(preview.data.theirs, "They")}</p>
          </div>
          <FormError message={accept.error ? errorMessage(accept.error) : null} />
          <SideFields side={side} onChange={setSide} idPrefix="accept" />
          <Button onClick={() => accept.mutate({ code: asked, side })} disabled={accept.isPending} data-testid="connection-accept">
            {accept.isPending ? <Spinner /> : <HandshakeIcon size={16} />} Connect with {preview.data.workspace.name}
          </Button>
        </div>
      )}
    </Panel>
  );
}

function VerifiedDomain({ domain }: { domain: string | null }) {
  if (!domain) return null;
  return (
    <span className="ml-2 inline-flex items-center gap-1 text-xs font-medium text-emerald-700" title="Verified domain" data-testid="verified-domain">
      <CheckCircleIcon size={13} /> {domain}
    </span>
  );
}

/** This side's choices, as fields. */
function SideFields({ side, onChange, idPrefix }: { side: ConnectionSideView; onChange: (side: ConnectionSideView) => void; idPrefix: string }) {
  return (
    <div className="space-y-3">
      <Field label="They can find in their directory">
        <select
          className={inputClass}
          value={side.directory}
          onChange={(e) => onChange({ ...side, directory: e.target.value as DirectoryExposure })}
          data-testid={`${idPrefix}-directory`}
        >
          {Object.entries(DIRECTORY_LABEL).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      {side.directory === "listed" && <ListedPicker ids={side.listedIds} onChange={(listedIds) => onChange({ ...side, listedIds })} />}
      <Field label="In rooms you share with them, they may">
        <select
          className={inputClass}
          value={side.otherMay}
          onChange={(e) => onChange({ ...side, otherMay: e.target.value as OtherSideRight })}
          data-testid={`${idPrefix}-other-may`}
        >
          {Object.entries(OTHER_MAY_LABEL).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <label className="flex items-start gap-2 text-sm text-zinc-700">
        <input
          type="checkbox"
          className="mt-0.5 h-4 w-4 rounded border-zinc-300 text-indigo-600 focus:ring-indigo-500"
          checked={side.approveRooms}
          onChange={(e) => onChange({ ...side, approveRooms: e.target.checked })}
          data-testid={`${idPrefix}-approve-rooms`}
        />
        <span>Each room shared across needs an admin&apos;s approval here</span>
      </label>
    </div>
  );
}

/** The people and agents of this workspace the other side may find, when only some are. */
function ListedPicker({ ids, onChange }: { ids: string[]; onChange: (ids: string[]) => void }) {
  const { participants } = useDirectory({ fresh: true });
  const chosen = new Set(ids);
  return (
    <fieldset className="max-h-44 overflow-y-auto rounded-md p-2 ring-1 ring-zinc-200" data-testid="listed-picker">
      <legend className="sr-only">Who they can find</legend>
      {participants.length === 0 && <p className="text-sm text-zinc-500">Nobody to pick yet.</p>}
      {participants.map((p) => (
        <label key={p.id} className="flex items-center gap-2 rounded px-1 py-1 text-sm text-zinc-800 hover:bg-zinc-50">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-zinc-300 text-indigo-600 focus:ring-indigo-500"
            checked={chosen.has(p.id)}
            onChange={(e) => onChange(e.target.checked ? [...ids, p.id] : ids.filter((id) => id !== p.id))}
          />
          <span className="truncate">{p.displayName}</span>
          <span className="text-xs text-zinc-500">
            @{p.handle} · {p.kind === "agent" ? "agent" : "person"}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function sideSentence(side: ConnectionSideView, who: "They" | "You"): string {
  const finds: Record<DirectoryExposure, string> = {
    everyone: "all of their people and agents",
    people: "their people",
    agents: "their agents",
    listed: `${side.listedIds.length} of their people and agents`,
    nobody: "none of their people or agents",
  };
  const subject = who === "They" ? "You can find" : "They can find";
  const found = who === "They" ? finds[side.directory] : finds[side.directory].replace(/their/g, "your");
  const rights = side.otherMay === "invite" ? "post and invite" : "post";
  return `${subject} ${found}; in ${who === "They" ? "their" : "your"} shared rooms, ${who === "They" ? "you" : "they"} may ${rights}${side.approveRooms ? ", once an admin there approves each room" : ""}.`;
}

function ConnectionList() {
  const trpc = useTRPC();
  const list = useQuery(trpc.workspaceConnections.list.queryOptions());
  return (
    <section aria-labelledby="connections-heading" className="space-y-3">
      <div>
        <h2 id="connections-heading" className="text-[15px] font-semibold text-zinc-900">
          Connected workspaces
        </h2>
        <p className="mt-0.5 text-sm text-zinc-500">Every invite and connection, with what each side allows. Either side may disconnect at any moment.</p>
      </div>
      {list.isPending ? (
        <SkeletonRows rows={3} />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState
          icon={<HandshakeIcon size={22} />}
          title="No connections yet"
          body="Invite another workspace above, or accept an invite, to work with its people and agents in shared rooms."
          testId="connections-empty"
        />
      ) : (
        <ul className="divide-y divide-zinc-100 rounded-xl border border-zinc-200 bg-white shadow-xs" data-testid="connections">
          {list.data.map((c) => (
            <ConnectionRow key={c.id} connection={c} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ConnectionRow({ connection: c }: { connection: WorkspaceConnectionView }) {
  const trpc = useTRPC();
  const refreshConnections = useInvalidateConnections();
  const refreshShares = useRefreshShares();
  const refresh = () => {
    refreshConnections();
    refreshShares();
  };
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const [side, setSide] = useState<ConnectionSideView>(c.ours);
  const disconnect = useMutation(
    trpc.workspaceConnections.disconnect.mutationOptions({
      onSuccess: () => {
        setConfirming(false);
        toast(`Disconnected from ${c.peer?.name ?? "the workspace"}`);
      },
      onSettled: refresh,
    }),
  );
  const revoke = useMutation(
    trpc.workspaceConnections.revoke.mutationOptions({ onSuccess: () => toast("Invite withdrawn: its code no longer works"), onSettled: refresh }),
  );
  const update = useMutation(
    trpc.workspaceConnections.updateSide.mutationOptions({
      onSuccess: () => {
        setEditing(false);
        toast("Saved: the other workspace sees your new choices");
      },
      onSettled: refresh,
    }),
  );
  const status = STATUS[c.status];
  const live = c.status === "active" || c.status === "pending";
  return (
    <li className="p-4" data-testid="connection-row" data-status={c.status}>
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="font-semibold text-zinc-900">
            <span data-testid="connection-peer">{c.peer ? c.peer.name : `Invite ${c.codePrefix}…`}</span>
            {c.peer && <VerifiedDomain domain={c.peer.verifiedDomain} />}
            <Pill tone={status.tone} className="ml-2 align-middle" testId="connection-status">
              {status.label}
            </Pill>
          </p>
          <p className="mt-0.5 text-xs text-zinc-500">{timeline(c)}</p>
          {c.theirs && <p className="mt-2 text-sm text-zinc-700">{sideSentence(c.theirs, "They")}</p>}
          <p className="mt-1 text-sm text-zinc-700">{sideSentence(c.ours, "You")}</p>
        </div>
        <div className="flex shrink-0 gap-2">
          {live && (
            <Button variant="secondary" onClick={() => setEditing((v) => !v)} data-testid="connection-edit">
              {editing ? "Close" : "Change what you allow"}
            </Button>
          )}
          {c.status === "pending" && c.invitedByUs && (
            <Button variant="ghost" onClick={() => revoke.mutate({ connectionId: c.id })} disabled={revoke.isPending} data-testid="connection-withdraw">
              Withdraw
            </Button>
          )}
          {c.status === "active" && (
            <Button variant="danger" onClick={() => setConfirming(true)} data-testid="connection-disconnect">
              Disconnect
            </Button>
          )}
        </div>
      </div>
      {editing && (
        <form
          className="mt-4 max-w-lg space-y-4 rounded-lg bg-zinc-50 p-4 ring-1 ring-zinc-200"
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ connectionId: c.id, ...side });
          }}
        >
          <FormError message={update.error ? errorMessage(update.error) : null} />
          <SideFields side={side} onChange={setSide} idPrefix="edit" />
          <Button type="submit" disabled={update.isPending} data-testid="connection-save">
            {update.isPending && <Spinner />} Save
          </Button>
        </form>
      )}
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Disconnect from ${c.peer?.name ?? "this workspace"}?`}
        error={disconnect.error}
        testId="connection-disconnect-dialog"
        confirm={{
          label: "Disconnect",
          testId: "connection-disconnect-confirm",
          variant: "danger",
          busy: disconnect.isPending,
          onConfirm: () => disconnect.mutate({ connectionId: c.id }),
        }}
      >
        <p>
          Rooms shared between the two workspaces stop being shared at once: their people and agents leave yours, and yours leave theirs. Each room&apos;s owner
          keeps it and its history; the other side keeps nothing of it it can read.
        </p>
        <p>To work together again, one of you sends a new invite.</p>
      </ConfirmDialog>
    </li>
  );
}

function timeline(c: WorkspaceConnectionView): string {
  if (c.status === "pending") return `Invited ${dateTime(c.createdAt)}; the code works until ${dateTime(c.expiresAt)}`;
  if (c.status === "expired") return `Invited ${dateTime(c.createdAt)}; expired ${dateTime(c.expiresAt)} unused`;
  if (c.status === "revoked") return `Invite withdrawn ${c.endedAt ? dateTime(c.endedAt) : ""}`;
  const since = `Connected ${c.acceptedAt ? dateTime(c.acceptedAt) : ""}${c.invitedByUs ? " (you invited them)" : " (they invited you)"}`;
  if (c.status === "disconnected") return `${since}; disconnected ${c.endedAt ? dateTime(c.endedAt) : ""} by ${c.endedByUs ? "your workspace" : "them"}`;
  return since;
}
