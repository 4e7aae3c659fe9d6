"use client";
// The person's profile in Settings: avatar, display name and handle, and the status beside their name
// (an emoji, a few words, and when it clears). Saved with tRPC `profile.*`; everyone sees it live.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { DISPLAY_NAME_MAX, HANDLE_MAX, HANDLE_PATTERN, HANDLE_RULE } from "@switchboard/sdk/contract";
import { AVATAR_MAX_BYTES, STATUS_DURATIONS, STATUS_EMOJI_MAX, STATUS_TEXT_MAX, statusUntilFor, type StatusDuration } from "@switchboard/sdk/profiles";
import { Avatar } from "@/components/ui/avatar";
import { currentStatus, EMOJI_FONT, untilLabel } from "@/components/profile/status-emoji";
import { useTRPC } from "@/components/providers/trpc";
import { useViewer } from "@/components/providers/viewer-provider";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { Field, FormError, inputClass, TextInput } from "@/components/ui/field";
import { toast } from "@/components/ui/toast";
import { useRouter } from "@/components/nav/workspace-routing";

const DURATION_LABELS: Record<StatusDuration, string> = {
  "30m": "30 minutes",
  "1h": "1 hour",
  today: "Today",
  week: "This week",
  never: "Don't clear",
};

/** Statuses people set most, one click each (Slack's list, more or less). */
const PRESETS: { emoji: string; text: string; clear: StatusDuration }[] = [
  { emoji: "🗓️", text: "In a meeting", clear: "1h" },
  { emoji: "🎯", text: "Focusing", clear: "1h" },
  { emoji: "🚌", text: "Commuting", clear: "30m" },
  { emoji: "🤒", text: "Out sick", clear: "today" },
  { emoji: "🌴", text: "On vacation", clear: "never" },
];

const card = "rounded-xl bg-white shadow-xs ring-1 ring-zinc-200";

export function ProfileSettings() {
  return (
    <div className="space-y-4" data-testid="profile-settings">
      <AvatarRow />
      <NameAndHandle />
      <StatusForm />
    </div>
  );
}

/** The file as base64, without its data-URL prefix. */
const base64Of = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error ?? new Error("Couldn't read the file"));
    reader.readAsDataURL(file);
  });

function AvatarRow() {
  const trpc = useTRPC();
  const router = useRouter();
  const { me } = useViewer();
  const [src, setSrc] = useState(me.avatarUrl);
  const [error, setError] = useState<string | null>(null);
  const done = {
    onSuccess: (p: { avatarUrl: string | null }) => {
      setSrc(p.avatarUrl);
      setError(null);
      router.refresh();
    },
    onError: (e: unknown) => setError(errorMessage(e)),
  };
  const upload = useMutation(trpc.profile.setAvatar.mutationOptions(done));
  const remove = useMutation(trpc.profile.removeAvatar.mutationOptions(done));
  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > AVATAR_MAX_BYTES) return setError(`That image is ${Math.ceil(file.size / 1024)} KB; an avatar is at most ${AVATAR_MAX_BYTES / 1024} KB.`);
    upload.mutate({ contentBase64: await base64Of(file) });
  };
  const busy = upload.isPending || remove.isPending;
  return (
    <section className={`${card} flex flex-wrap items-center gap-4 p-5`} aria-label="Avatar" data-testid="avatar-settings">
      <Avatar id={me.id} name={me.displayName} kind={me.kind} size={56} src={src} />
      <div className="min-w-0 flex-1 text-sm">
        <div className="font-medium text-zinc-900">Avatar</div>
        <div className="text-xs text-zinc-500">A PNG, JPEG, GIF or WebP image, up to {AVATAR_MAX_BYTES / 1024} KB. Without one, your initials.</div>
        {error && (
          <p role="alert" className="mt-1 text-xs text-rose-600" data-testid="avatar-error">
            {error}
          </p>
        )}
      </div>
      <label className="inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-md bg-white px-3 text-sm font-medium text-zinc-800 shadow-xs ring-1 ring-zinc-300 ring-inset focus-within:ring-2 focus-within:ring-indigo-500 hover:bg-zinc-50">
        {upload.isPending && <Spinner />} Upload image
        <input
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          className="sr-only"
          disabled={busy}
          onChange={(e) => {
            void pick(e.target.files?.[0]);
            e.target.value = "";
          }}
          data-testid="avatar-input"
        />
      </label>
      {src && (
        <Button variant="ghost" disabled={busy} onClick={() => remove.mutate()} data-testid="avatar-remove">
          Remove
        </Button>
      )}
    </section>
  );
}

