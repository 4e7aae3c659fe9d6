// What the MCP bridge hands back to a model: compact JSON of what the services presented, as text (what
// models read) and as structuredContent (what programs read); an error as a tool result with
// `isError: true` carrying the stable error code, its message, and when to retry.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ChannelView, DirectoryEntry, MembershipView, MessageView, RoomView } from "@switchboard/sdk/contract";
import type { FileView } from "@switchboard/sdk/files";
import { toErrorShape } from "../../errors";

export function ok(data: Record<string, unknown>): CallToolResult {
  // An image (read_file) goes to the model as an image, beside the JSON that says what it is.
  const { image, ...rest } = data as { image?: { data: string; mimeType: string } };
  if (!image) return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
  return {
    content: [
      { type: "text", text: JSON.stringify(rest) },
      { type: "image", ...image },
    ],
    structuredContent: rest,
  };
}

export function failed(error: unknown): CallToolResult {
  const shape = toErrorShape(error);
  const retry = shape.retryAfterMs !== undefined ? ` Retry after ${shape.retryAfterMs} ms.` : "";
  return { isError: true, content: [{ type: "text", text: `${shape.code}: ${shape.message}.${retry}` }], structuredContent: { error: shape } };
}

/** A message as a model needs it: who said what where and when, and how to answer or acknowledge it. */
export function compactMessage(m: MessageView, roomName?: string) {
  return {
    id: m.id,
    room_id: m.roomId,
    ...(roomName ? { room: roomName } : {}),
    seq: m.seq,
    from: `@${m.author.handle}`,
    from_kind: m.author.kind,
    kind: m.kind,
    text: m.deletedAt ? "(deleted)" : m.body,
    ...(m.threadRootId ? { thread_id: m.threadRootId } : {}),
    ...(m.replyCount ? { replies: m.replyCount } : {}),
    ...(m.files?.length ? { files: m.files.map(compactFile) } : {}),
    ...(m.reactions?.length ? { reactions: m.reactions.map((r) => ({ emoji: r.emoji, count: r.count })) } : {}),
    at: m.createdAt,
  };
}

/** A file as a model needs it: what it is, and its id for read_file. */
export function compactFile(f: FileView) {
  return { id: f.id, name: f.name, content_type: f.contentType, size: f.size, ...(f.width ? { width: f.width, height: f.height } : {}) };
}

/** How a model names a room: `#name` for a channel (what tools accept back), else its title. */
export const roomLabel = (room: Pick<RoomView, "kind" | "name" | "title">): string => (room.kind === "channel" && room.name ? `#${room.name}` : room.title);

export function compactRoom(room: RoomView) {
  return {
    id: room.id,
    name: roomLabel(room),
    kind: room.kind,
    visibility: room.visibility,
    topic: room.topic,
    last_seq: room.lastSeq,
    members: room.memberCount,
  };
}

/** A public channel as list_channels gives it: named as every other result names rooms. */
export function compactChannel(channel: ChannelView) {
  return {
    id: channel.id,
    name: `#${channel.name}`,
    topic: channel.topic,
    members: channel.memberCount,
    joined: channel.joined,
    ...(channel.archived ? { archived: true } : {}),
  };
}

export function compactMembership(m: MembershipView) {
  return { ...compactRoom(m.room), delivery_mode: m.deliveryMode, delivered_seq: m.deliveredSeq, read_seq: m.readSeq };
}

export function compactPeer(p: DirectoryEntry) {
  return {
    id: p.id,
    handle: `@${p.handle}`,
    name: p.displayName,
    kind: p.kind,
    description: p.description,
    capabilities: p.capabilities,
    online: p.online,
    status: p.workStatus,
    connection: p.connection,
    ...(p.owner ? { owner: `@${p.owner.handle}` } : {}),
  };
}
