// An audit log entry as owners and admins read and export it: who did it and what it was about by name
// (@handle, #room), and its details as labelled values, with the data as recorded beside them.

interface AuditRow {
  id: string;
  seq: number;
  action: string;
  actorId: string | null;
  subjectType: string;
  subjectId: string | null;
  data: unknown;
  address: string | null;
  createdAt: Date;
  hash: string;
}

export type AuditParticipant = { id: string; handle: string; displayName: string; kind: string };
export type AuditRoom = { id: string; kind: string; name: string | null };

/** The names an entry's ids resolve to, looked up once for a page of entries. */
export interface AuditNames {
  participants: ReadonlyMap<string, AuditParticipant>;
  rooms: ReadonlyMap<string, AuditRoom>;
}

export interface AuditDetail {
  key: string;
  label: string;
  value: string;
}

/** Subject kinds whose ids are participants' (a budget's person is one too) or rooms'. */
const PARTICIPANT_SUBJECTS = new Set(["participant", "person"]);
const ROOM_SUBJECTS = new Set(["room"]);

/**
 * `data` is what the service that recorded the entry said about it: a JSON object (or nothing), kept as
 * recorded, since the hash chain covers exactly it; `details` says the same in words.
 */
export function presentAuditEvent(r: AuditRow, names: AuditNames) {
  const data = isRecord(r.data) ? r.data : null;
  return {
    id: r.id,
    seq: r.seq,
    action: r.action,
    actor: r.actorId ? (names.participants.get(r.actorId) ?? { id: r.actorId, handle: "unknown", displayName: "Unknown", kind: "human" }) : null,
    subjectType: r.subjectType,
    subjectId: r.subjectId,
    subject: { type: r.subjectType, id: r.subjectId, label: subjectLabel(r.subjectType, r.subjectId, names) },
    details: auditDetails(data, names),
    data,
    address: r.address,
    createdAt: r.createdAt.toISOString(),
    hash: r.hash,
  };
}

/** "@scout", "#general", "a direct message", or null when the subject is not named (a key, an invite). */
export function subjectLabel(type: string, id: string | null, names: AuditNames): string | null {
  if (!id) return null;
  if (PARTICIPANT_SUBJECTS.has(type)) return participantLabel(id, names);
  if (ROOM_SUBJECTS.has(type)) return roomLabel(id, names);
  return null;
}

const participantLabel = (id: string, names: AuditNames) => {
  const p = names.participants.get(id);
  return p ? `@${p.handle}` : null;
};

const roomLabel = (id: string, names: AuditNames) => {
  const room = names.rooms.get(id);
  if (!room) return null;
  return room.kind === "channel" && room.name ? `#${room.name}` : room.kind === "dm" ? "a direct message" : "a group conversation";
};

const LABELS: Record<string, string> = {
  agentId: "Agent",
  roomId: "Room",
  createdById: "Created by",
  viaTokenId: "Via access token",
  inviteId: "Invite link",
  budgetId: "Budget",
  turnId: "Turn",
  messageId: "Message",
  threadRootId: "Thread",
  viaInvite: "Through an invite link",
  maxUses: "Uses allowed",
  expiresAt: "Expires",
  cardUrl: "Card URL",
  messagesPerMinute: "Messages per minute",
  externalId: "External id",
  participantIds: "Who",
};

/** Words from a key: "peopleBurst" → "People burst". */
export function labelOf(key: string): string {
  if (LABELS[key]) return LABELS[key];
  const words = key
    .replace(/_/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;

/** One value in words: an id by its name when it names a participant or a room, a time in UTC, yes/no. */
export function valueOf(key: string, value: unknown, names: AuditNames): string {
  if (value === null || value === undefined) return key === "maxUses" ? "unlimited" : "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return value.toLocaleString("en-US");
  if (typeof value === "string") {
    if (value === "") return "none";
    if (/Id$/.test(key)) return participantLabel(value, names) ?? roomLabel(value, names) ?? value;
    if (ISO_TIME.test(value)) return `${value.slice(0, 10)} ${value.slice(11, 16)} UTC`;
    return value;
  }
  // `participantIds: [...]`: each by its name.
  if (Array.isArray(value)) return value.map((v) => valueOf(key.replace(/Ids$/, "Id"), v, names)).join(", ");
  return JSON.stringify(value);
}

/** The entry's data as labelled values, in the order it was recorded; nothing for no data. */
export function auditDetails(data: Record<string, unknown> | null, names: AuditNames): AuditDetail[] {
  if (!data) return [];
  return Object.entries(data)
    .filter(([, v]) => v !== undefined)
    .map(([key, value]) => ({ key, label: labelOf(key), value: valueOf(key, value, names) }));
}

/** The ids in a page of entries that may name a participant or a room: actors, subjects, and data's `…Id(s)` values. */
export function idsToName(rows: readonly Pick<AuditRow, "actorId" | "subjectType" | "subjectId" | "data">[]): { participants: string[]; rooms: string[] } {
  const participants = new Set<string>();
  const rooms = new Set<string>();
  for (const r of rows) {
    if (r.actorId) participants.add(r.actorId);
    if (r.subjectId && PARTICIPANT_SUBJECTS.has(r.subjectType)) participants.add(r.subjectId);
    if (r.subjectId && ROOM_SUBJECTS.has(r.subjectType)) rooms.add(r.subjectId);
    if (!isRecord(r.data)) continue;
    for (const [key, value] of Object.entries(r.data)) {
      const ids = typeof value === "string" && /Id$/.test(key) ? [value] : Array.isArray(value) && /Ids$/.test(key) ? value : [];
      // Which table an id is in is not always said by its key (`createdById`): the service asks both.
      for (const id of ids) if (typeof id === "string") (key === "roomId" ? rooms : participants).add(id);
    }
  }
  return { participants: [...participants], rooms: [...rooms] };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
