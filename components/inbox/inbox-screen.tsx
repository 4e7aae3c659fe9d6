"use client";
// /inbox: the consent inbox. Requests addressed to the viewer or to agents they own (accept or
// decline in one click), requests they or their agents sent (cancel), and the history of decided
// connections (revoke), and Alerts: news of the viewer's budget, agents and requests. Live through
// connection:request and connection:updated (and the events the alerts follow).
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState, type ReactNode } from "react";
import type { ConnectionView } from "@switchboard/sdk/contract";
import { PageFrame } from "@/components/nav/page-frame";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Button, Spinner } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { errorMessage } from "@/components/ui/errors";
import { BellIcon, CheckIcon, ClockIcon, InboxIcon, SendIcon, XIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { TabPanel, Tabs } from "@/components/ui/tabs";
import { dateTime, relativeTime } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { Expiry, RequesterBlock, Scope, StatusPill, Who, addresseeLabel, participantName } from "./connection-card";
import { AlertsList, useAlerts } from "./alerts-list";
import { useConnectionEvents, usePendingConnections } from "./use-inbox";

type Tab = "requests" | "sent" | "history" | "alerts";

export function InboxScreen() {
  const [tab, setTab] = useState<Tab>("requests");
  useConnectionEvents();
  const { query, incoming, expired: expiredIncoming, outgoing } = usePendingConnections();
  const alerts = useAlerts();

  return (
    <PageFrame title="Inbox" icon={<InboxIcon size={18} />} subtitle="Who may reach you and your agents" testId="inbox-page">
      <div className="mb-5 border-b border-zinc-200">
        <Tabs<Tab>
          label="Inbox"
          idPrefix="inbox"
          active={tab}
          onChange={setTab}
          tabs={[
            { key: "requests", label: "Requests", icon: <InboxIcon size={15} />, count: incoming.length },
            { key: "sent", label: "Sent", icon: <SendIcon size={15} />, count: outgoing.length },
            { key: "history", label: "History", icon: <ClockIcon size={15} /> },
            { key: "alerts", label: "Alerts", icon: <BellIcon size={15} /> },
          ]}
        />
      </div>
      {tab === "alerts" ? (
        <TabPanel id="alerts" idPrefix="inbox">
          <AlertsList alerts={alerts} onHistory={() => setTab("history")} />
        </TabPanel>
      ) : tab === "history" ? (
        <TabPanel id="history" idPrefix="inbox">
          <History />
        </TabPanel>
      ) : (
        <TabPanel id={tab} idPrefix="inbox">
          {query.isPending ? (
            <SkeletonRows rows={3} />
          ) : query.isError ? (
            <ErrorState error={query.error} onRetry={() => void query.refetch()} title="Couldn't load your inbox" />
          ) : tab === "requests" ? (
            <Requests incoming={incoming} expired={expiredIncoming} />
          ) : (
            <Sent outgoing={outgoing} />
          )}
        </TabPanel>
      )}
    </PageFrame>
  );
}

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries(trpc.connections.pathFilter());
    void queryClient.invalidateQueries(trpc.directory.pathFilter());
  };
}

/** A decision's mutation options: refresh either way (someone may have decided first), then say what happened or why not. */
function useDecisionFeedback(said: (c: ConnectionView) => string) {
  const refresh = useRefresh();
  return {
    onSuccess: (c: ConnectionView) => {
      refresh();
      toast(said(c));
    },
    onError: (e: unknown) => {
      refresh();
      toast(errorMessage(e), "error");
    },
  };
}

function Requests({ incoming, expired }: { incoming: ConnectionView[]; expired: ConnectionView[] }) {
  if (incoming.length === 0 && expired.length === 0) {
    return (
      <EmptyState
        icon={<InboxIcon size={22} />}
        title="No requests waiting"
        body="When a person or an agent asks to connect with you or one of your agents, it lands here for you to accept or decline."
        testId="requests-empty"
      />
    );
  }
  return (
    <div className="space-y-3" data-testid="requests-list">
      {incoming.map((c) => (
        <IncomingCard key={c.id} connection={c} />
      ))}
      {expired.length > 0 && (
        <>
          <h2 className="pt-3 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Expired before a decision</h2>
          {expired.map((c) => (
            <IncomingCard key={c.id} connection={c} expired />
          ))}
        </>
      )}
    </div>
  );
}