function NameAndHandle() {
  const trpc = useTRPC();
  const router = useRouter();
  const { me } = useViewer();
  const [displayName, setDisplayName] = useState(me.displayName);
  const [handle, setHandle] = useState(me.handle);
  const save = useMutation(
    trpc.profile.update.mutationOptions({
      onSuccess: (p) => {
        toast(`Saved: ${p.displayName} (@${p.handle})`);
        router.refresh(); // the signed-in frame shows the new name
      },
    }),
  );
  const changed = displayName.trim() !== me.displayName || handle.trim().toLowerCase() !== me.handle;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (changed) save.mutate({ displayName: displayName.trim(), handle: handle.trim().toLowerCase() });
  };
  const handleChanged = handle.trim().toLowerCase() !== me.handle;
  return (
    <section className={card} aria-labelledby="profile-heading">
      <form onSubmit={submit} className="space-y-4 p-5" data-testid="profile-form">
        <div>
          <h2 id="profile-heading" className="text-[15px] font-semibold text-zinc-900">
            Profile
          </h2>
          <p className="mt-1 text-sm text-zinc-600">How people and agents see you, in rooms and in the directory.</p>
        </div>
        <FormError message={save.error ? errorMessage(save.error) : null} testId="profile-error" />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Display name">
            <TextInput
              value={displayName}
              onChange={(e) => setDisplayName(e.target.value)}
              maxLength={DISPLAY_NAME_MAX}
              required
              data-testid="profile-display-name"
            />
          </Field>
          <Field label="Handle" hint={handleChanged ? `@mentions of @${me.handle} in earlier messages stay as they were written.` : HANDLE_RULE}>
            <div className="relative">
              <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-zinc-500">@</span>
              <TextInput
                value={handle}
                onChange={(e) => setHandle(e.target.value)}
                pattern={HANDLE_PATTERN}
                maxLength={HANDLE_MAX}
                title={HANDLE_RULE}
                required
                className="pl-7"
                data-testid="profile-handle"
              />
            </div>
          </Field>
        </div>
        <div className="flex justify-end">
          <Button type="submit" disabled={!changed || save.isPending} data-testid="profile-save">
            {save.isPending && <Spinner />} Save profile
          </Button>
        </div>
      </form>
    </section>
  );
}

function StatusForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const { me } = useViewer();
  const now = currentStatus(me);
  const [emoji, setEmoji] = useState(now ? me.statusEmoji : "");
  const [text, setText] = useState(now ? me.statusText : "");
  const [clear, setClear] = useState<StatusDuration>("today");
  const [shown, setShown] = useState(now ? { emoji: now.emoji, text: now.text, until: me.statusUntil } : null);
  const save = useMutation(
    trpc.profile.setStatus.mutationOptions({
      onSuccess: (p) => {
        const set = currentStatus(p);
        setShown(set ? { emoji: set.emoji, text: set.text, until: p.statusUntil } : null);
        toast(set ? "Status set" : "Status cleared");
        router.refresh();
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const until = statusUntilFor(clear);
    save.mutate({ statusEmoji: emoji.trim(), statusText: text.trim(), statusUntil: until ? until.toISOString() : null });
  };
  return (
    <section className={card} aria-labelledby="status-heading">
      <form onSubmit={submit} className="space-y-4 p-5" data-testid="status-form">
        <div>
          <h2 id="status-heading" className="text-[15px] font-semibold text-zinc-900">
            Status
          </h2>
          <p className="mt-1 text-sm text-zinc-600" data-testid="status-now">
            {shown ? (
              <>
                Now:{" "}
                <span aria-hidden="true" style={EMOJI_FONT}>
                  {shown.emoji}
                </span>{" "}
                {shown.text} {shown.until && <span className="text-zinc-500">({untilLabel(shown.until)})</span>}
              </>
            ) : (
              "Shown beside your name wherever people look: rooms, members, direct messages and the directory."
            )}
          </p>
        </div>
        <FormError message={save.error ? errorMessage(save.error) : null} testId="status-error" />
        <div className="flex flex-wrap gap-1.5" role="group" aria-label="Common statuses">
          {PRESETS.map((p) => (
            <button
              key={p.text}
              type="button"
              onClick={() => {
                setEmoji(p.emoji);
                setText(p.text);
                setClear(p.clear);
              }}
              className="inline-flex h-8 items-center gap-1.5 rounded-full bg-zinc-50 px-3 text-sm text-zinc-700 ring-1 ring-zinc-200 hover:bg-zinc-100"
              data-testid="status-preset"
            >
              <span aria-hidden="true" style={EMOJI_FONT}>
                {p.emoji}
              </span>{" "}
              {p.text}
            </button>
          ))}
        </div>
        <div className="grid gap-4 sm:grid-cols-[6rem_1fr_11rem]">
          <Field label="Emoji">
            <TextInput
              value={emoji}
              onChange={(e) => setEmoji(e.target.value)}
              maxLength={STATUS_EMOJI_MAX}
              placeholder="💬"
              style={EMOJI_FONT}
              data-testid="status-emoji-input"
            />
          </Field>
          <Field label="What's your status?">
            <TextInput
              value={text}
              onChange={(e) => setText(e.target.value)}
              maxLength={STATUS_TEXT_MAX}
              placeholder="e.g. Reviewing the release"
              data-testid="status-text-input"
            />
          </Field>
          <Field label="Clear after">
            <select value={clear} onChange={(e) => setClear(e.target.value as StatusDuration)} className={inputClass} data-testid="status-clear-after">
              {STATUS_DURATIONS.map((d) => (
                <option key={d} value={d}>
                  {DURATION_LABELS[d]}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="flex justify-end gap-2">
          {shown && (
            <Button
              variant="secondary"
              disabled={save.isPending}
              onClick={() => {
                setEmoji("");
                setText("");
                save.mutate({ statusEmoji: "", statusText: "" });
              }}
              data-testid="status-clear"
            >
              Clear status
            </Button>
          )}
          <Button type="submit" disabled={save.isPending || (!emoji.trim() && !text.trim())} data-testid="status-save">
            {save.isPending && <Spinner />} Set status
          </Button>
        </div>
      </form>
    </section>
  );
}
