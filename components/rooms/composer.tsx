"use client";
// The message box. Enter sends, Shift+Enter adds a line; typing is announced at most every 3 s.
// "@" opens a list of the room's people and agents (arrows, Enter or Tab to complete). ↑ in an empty
// box edits the viewer's last message there, as in Slack.
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { MAX_BODY_BYTES, type ParticipantKind } from "@switchboard/sdk/contract";
import { Avatar, KindBadge } from "@/components/ui/avatar";
import { SendIcon } from "@/components/ui/icons";
import { isComposing } from "@/components/keyboard/keys";
import { useWorkStatuses } from "@/components/work/use-work-statuses";
import { WorkStateDot } from "@/components/work/work-state";
import type { FileView } from "@switchboard/sdk/files";
import { PaperclipIcon } from "@/components/files/file-icons";
import { PendingAttachments } from "@/components/files/pending-attachments";
import { useAttachments } from "@/components/files/use-attachments";

const TYPING_EVERY_MS = 3_000;
const MENTION_AT_CARET = /(^|\s)@([a-z0-9_-]{0,38})$/i;

export interface ComposerHandle {
  focus(): void;
  /** Files dropped on the room: uploaded and attached to the next send. */
  addFiles(files: File[]): void;
}

export interface Mentionable {
  id: string;
  handle: string;
  displayName: string;
  kind: ParticipantKind;
}

export const Composer = forwardRef<
  ComposerHandle,
  {
    placeholder: string;
    /** `files`: uploaded already, to attach (never empty without a body, and the reverse). */
    onSend: (body: string, files: FileView[]) => void;
    /** Where files are uploaded; without it, the box takes no files. */
    roomId?: string;
    onTyping: () => void;
    mentionables?: Mentionable[];
    testId?: string;
    autoFocus?: boolean;
    compact?: boolean;
    /** The room's box or a thread's: keyboard shortcuts find it by this (`data-composer`). */
    scope?: "room" | "thread";
    /** ↑ in the empty box: start editing the viewer's last message; false when there is none. */
    onEditLast?: () => boolean;
  }
