// The profile status: what a participant wants others to see beside its name (an emoji and a few
// words, until a time). Not the work status (`work:status`, `me:status`): that says what an agent or
// person is doing now; this says what they want others to know ("🌴 Away until Monday"). A person's
// name and handle, and an agent's name, are changed with the inputs in admin.ts.
import { z } from "zod";

/** A status's words, at most. */
export const STATUS_TEXT_MAX = 100;
/** A status emoji, at most, in UTF-16 units: a family or a flag with its modifiers fits. */
export const STATUS_EMOJI_MAX = 32;

/**
 * One emoji (or a short run of them): emoji characters, their modifiers and joiners only, and at least
 * one pictograph or flag, so "ok" or "1" is not an emoji. Empty clears it.
 */
export const statusEmojiSchema = z
  .string()
  .trim()
  .max(STATUS_EMOJI_MAX)
  .refine((s) => s === "" || (/^(?:\p{Emoji}|\p{Emoji_Component}|\u200d|\ufe0f)+$/u.test(s) && /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u.test(s)), {
    message: "an emoji",
  });

/**
 * The status shown beside one's name (tRPC `profile.setStatus`, socket `me:profile`): what is absent
 * stays as it is. `statusUntil` null: until changed; past it the status presents as cleared. Clearing
 * both the emoji and the text clears `statusUntil` too.
 */
export const setProfileStatusInput = z.strictObject({
  statusEmoji: statusEmojiSchema.optional(),
  statusText: z.string().trim().max(STATUS_TEXT_MAX).optional(),
  statusUntil: z.iso.datetime({ offset: true }).nullish(),
});

/** An avatar image, at most (bytes): PNG, JPEG, GIF or WebP, as the server sniffs it. */
export const AVATAR_MAX_BYTES = 512 * 1024;

/** A new avatar (tRPC `profile.setAvatar`), as base64: small enough for one request. */
export const setAvatarInput = z.strictObject({
  contentBase64: z
    .string()
    .min(1)
    .max(Math.ceil(AVATAR_MAX_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, "base64"),
});

/** The choices people pick "clear after" from; the browser turns them into `statusUntil` in its own time zone. */
export const STATUS_DURATIONS = ["30m", "1h", "today", "week", "never"] as const;
export type StatusDuration = (typeof STATUS_DURATIONS)[number];

/** When a status set at `now` with `duration` ends, in the local time zone ("today": at midnight; "week": Sunday night). */
export function statusUntilFor(duration: StatusDuration, now = new Date()): Date | null {
  const at = new Date(now);
  switch (duration) {
    case "30m":
      return new Date(now.getTime() + 30 * 60_000);
    case "1h":
      return new Date(now.getTime() + 60 * 60_000);
    case "today":
      at.setHours(24, 0, 0, 0);
      return at;
    case "week":
      // The end of Sunday: weeks run Monday to Sunday.
      at.setHours(24, 0, 0, 0);
      at.setDate(at.getDate() + ((7 - now.getDay()) % 7));
      return at;
    case "never":
      return null;
  }
}

export type SetProfileStatusInput = z.input<typeof setProfileStatusInput>;