function IncomingCard({ connection: c, expired = false }: { connection: ConnectionView; expired?: boolean }) {
  const trpc = useTRPC();
  const { me } = useViewer();
  const respond = useMutation(
    trpc.connections.respond.mutationOptions(
      useDecisionFeedback((r) =>
        r.status === "accepted"
          ? `Connected: @${r.requester.handle} can now reach ${r.addressee.id === me.id ? "you" : `@${r.addressee.handle}`}`
          : `Declined @${r.requester.handle}'s request`,
      ),
    ),
  );
  const decide = (decision: "accept" | "decline") => respond.mutate({ connectionId: c.id, decision });
  const busy = respond.isPending ? respond.variables?.decision : null;
  return (
    <article
      className={`rounded-xl border bg-white shadow-xs ${expired ? "border-zinc-200 opacity-70" : "border-zinc-200"}`}
      data-testid="request-card"
      data-connection-id={c.id}
      data-requester={c.requester.handle}
      data-addressee={c.addressee.handle}
    >
      <div className="flex flex-col gap-4 p-4 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1 space-y-3">
          <RequesterBlock side={c.requester} />
          <p className="text-sm text-zinc-600">
            asks to connect with {addresseeLabel(c, me.id)} <span className="text-zinc-500">· {relativeTime(c.createdAt)}</span>
          </p>
          {c.message && (
            <blockquote
              className="rounded-lg border-l-4 border-indigo-300 bg-indigo-50/40 px-3 py-2 text-sm whitespace-pre-wrap text-zinc-800"
              data-testid="request-message"
            >
              {c.message}
            </blockquote>
          )}
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-zinc-500">Scope</dt>
            <dd>
              <Scope scope={c.scope} />
            </dd>
            <dt className="text-zinc-500">Lasts</dt>
            <dd>
              <Expiry expiresAt={c.expiresAt} />
            </dd>
          </dl>
        </div>
        {!expired && (
          <div className="flex shrink-0 gap-2 sm:flex-col sm:items-stretch">
            <Button
              size="sm"
              onClick={() => decide("accept")}
              disabled={respond.isPending}
              data-testid="accept-request"
              aria-label={`Accept ${c.requester.displayName}'s request`}
            >
              {busy === "accept" ? <Spinner /> : <CheckIcon size={15} />} Accept
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => decide("decline")}
              disabled={respond.isPending}
              data-testid="decline-request"
              aria-label={`Decline ${c.requester.displayName}'s request`}
            >
              {busy === "decline" ? <Spinner /> : <XIcon size={15} />} Decline
            </Button>
          </div>
        )}
      </div>
    </article>
  );
}

function Sent({ outgoing }: { outgoing: ConnectionView[] }) {
  const trpc = useTRPC();
  const { me } = useViewer();
  const cancel = useMutation(trpc.connections.cancel.mutationOptions(useDecisionFeedback((r) => `Request to @${r.addressee.handle} cancelled`)));
  return (
    <ConnectionList connections={outgoing} name="sent">
      {(c) => (
        <>
          <div className="min-w-0 flex-1 space-y-1 text-sm">
            <Parties connection={c} meId={me.id} />
            <div className="text-xs text-zinc-500">
              Sent {relativeTime(c.createdAt)} ·{" "}
              {c.addressee.kind === "agent" && c.addressee.owner ? `${c.addressee.owner.displayName} decides` : `${c.addressee.displayName} decides`} ·{" "}
              <Expiry expiresAt={c.expiresAt} />
            </div>
            {c.message && <p className="line-clamp-2 text-zinc-600">“{c.message}”</p>}
          </div>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => cancel.mutate({ connectionId: c.id })}
            disabled={cancel.isPending && cancel.variables?.connectionId === c.id}
            data-testid="cancel-request"
          >
            {cancel.isPending && cancel.variables?.connectionId === c.id && <Spinner />} Cancel
          </Button>
        </>
      )}
    </ConnectionList>
  );
}

const EMPTY = {
  sent: {
    icon: <SendIcon size={22} />,
    title: "Nothing waiting on others",
    body: "Requests you or your agents send stay here until they are answered. Find someone to connect with in the Directory.",
  },
  history: {
    icon: <ClockIcon size={22} />,
    title: "No decisions yet",
    body: "Accepted, declined, cancelled, revoked and blocked connections of you and your agents are listed here.",
  },
};

/** One row per connection, or the list's empty state. `name` makes the test ids: sent-list, sent-row, sent-empty. */
function ConnectionList({
  connections,
  name,
  children,
}: {
  connections: ConnectionView[];
  name: keyof typeof EMPTY;
  children: (c: ConnectionView) => ReactNode;
}) {
  if (connections.length === 0) return <EmptyState {...EMPTY[name]} testId={`${name}-empty`} />;
  return (
    <ul className="divide-y divide-zinc-100 overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs" data-testid={`${name}-list`}>
      {connections.map((c) => (
        <li
          key={c.id}
          className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center"
          data-testid={`${name}-row`}
          data-connection-id={c.id}
          data-status={c.status}
          data-requester={c.requester.handle}
          data-addressee={c.addressee.handle}
        >
          {children(c)}
        </li>
      ))}
    </ul>
  );
}

/** Who asked whom: "A → B", or "A blocked B". */
function Parties({ connection: c, meId }: { connection: ConnectionView; meId: string }) {
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <Who side={c.requester} meId={meId} />
      <span className="text-zinc-500">{c.status === "blocked" ? "blocked" : "→"}</span>
      <Who side={c.addressee} meId={meId} />
    </div>
  );
}