>(function Composer({ placeholder, onSend, roomId, onTyping, mentionables = [], testId = "composer", autoFocus, compact, scope = "room", onEditLast }, ref) {
  const [value, setValue] = useState("");
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const statuses = useWorkStatuses();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const lastTyping = useRef(0);
  const attachments = useAttachments(roomId);
  const [dropping, setDropping] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const addFiles = attachments.add;

  useImperativeHandle(ref, () => ({ focus: () => textarea.current?.focus(), addFiles }), [addFiles]);

  useEffect(() => {
    if (autoFocus) textarea.current?.focus();
  }, [autoFocus]);

  useEffect(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`;
  }, [value]);

  const suggestions = useMemo(() => {
    if (!mention) return [];
    const q = mention.query.toLowerCase();
    return mentionables
      .filter(
        (p) =>
          p.handle.startsWith(q) ||
          p.displayName
            .toLowerCase()
            .split(/\s+/)
            .some((w) => w.startsWith(q)),
      )
      .slice(0, 6);
  }, [mention, mentionables]);

  const tooLong = new TextEncoder().encode(value).length > MAX_BODY_BYTES;

  const detectMention = (text: string, caret: number) => {
    const match = MENTION_AT_CARET.exec(text.slice(0, caret));
    if (!match) return setMention(null);
    setMention({ start: caret - match[2].length - 1, query: match[2] });
    setActive(0);
  };

  const complete = (p: Mentionable) => {
    const el = textarea.current;
    if (!el || !mention) return;
    const caret = el.selectionStart;
    const next = `${value.slice(0, mention.start)}@${p.handle} ${value.slice(caret)}`;
    const pos = mention.start + p.handle.length + 2;
    setValue(next);
    setMention(null);
    requestAnimationFrame(() => el.setSelectionRange(pos, pos));
  };

  const sendable = (value.trim() !== "" || attachments.ready) && !tooLong && !attachments.uploading;
  const send = () => {
    if (!sendable) return;
    onSend(value, attachments.take());
    setValue("");
    setMention(null);
    lastTyping.current = 0;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mention && suggestions.length > 0) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setActive((i) => (i + step + suggestions.length) % suggestions.length);
        return;
      }
      if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
        e.preventDefault();
        complete(suggestions[active] ?? suggestions[0]);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        setMention(null);
        return;
      }
    }
    if (e.key === "Enter" && !e.shiftKey && !isComposing(e.nativeEvent)) {
      e.preventDefault();
      send();
      return;
    }
    const plainKey = !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey;
    if (e.key === "ArrowUp" && plainKey && value === "" && !isComposing(e.nativeEvent) && onEditLast?.()) e.preventDefault();
  };

  return (
    <div
      className={`relative ${compact ? "px-4" : "px-5"}`}
      onDragOver={(e) => {
        if (!roomId || !e.dataTransfer.types.includes("Files")) return;
        e.preventDefault();
        setDropping(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={(e) => {
        setDropping(false);
        if (!roomId || e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        e.stopPropagation();
        attachments.add(Array.from(e.dataTransfer.files));
      }}
    >
      {mention && suggestions.length > 0 && (
        <ul
          role="listbox"
          aria-label="Mention someone"
          className="animate-pop absolute bottom-full left-5 z-20 mb-1 w-80 overflow-hidden rounded-lg bg-white py-1 shadow-xl ring-1 ring-zinc-900/10"
          data-testid="mention-suggestions"
        >
          <li className="px-3 pt-1 pb-1.5 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">People and agents in this room</li>
          {suggestions.map((p, i) => (
            <li key={p.id} role="option" aria-selected={i === active}>
              <button
                type="button"
                onMouseDown={(e) => {
                  e.preventDefault();
                  complete(p);
                }}
                onMouseEnter={() => setActive(i)}
                className={`flex w-full items-center gap-2.5 px-3 py-1.5 text-left text-sm ${i === active ? "bg-indigo-600 text-white" : "text-zinc-800"}`}
              >
                <Avatar id={p.id} name={p.displayName} kind={p.kind} size={22} />
                <span className="truncate font-medium">{p.displayName}</span>
                <span className={`truncate text-xs ${i === active ? "text-indigo-100" : "text-zinc-500"}`}>@{p.handle}</span>
                <WorkStateDot status={statuses.get(p.id)} />
                <KindBadge kind={p.kind} className="ml-auto" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div
        className={`rounded-lg border bg-white shadow-xs transition focus-within:border-zinc-400 focus-within:shadow-md focus-within:ring-4 focus-within:ring-zinc-100 ${dropping ? "border-indigo-500 ring-4 ring-indigo-100" : "border-zinc-300"}`}
      >
        <PendingAttachments items={attachments.items} onRemove={attachments.remove} />
        <textarea
          ref={textarea}
          data-testid={testId}
          data-composer={scope}
          value={value}
          rows={1}
          placeholder={placeholder}
          aria-label={placeholder}
          onChange={(e) => {
            setValue(e.target.value);
            detectMention(e.target.value, e.target.selectionStart);
            if (e.target.value && Date.now() - lastTyping.current > TYPING_EVERY_MS) {
              lastTyping.current = Date.now();
              onTyping();
            }
          }}
          onSelect={(e) => detectMention(e.currentTarget.value, e.currentTarget.selectionStart)}
          onBlur={() => setMention(null)}
          onKeyDown={onKeyDown}
          onPaste={(e) => {
            // A pasted screenshot or copied files: attached; pasted text stays text.
            const files = Array.from(e.clipboardData.files);
            if (!roomId || files.length === 0) return;
            e.preventDefault();
            attachments.add(files);
          }}
          className="block max-h-60 w-full resize-none border-0 bg-transparent px-3.5 pt-3 pb-1 text-[15px] leading-[1.45] text-zinc-900 placeholder:text-zinc-500 focus:ring-0 focus:outline-none"
        />
        <div className="flex items-center justify-between gap-2 px-2 pb-2">
          <span className="truncate pl-1.5 text-[11px] text-zinc-500">
            {tooLong ? (
              <span className="text-rose-600">Too long: a message is at most 32 KB</span>
            ) : (
              <>
                {!compact && (
                  <>
                    <b className="font-semibold">**bold**</b> · <i>_italic_</i> · <code className="font-mono">`code`</code> ·{" "}
                  </>
                )}
                @ to mention · Shift+Enter for a new line
              </>
            )}
          </span>
          {roomId && (
            <>
              <input
                ref={picker}
                type="file"
                multiple
                hidden
                data-testid={`${testId}-file-input`}
                onChange={(e) => {
                  attachments.add(Array.from(e.target.files ?? []));
                  e.target.value = "";
                }}
              />
              <button
                type="button"
                onClick={() => picker.current?.click()}
                data-testid={`${testId}-attach`}
                aria-label="Attach files"
                title="Attach files (or paste, or drop them here)"
                className="ml-auto inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-md text-zinc-600 transition hover:bg-zinc-100 hover:text-zinc-900"
              >
                <PaperclipIcon size={17} />
              </button>
            </>
          )}
          <button
            type="button"
            onClick={send}
            disabled={!sendable}
            data-testid={`${testId}-send`}
            aria-label="Send message"
            className="inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-md bg-indigo-600 text-white transition hover:bg-indigo-500 disabled:bg-zinc-100 disabled:text-zinc-400"
          >
            <SendIcon size={15} />
          </button>
        </div>
      </div>
    </div>
  );
});
