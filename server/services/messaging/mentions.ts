// @handle mentions. Resolution is deterministic: a token names the room member whose handle equals it
// (handles are unique per workspace and compared in lower case); anything else stays plain text.
const MENTION = /(^|[^\w@./-])@([a-z0-9][a-z0-9_-]{0,38})(?![\w-])/gi;

export function mentionedHandles(body: string): string[] {
  const handles = new Set<string>();
  // Code spans and blocks are not mentions.
  const prose = body.replace(/```[\s\S]*?```/g, " ").replace(/`[^`\n]*`/g, " ");
  for (const match of prose.matchAll(MENTION)) handles.add(match[2].toLowerCase());
  return [...handles];
}

export function resolveMentions(body: string, members: { participantId: string; handle: string }[]): string[] {
  const wanted = new Set(mentionedHandles(body));
  return members.filter((m) => wanted.has(m.handle)).map((m) => m.participantId);
}
