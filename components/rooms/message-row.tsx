"use client";
// One line of a timeline: a message (full header or continued block), a room event, or a send still
// in flight. Rows are measured by the virtualizer, so everything a row shows lives inside it.
import { memo, useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { ErrorShape, MessageView, ReceiptView } from "@switchboard/sdk/contract";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { ProfileTrigger } from "@/components/profile/profile-card";
import { ParticipantStatus } from "@/components/profile/status-emoji";
import { ParticipantWorkspaceTag } from "@/components/workspace/workspace-marks";
import { ParticipantAvatar } from "@/components/profile/participant-avatar";
import { AlertIcon, LinkIcon, MessageIcon, PencilIcon, RefreshIcon, TrashIcon, UsersIcon, XIcon } from "@/components/ui/icons";
import { toast } from "@/components/ui/toast";
import { messageHref } from "./message-href";
import { continuesGroup, dayKey, dayLabel, eventText, fullTimeLabel, replyLabel, timeLabel } from "./format";
import { Markdown } from "./markdown";
import { MessageFiles } from "@/components/files/message-files";
import { useMentionHandles } from "./mention-handles";
import { focusComposer, moveMessageFocus, useEditing, useListFocus } from "./message-focus";
import { isComposing } from "@/components/keyboard/keys";
import type { PendingMessage } from "./room-store";
import { MessageSheet, useLongPress } from "./message-sheet";
import { MoreIcon, PinIcon, Popover, ReactionBar, EmojiPicker, SmileIcon, UnreadIcon } from "./reactions";
import { isQuestionOutcome, jumpToRenderedMessage, QuestionMessage, QuestionOutcomeLine } from "@/components/questions/question-message";

export interface MessageActions {
  onReply?: (m: MessageView) => void;
  onEdit: (m: MessageView, body: string) => Promise<ErrorShape | null>;
  onDelete: (m: MessageView) => void;
  onRetry?: (clientMsgId: string) => void;
  onDiscard?: (clientMsgId: string) => void;
  /** Brings a message (a question's card) into view; rows not in a virtualized list are found in the page. */
  onJump?: (messageId: string) => void;
  /** Reactions, pins and "mark unread from here" (sdk/reactions.ts); absent where a list does not offer them. */
  onReact?: (m: MessageView, emoji: string, on: boolean) => void;
  onPin?: (m: MessageView, pinned: boolean) => void;
  onMarkUnread?: (m: MessageView) => void;
  /** What the viewer may do with a (text, not deleted) message: the server's answer, never derived here. */
  allowed: (m: MessageView) => { edit: boolean; delete: boolean; react?: boolean; pin?: boolean; markUnread?: boolean };
}

/** A message drawn as a text row (with its actions, and focusable): not a question's card, an outcome or an event line. */
export function isTextRow(m: MessageView): boolean {
  return !(m.kind === "question" && !m.deletedAt) && !isQuestionOutcome(m) && m.kind !== "event" && m.kind !== "system";
}

export function DayDivider({ iso }: { iso: string }) {
  return (
    <div className="relative flex items-center justify-center px-5 pt-4 pb-1" role="separator">
      <div className="absolute inset-x-5 top-1/2 h-px translate-y-1.5 bg-zinc-200" />
      <span className="relative rounded-full border border-zinc-200 bg-white px-3 py-0.5 text-xs font-medium text-zinc-600 shadow-xs">{dayLabel(iso)}</span>
    </div>
  );
}

export const MessageRow = memo(function MessageRow({
  message: m,
  prev,
  meId,
  meHandle,
  nameOf,
  actions,
  inThread = false,
}: {
  message: MessageView;
  prev: MessageView | undefined;
  meId: string;
  meHandle: string;
  nameOf: (id: string) => string;
  actions: MessageActions;
  inThread?: boolean;
}) {
  const newDay = !prev || dayKey(prev.createdAt) !== dayKey(m.createdAt);
  const divider = newDay && !inThread ? <DayDivider iso={m.createdAt} /> : null;

  if (m.kind === "question" && !m.deletedAt) {
    return (
      <div data-testid="message" data-kind="question" data-seq={m.seq} data-message-id={m.id} data-author={m.author.handle}>
        {divider}
        <QuestionMessage m={m} meId={meId} meHandle={meHandle} />
        <div className="pl-[68px] pr-5">
          <ReactionBar m={m} meId={meId} nameOf={nameOf} onReact={reactWith(actions, m)} offerAlways hint={approvalHint(m)} />
        </div>
      </div>
    );
  }

  if (isQuestionOutcome(m)) {
    return (
      <div data-testid="message" data-kind="event" data-seq={m.seq}>
        {divider}
        <QuestionOutcomeLine m={m} nameOf={nameOf} onJump={(id) => (actions.onJump ? actions.onJump(id) : jumpToRenderedMessage(id))} />
      </div>
    );
  }

  if (m.kind === "event" || m.kind === "system") {
    return (
      <div data-testid="message" data-kind="event" data-seq={m.seq}>
        {divider}
        <div className="flex items-center gap-2 px-5 py-1 pl-[68px] text-[13px] text-zinc-500" data-testid="event-line">
          <UsersIcon size={13} className="shrink-0 text-zinc-400" />
          <span className="min-w-0 wrap-anywhere">{m.kind === "system" ? m.body : eventText(m, nameOf)}</span>
          <time className="text-xs text-zinc-500" dateTime={m.createdAt} title={fullTimeLabel(m.createdAt)}>
            {timeLabel(m.createdAt)}
          </time>
        </div>
      </div>
    );
  }

  const grouped = !newDay && continuesGroup(prev, m);
  return (
    <div data-testid="message" data-kind="text" data-seq={m.seq} data-message-id={m.id} data-author={m.author.handle}>
      {divider}
      <TextMessage m={m} grouped={grouped} meId={meId} meHandle={meHandle} nameOf={nameOf} actions={actions} inThread={inThread} />
    </div>
  );
});

function TextMessage({
  m,
  grouped,
  meId,
  meHandle,
  nameOf,
  actions,
  inThread,
}: {
  m: MessageView;
  grouped: boolean;
  meId: string;
  meHandle: string;
  nameOf: (id: string) => string;
  actions: MessageActions;
  inThread: boolean;
}) {
  const row = useRef<HTMLDivElement>(null);
  const focus = useListFocus();
  const edits = useEditing();
  const editing = edits.editing?.id === m.id && edits.editing.scope === focus.scope;
  const mine = m.author.id === meId;
  const deleted = m.deletedAt !== null;
  const mentionsMe = !deleted && m.mentions.includes(meId) && !mine;
  const mentionHandles = useMentionHandles(m.mentions);
  const allowed = actions.allowed(m);
  const canReply = !inThread && !!actions.onReply;
  const startEditing = () => edits.start(focus.scope, m.id);
  const react = reactWith(actions, m);
  const pin = allowed.pin && actions.onPin && (() => actions.onPin?.(m, !m.pinned));
  const markUnread = allowed.markUnread && actions.onMarkUnread && (() => actions.onMarkUnread?.(m));
  const [picking, setPicking] = useState(false);
  const [sheet, setSheet] = useState(false);
  const longPress = useLongPress(() => !deleted && !editing && setSheet(true));
  // Focus from the keyboard (not a click) shows the actions. Kept in state, not in CSS (:focus-within):
  // moving focus from the message to an action must not hide the action while focus is on its way.
  const [keyboardFocus, setKeyboardFocus] = useState(false);

  // Keys on the focused message itself (not on a link or a button inside it).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || isComposing(e.nativeEvent) || e.ctrlKey || e.metaKey || e.altKey) return;
    const remove = allowed.delete && !deleted && (() => actions.onDelete(m));
    const commands: Record<string, false | (() => unknown)> = {
      t: canReply && (() => actions.onReply?.(m)),
      e: allowed.edit && !deleted && startEditing,
      r: !!react && !deleted && (() => setPicking(true)),
      p: !!pin && !deleted && pin,
      u: !!markUnread && markUnread,
      Delete: remove,
      Backspace: remove,
    };
    const command = commands[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (command) command();
    else if (e.key === "Escape" ? !focusComposer(focus.scope) : !moveMessageFocus(e)) return;
    e.preventDefault();
  };

  return (
    <div
      ref={row}
      tabIndex={focus.tabbableId === m.id ? 0 : -1}
      onFocus={(e) => {
        focus.setActive(m.id);
        if (e.target.matches(":focus-visible")) setKeyboardFocus(true);
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setKeyboardFocus(false);
      }}
      onKeyDown={onKeyDown}
      {...longPress}
      data-keyboard-focus={keyboardFocus || undefined}
      data-pinned={m.pinned ? true : undefined}
      data-message-row
      role="article"
      aria-roledescription="message"
      aria-label={`${m.author.displayName}, ${fullTimeLabel(m.createdAt)}${deleted ? ", deleted" : ""}`}
      className={`group relative flex gap-3 px-5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-inset ${grouped ? "py-0.5" : "pt-2 pb-0.5"} ${
        mentionsMe ? "bg-amber-50/70 hover:bg-amber-50" : editing ? "bg-indigo-50/40" : "hover:bg-zinc-50 focus-visible:bg-zinc-50"
      }`}
    >
      <div className="w-9 shrink-0">
        {grouped ? (
          <time
            className="invisible block pt-[3px] text-right text-[11px] leading-5 text-zinc-500 group-hover:visible group-data-[keyboard-focus]:visible"
            dateTime={m.createdAt}
            title={fullTimeLabel(m.createdAt)}
          >
            {timeLabel(m.createdAt).replace(/\s?[AP]M$/i, "")}
          </time>
        ) : (
          <ProfileTrigger id={m.author.id} label={m.author.displayName} className="block rounded-full" tabbable={false}>
            <ParticipantAvatar id={m.author.id} name={m.author.displayName} kind={m.author.kind} />
          </ProfileTrigger>
        )}
      </div>
      <div className="min-w-0 flex-1">
        {m.pinned && !deleted && (
          <div className="flex items-center gap-1 text-[11px] leading-4 font-medium text-amber-700" data-testid="pinned-marker">
            <PinIcon size={11} /> Pinned{m.pinned.byId ? ` by ${m.pinned.byId === meId ? "you" : nameOf(m.pinned.byId)}` : ""}
          </div>
        )}
        {!grouped && (
          <div className="flex items-baseline gap-2 leading-5">
            <ProfileTrigger id={m.author.id} label={m.author.displayName} className="min-w-0 truncate text-[15px] font-semibold text-zinc-900" tabbable={false}>
              <span data-testid="message-author">{m.author.displayName}</span>
            </ProfileTrigger>
            <KindBadge kind={m.author.kind} className="translate-y-[-1px]" />
            <ParticipantWorkspaceTag id={m.author.id} className="translate-y-[-1px]" />
            <ParticipantStatus id={m.author.id} />
            <time className="text-xs text-zinc-500" dateTime={m.createdAt} title={fullTimeLabel(m.createdAt)}>
              {timeLabel(m.createdAt)}
            </time>
          </div>
        )}
        {deleted ? (
          <p className="text-[15px] leading-[1.45] text-zinc-500 italic" data-testid="message-deleted">
            message deleted
          </p>
        ) : editing ? (
          <InlineEditor
            initial={m.body}
            onCancel={() => edits.stop(row.current)}
            onSave={async (body) => {
              if (body.trim() === m.body.trim()) return edits.stop(row.current);
              const error = await actions.onEdit(m, body);
              if (!error) edits.stop(row.current);
              return error;
            }}
          />
        ) : (
          <div className="flex flex-wrap items-end gap-x-1.5">
            <div className="min-w-0 max-w-full">
              <Markdown body={m.body} meHandle={meHandle} mentions={mentionHandles} foldId={m.id} />
            </div>
            {m.editedAt && (
              <span className="text-[11px] leading-5 text-zinc-500" title={`Edited ${fullTimeLabel(m.editedAt)}`} data-testid="edited-marker">
                (edited)
              </span>
            )}
          </div>
        )}
        {!deleted && m.files?.length > 0 && <MessageFiles files={m.files} />}
        {!deleted && <ReactionBar m={m} meId={meId} nameOf={nameOf} onReact={react} />}
        {!deleted && m.receipts?.length > 0 && <Receipts receipts={m.receipts} nameOf={nameOf} />}
        {!inThread && m.replyCount > 0 && (
          <button
            type="button"
            data-testid="thread-summary"
            onClick={() => actions.onReply?.(m)}
            className="mt-1 -ml-1.5 inline-flex items-center gap-2 rounded-md border border-transparent px-1.5 py-0.5 text-[13px] font-semibold text-indigo-600 hover:border-zinc-200 hover:bg-white"
          >
            <MessageIcon size={14} />
            {replyLabel(m.replyCount)}
            {m.lastReplyAt && <span className="font-normal text-zinc-500">Last reply {timeLabel(m.lastReplyAt)}</span>}
          </button>
        )}
      </div>
      {!deleted && !editing && (
        <div
          className="absolute -top-3 right-4 z-10 hidden items-center rounded-md border border-zinc-200 bg-white p-0.5 shadow-sm group-hover:flex group-data-[keyboard-focus]:flex"
          role="group"
          aria-label="Message actions"
          data-testid="message-actions"
        >
          {canReply && (
            <ActionButton label="Reply in thread" testId="action-reply" onClick={() => actions.onReply?.(m)}>
              <MessageIcon size={15} />
            </ActionButton>
          )}
          {react && (
            <ActionButton label="Add a reaction" testId="action-react" onClick={() => setPicking(true)}>
              <SmileIcon size={15} />
            </ActionButton>
          )}
          <ActionButton label="Copy link to message" testId="action-copy-link" onClick={() => void copyLink(m)}>
            <LinkIcon size={15} />
          </ActionButton>
          {pin && (
            <ActionButton label={m.pinned ? "Unpin from the room" : "Pin to the room"} testId="action-pin" onClick={pin}>
              <PinIcon size={15} />
            </ActionButton>
          )}
          {markUnread && (
            <ActionButton label="Mark unread from here" testId="action-mark-unread" onClick={markUnread}>
              <UnreadIcon size={15} />
            </ActionButton>
          )}
          {allowed.edit && (
            <ActionButton label="Edit message" testId="action-edit" onClick={startEditing}>
              <PencilIcon size={15} />
            </ActionButton>
          )}
          {allowed.delete && (
            <ActionButton label="Delete message" testId="action-delete" onClick={() => actions.onDelete(m)} danger>
              <TrashIcon size={15} />
            </ActionButton>
          )}
        </div>
      )}
      {!deleted && !editing && (
        <button
          type="button"
          aria-label="More actions"
          data-testid="message-more"
          onClick={() => setSheet(true)}
          className="absolute top-1 right-2 hidden rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 max-sm:flex [@media(hover:none)]:flex"
        >
          <MoreIcon size={16} />
        </button>
      )}
      {picking && react && (
        <Popover
          onClose={() => {
            setPicking(false);
            row.current?.focus({ preventScroll: true });
          }}
          className="top-7 right-4"
        >
          <EmojiPicker
            onPick={(emoji) => {
              setPicking(false);
              row.current?.focus({ preventScroll: true });
              react(emoji, !reactedWith(m, meId, emoji));
            }}
          />
        </Popover>
      )}
      {sheet && (
        <MessageSheet
          message={m}
          pinned={!!m.pinned}
          onClose={() => setSheet(false)}
          actions={{
            reply: canReply ? () => actions.onReply?.(m) : undefined,
            react: react ? (emoji) => react(emoji, !reactedWith(m, meId, emoji)) : undefined,
            edit: allowed.edit ? startEditing : undefined,
            remove: allowed.delete ? () => actions.onDelete(m) : undefined,
            copyLink: () => void copyLink(m),
            pin: pin || undefined,
            markUnread: markUnread || undefined,
          }}
        />
      )}
    </div>
  );
}

/** The list's reaction action for one message, when the viewer may react. */
function reactWith(actions: MessageActions, m: MessageView): ((emoji: string, on: boolean) => void) | undefined {
  if (!actions.onReact || !actions.allowed(m).react || m.deletedAt) return undefined;
  return (emoji, on) => actions.onReact?.(m, emoji, on);
}

/** An open approval that a reaction answers says so (`allowReactions` when asked; sdk/reactions.ts). */
function approvalHint(m: MessageView): string | undefined {
  const q = (m.data as { question?: { kind?: string; status?: string; allowReactions?: boolean } } | null)?.question;
  return q?.kind === "approval" && q.status === "open" && q.allowReactions ? "React ✅ or 👍 to approve, ❌ or 👎 to deny" : undefined;
}

const reactedWith = (m: MessageView, meId: string, emoji: string): boolean => !!m.reactions?.some((r) => r.emoji === emoji && r.participantIds.includes(meId));

/** The message's link on the clipboard (it opens the message where it was said, highlighted). */
async function copyLink(m: MessageView): Promise<void> {
  const url = new URL(messageHref(m), window.location.origin).toString();
  try {
    await navigator.clipboard.writeText(url);
    toast("Link copied");
  } catch {
    toast("Couldn't copy the link: the browser refused the clipboard", "error");
  }
}

const RECEIPT_STYLE: Record<ReceiptView["state"], { label: string; className: string; mark: string }> = {
  processing: { label: "working on it", className: "bg-sky-50 text-sky-700 ring-sky-200", mark: "…" },
  processed: { label: "done", className: "bg-emerald-50 text-emerald-700 ring-emerald-200", mark: "✓" },
  failed: { label: "failed", className: "bg-rose-50 text-rose-700 ring-rose-200", mark: "!" },
};

/** What each agent did with this message: working on it, done, or failed (with its reason). */
function Receipts({ receipts, nameOf }: { receipts: ReceiptView[]; nameOf: (id: string) => string }) {
  return (
    <div className="mt-1 flex flex-wrap gap-1.5" data-testid="receipts">
      {receipts.map((r) => {
        const style = RECEIPT_STYLE[r.state];
        return (
          <span
            key={r.participantId}
            className={`inline-flex items-center gap-1 rounded-full px-2 py-px text-[11px] font-medium ring-1 ring-inset ${style.className}`}
            title={`${nameOf(r.participantId)}: ${style.label}${r.reason ? ` (${r.reason})` : ""} · ${fullTimeLabel(r.at)}`}
            data-testid="receipt"
            data-state={r.state}
          >
            <span aria-hidden="true">{style.mark}</span>
            {nameOf(r.participantId)} {style.label}
            {/* Why it failed, where people look: "stopped by @dana", an error's first words. */}
            {r.state === "failed" && r.reason && <span className="max-w-64 truncate font-normal">: {r.reason}</span>}
          </span>
        );
      })}
    </div>
  );
}

function ActionButton({
  label,
  onClick,
  children,
  danger,
  testId,
}: {
  label: string;
  onClick: () => void;
  children: React.ReactNode;
  danger?: boolean;
  testId: string;
}) {
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      data-testid={testId}
      onClick={onClick}
      className={`rounded p-1.5 text-zinc-500 hover:bg-zinc-100 ${danger ? "hover:text-rose-600" : "hover:text-zinc-900"}`}
    >
      {children}
    </button>
  );
}