function History() {
  const trpc = useTRPC();
  const { me } = useViewer();
  const history = useInfiniteQuery(trpc.connections.list.infiniteQueryOptions({ status: "history" }, { getNextPageParam: (page) => page.nextCursor }));
  const [revoking, setRevoking] = useState<ConnectionView | null>(null);
  const connections = useMemo(() => history.data?.pages.flatMap((p) => p.connections) ?? [], [history.data]);
  if (history.isPending) return <SkeletonRows rows={4} />;
  if (history.isError) return <ErrorState error={history.error} onRetry={() => void history.refetch()} title="Couldn't load the history" />;
  return (
    <>
      <ConnectionList connections={connections} name="history">
        {(c) => (
          <>
            <div className="shrink-0 sm:w-24">
              <StatusPill status={c.status} />
            </div>
            <div className="min-w-0 flex-1 space-y-1 text-sm">
              <Parties connection={c} meId={me.id} />
              <div className="text-xs text-zinc-500" title={dateTime(c.endedAt ?? c.decidedAt ?? c.createdAt)} data-testid="history-decision">
                <Decision connection={c} meId={me.id} />
                {c.status === "accepted" && c.expiresAt && (
                  <>
                    {" · "}
                    <Expiry expiresAt={c.expiresAt} />
                  </>
                )}
              </div>
            </div>
            {(c.can.revoke || c.can.unblock) && (
              <Button variant="secondary" size="sm" onClick={() => setRevoking(c)} data-testid="revoke-connection">
                {c.can.unblock ? "Unblock" : "Revoke"}
              </Button>
            )}
          </>
        )}
      </ConnectionList>
      <LoadMore history={history} />
      <RevokeDialog connection={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}

/** Older history, one page at a time; a failed page says so where the button was. */
function LoadMore({
  history,
}: {
  history: { hasNextPage: boolean; isFetchingNextPage: boolean; isFetchNextPageError: boolean; error: unknown; fetchNextPage: () => Promise<unknown> };
}) {
  if (!history.hasNextPage) return null;
  return (
    <div className="mt-3 flex flex-col items-center gap-2">
      {history.isFetchNextPageError && (
        <p role="alert" className="text-sm text-rose-700" data-testid="history-load-more-error">
          Couldn&apos;t load older connections: {errorMessage(history.error)}
        </p>
      )}
      <Button variant="secondary" size="sm" onClick={() => void history.fetchNextPage()} disabled={history.isFetchingNextPage} data-testid="history-load-more">
        {history.isFetchingNextPage && <Spinner />} {history.isFetchNextPageError ? "Try again" : "Load older connections"}
      </Button>
    </div>
  );
}

function Decision({ connection: c, meId }: { connection: ConnectionView; meId: string }) {
  const by = c.decidedBy ? (c.decidedBy.id === meId ? "you" : c.decidedBy.displayName) : null;
  const when = c.decidedAt ? relativeTime(c.decidedAt) : relativeTime(c.createdAt);
  const endedBy = c.endedBy ? participantName(c, c.endedBy, meId) : null;
  const ended = c.endedAt ? relativeTime(c.endedAt) : when;
  switch (c.status) {
    case "accepted":
      return (
        <>
          {by ? `Accepted by ${by}` : "Accepted automatically by the agent's consent policy"} · {when}
        </>
      );
    case "declined":
      return (
        <>
          {by ? `Declined by ${by}` : "Declined automatically by the agent's consent policy"} · {when}
        </>
      );
    case "blocked":
      return (
        <>
          Blocked{by ? ` by ${by}` : ""} · {when}
        </>
      );
    case "cancelled":
      return (
        <>
          Withdrawn{endedBy ? ` by ${endedBy}` : " by the asker"} before a decision · {ended}
        </>
      );
    case "revoked":
      // No one ends a connection without a name but the server, when a new request replaces an expired one.
      return endedBy ? (
        <>
          Revoked by {endedBy} · {ended}
        </>
      ) : (
        <>Expired, then replaced by a new request · {ended}</>
      );
    default:
      return <>{when}</>;
  }
}

function RevokeDialog({ connection: c, onClose }: { connection: ConnectionView | null; onClose: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const blocked = c?.can.unblock ?? false;
  const revoke = useMutation(
    trpc.connections.revoke.mutationOptions({
      onSuccess: () => {
        refresh();
        toast(blocked ? "Unblocked" : "Connection revoked");
        close();
      },
    }),
  );
  const close = () => {
    revoke.reset();
    onClose();
  };
  const other = c ? (c.viewerSides.requester ? c.addressee : c.requester) : null;
  return (
    <ConfirmDialog
      open={c !== null}
      onClose={close}
      title={blocked ? "Unblock?" : "Revoke this connection?"}
      testId="revoke-connection-dialog"
      error={revoke.error}
      confirm={{
        label: blocked ? "Unblock" : "Revoke",
        variant: blocked ? "primary" : "danger",
        busy: revoke.isPending,
        onConfirm: () => c && revoke.mutate({ connectionId: c.id }),
        testId: "confirm-revoke-connection",
      }}
    >
      {other &&
        (blocked ? (
          <p>
            {other.displayName} (@{other.handle}) may ask to connect again. Nothing else changes until someone accepts.
          </p>
        ) : (
          <p>
            From now on {other.displayName} (@{other.handle}) can no longer open a direct message with, invite or mention the other side. Rooms you already
            share stay as they are. They can ask again.
          </p>
        ))}
    </ConfirmDialog>
  );
}
