// Reactions, pins and "mark unread": the inputs every transport validates (socket, tRPC, MCP) and the
// shapes a message carries for them (`MessageView.reactions`, `MessageView.pinned`).
import { z } from "zod";

/** Distinct emoji on one message, at most (a new one past it is refused with LIMIT_REACHED). */
export const MAX_REACTIONS_PER_MESSAGE = 20;
/** An emoji's UTF-16 length, at most: a family or a flag with modifiers fits, a sentence does not. */
export const EMOJI_MAX_LENGTH = 32;

/** ✅ or 👍 on an approval question that allows reactions approves it; ❌ or 👎 denies it. */
export const APPROVE_EMOJI = ["✅", "👍"] as const;
export const DENY_EMOJI = ["❌", "👎"] as const;

/** The picker's set (any other single emoji may be typed). */
export const COMMON_EMOJI = [
  "👍",
  "👎",
  "✅",
  "❌",
  "❤️",
  "😂",
  "🎉",
  "🙏",
  "👀",
  "🚀",
  "🔥",
  "💯",
  "😄",
  "😮",
  "😢",
  "🤔",
  "👏",
  "🙌",
  "⚠️",
  "🐛",
  "💡",
  "📌",
  "⏳",
  "✨",
] as const;

const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

/** One emoji: a single grapheme (ZWJ sequences, skin tones, flags, keycaps) that is a pictograph. */
export function isSingleEmoji(text: string): boolean {
  if (text.length === 0 || text.length > EMOJI_MAX_LENGTH || /\s/u.test(text)) return false;
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)];
  return graphemes.length === 1 && PICTOGRAPH.test(text);
}

const id = z.string().min(1).max(64);
export const reactionEmoji = z.string().trim().refine(isSingleEmoji, { message: "one emoji" });

/** `message:react`: adds (`on`, the default) or removes the caller's reaction. Doing it twice changes nothing. */
export const reactInput = z.strictObject({ messageId: id, emoji: reactionEmoji, on: z.boolean().default(true) });
/** `message:pin`: pins (`pinned`, the default) or unpins a message in its room's header. */
export const pinInput = z.strictObject({ messageId: id, pinned: z.boolean().default(true) });
/** `room:pins`: a room's pinned messages, the latest pinned first. */
export const pinnedInput = z.strictObject({ roomId: id });
/** `room:unread`: the caller's read cursor moves back to just before this message. */
export const markUnreadInput = z.strictObject({ messageId: id });

export type ReactInput = z.input<typeof reactInput>;

/** One emoji on a message: who reacted with it, first first. */
export interface ReactionView {
  emoji: string;
  count: number;
  participantIds: string[];
}

/** A pinned message's pin: when, and by whom (null when that participant is gone). */
export interface PinView {
  at: string;
  byId: string | null;
}

/** What `message:react` answers and `message:reactions` tells the room: the message's reactions now. */
export interface ReactionsChange {
  roomId: string;
  /** The message's own seq (a reaction takes no seq of its own). */
  seq: number;
  messageId: string;
  reactions: ReactionView[];
}