function InlineEditor({ initial, onSave, onCancel }: { initial: string; onSave: (body: string) => Promise<ErrorShape | null | void>; onCancel: () => void }) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 300)}px`;
  }, [value]);

  const save = async () => {
    if (!value.trim() || saving) return;
    setSaving(true);
    const result = await onSave(value);
    setSaving(false);
    if (result) setError(result.message);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    } else if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void save();
    }
  };

  return (
    <div className="mt-1 mb-1">
      <textarea
        ref={ref}
        data-testid="edit-input"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={onKeyDown}
        rows={1}
        className="block w-full resize-none rounded-md border border-zinc-300 bg-white px-3 py-2 text-[15px] leading-[1.45] shadow-xs focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/20 focus:outline-none"
      />
      <div className="mt-1 flex items-center gap-2 text-xs text-zinc-500">
        {error ? <span className="text-rose-600">{error}</span> : null}
        <span>
          escape to{" "}
          <button type="button" className="text-indigo-600 hover:underline" onClick={onCancel}>
            cancel
          </button>{" "}
          • enter to{" "}
          <button type="button" className="text-indigo-600 hover:underline" onClick={() => void save()}>
            save
          </button>
        </span>
      </div>
    </div>
  );
}

export function PendingRow({
  pending,
  me,
  grouped,
  meHandle,
  onRetry,
  onDiscard,
}: {
  pending: PendingMessage;
  me: { id: string; displayName: string; kind: "human" | "agent" };
  grouped: boolean;
  meHandle: string;
  onRetry: () => void;
  onDiscard: () => void;
}) {
  const failed = pending.status === "failed";
  return (
    <div data-testid="pending-message" data-status={pending.status} data-client-msg-id={pending.clientMsgId}>
      <div className={`flex gap-3 px-5 ${grouped ? "py-0.5" : "pt-2 pb-0.5"} ${failed ? "bg-rose-50/60" : ""}`}>
        <div className="w-9 shrink-0">{!grouped && <Avatar id={me.id} name={me.displayName} kind={me.kind} />}</div>
        <div className="min-w-0 flex-1">
          {!grouped && (
            <div className="flex items-baseline gap-2 leading-5">
              <span className="text-[15px] font-semibold text-zinc-900">{me.displayName}</span>
              <span className="text-xs text-zinc-500">{failed ? "" : "Sending…"}</span>
            </div>
          )}
          <div className={failed ? "" : "opacity-55"}>
            <Markdown body={pending.body} meHandle={meHandle} />
            {pending.files.length > 0 && <MessageFiles files={pending.files} />}
          </div>
          {failed && (
            <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-[13px]" data-testid="send-error">
              <span className="inline-flex items-center gap-1 text-rose-600">
                <AlertIcon size={14} />
                Not sent: {pending.error?.message ?? "unknown error"}
              </span>
              <button
                type="button"
                onClick={onRetry}
                data-testid="retry-send"
                className="inline-flex items-center gap-1 font-medium text-indigo-600 hover:underline"
              >
                <RefreshIcon size={13} /> Retry
              </button>
              <button type="button" onClick={onDiscard} className="inline-flex items-center gap-1 text-zinc-500 hover:text-zinc-800 hover:underline">
                <XIcon size={13} /> Discard
              </button>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
