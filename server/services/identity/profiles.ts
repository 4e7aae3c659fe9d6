// Profiles: a person's display name and handle, anyone's status beside their name and avatar
// (sdk/profiles.ts), and an agent's display name set by its owner. Each change is told to the workspace
// as `participant:updated` after it commits, as the directory, member lists and timelines show it.
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { AgentView, ParticipantView } from "@switchboard/sdk/contract";
import { AVATAR_MAX_BYTES } from "@switchboard/sdk/profiles";
import { getDb, type Tx } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { agentInclude, presentAgent } from "../../presenters/agent";
import { participantSelect, presentParticipant, presentStatus } from "../../presenters/participant";
import { audience, publish, type Committed } from "../../realtime";
import { fileStorage } from "../../storage";
import { transaction } from "../../transaction";
import { removeBytes } from "../files/files";
import { sniff } from "../files/sniff";
import { recordAudit } from "../governance/audit";

/**
 * A person's own display name and handle. A handle follows sign-up's rules and is unique in the
 * workspace (NAME_TAKEN); mentions of the old handle in old messages stay as they were written.
 */
export async function updateProfile(actor: Actor, input: { displayName?: string; handle?: string }): Promise<ParticipantView> {
  authorize(actor, "profile.update", { workspaceId: actor.workspaceId, participantId: actor.participantId });
  const before = await getDb().participant.findUniqueOrThrow({ where: { id: actor.participantId }, select: { handle: true, displayName: true } });
  const data = {
    ...(input.displayName !== undefined && input.displayName !== before.displayName ? { displayName: input.displayName } : {}),
    ...(input.handle !== undefined && input.handle !== before.handle ? { handle: input.handle } : {}),
  };
  if (Object.keys(data).length === 0) return participantView(actor.participantId);
  let committed;
  try {
    [, committed] = await transaction(async (tx) => {
      await tx.participant.update({ where: { id: actor.participantId }, data });
      await auditProfile(tx, actor, actor.participantId, "participant.profile_updated", {
        ...data,
        ...(data.handle ? { previousHandle: before.handle } : {}),
        ...(data.displayName ? { previousDisplayName: before.displayName } : {}),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("NAME_TAKEN", `@${input.handle} is taken`);
    throw error;
  }
  return announce(committed, actor.workspaceId, actor.participantId);
}

/**
 * The status beside one's own name, for people and agents alike (not the work status). What is
 * absent stays; with neither emoji nor text left there is no status, and no `statusUntil`.
 */
export async function setProfileStatus(
  actor: Actor,
  input: { statusEmoji?: string; statusText?: string; statusUntil?: string | null },
): Promise<ParticipantView> {
  const [, committed] = await transaction(async (tx) => {
    const row = await tx.participant.findUniqueOrThrow({
      where: { id: actor.participantId },
      select: { statusEmoji: true, statusText: true, statusUntil: true },
    });
    // A status that ran out is none: nothing of it carries into the new one.
    const now = presentStatus(row);
    const statusEmoji = input.statusEmoji ?? now.statusEmoji;
    const statusText = input.statusText ?? now.statusText;
    const until = input.statusUntil !== undefined ? input.statusUntil : now.statusUntil;
    const cleared = statusEmoji === "" && statusText === "";
    await tx.participant.update({
      where: { id: actor.participantId },
      data: { statusEmoji, statusText, statusUntil: cleared || !until ? null : new Date(until) },
    });
  });
  return announce(committed, actor.workspaceId, actor.participantId);
}

/** An agent's display name, by its owner or an admin (`agent.manage`). Its handle is its address, and stays. */
export async function renameAgent(actor: Actor, input: { agentId: string; displayName: string }): Promise<AgentView> {
  const agent = await getDb().participant.findUnique({
    where: { id: input.agentId },
    select: { workspaceId: true, kind: true, ownerId: true, displayName: true },
  });
  if (!agent || agent.kind !== "agent") throw new AppError("PARTICIPANT_NOT_FOUND", "No such agent");
  authorize(actor, "agent.manage", agent);
  if (agent.displayName !== input.displayName) {
    const [, committed] = await transaction(async (tx) => {
      await tx.participant.update({ where: { id: input.agentId }, data: { displayName: input.displayName } });
      await auditProfile(tx, actor, input.agentId, "agent.renamed", { displayName: input.displayName, previousDisplayName: agent.displayName });
    });
    await announce(committed, actor.workspaceId, input.agentId);
  }
  return presentAgent(await getDb().participant.findUniqueOrThrow({ where: { id: input.agentId }, include: agentInclude }));
}

/** What an avatar may be: images a browser shows, as the bytes say (not as the uploader says). */
const AVATAR_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * One's own avatar: an image of at most AVATAR_MAX_BYTES, stored as a file of no room (the workspace
 * reads it, at the participant's `avatarUrl`). The one it replaces is deleted, its bytes removed.
 */
export async function setAvatar(actor: Actor, input: { contentBase64: string }): Promise<ParticipantView> {
  const bytes = Buffer.from(input.contentBase64, "base64");
  if (bytes.length > AVATAR_MAX_BYTES) throw new AppError("FILE_TOO_LARGE", `An avatar is at most ${AVATAR_MAX_BYTES} bytes`);
  const sniffed = sniff(bytes, "avatar");
  if (!AVATAR_TYPES.has(sniffed.contentType)) throw new AppError("INVALID_PAYLOAD", "An avatar is a PNG, JPEG, GIF or WebP image");
  const id = newId();
  const storage = fileStorage();
  await storage.put(id, Readable.from([bytes]));
  try {
    return await replaceAvatar(actor, async (tx) => {
      await tx.storedFile.create({
        data: {
          id,
          workspaceId: actor.workspaceId,
          roomId: null,
          uploaderId: actor.participantId,
          name: "avatar",
          size: bytes.length,
          sha256: createHash("sha256").update(bytes).digest("hex"),
          storageKey: id,
          ...sniffed,
        },
      });
      return id;
    });
  } catch (error) {
    await storage.delete(id);
    throw error;
  }
}

/** Back to initials. */
export function removeAvatar(actor: Actor): Promise<ParticipantView> {
  return replaceAvatar(actor, async () => null);
}

async function replaceAvatar(actor: Actor, store: (tx: Tx) => Promise<string | null>): Promise<ParticipantView> {
  const [old, committed] = await transaction(async (tx) => {
    const { avatarFileId } = await tx.participant.findUniqueOrThrow({ where: { id: actor.participantId }, select: { avatarFileId: true } });
    const next = await store(tx);
    await tx.participant.update({ where: { id: actor.participantId }, data: { avatarFileId: next } });
    if (!avatarFileId) return null;
    await tx.storedFile.updateMany({ where: { id: avatarFileId, deletedAt: null }, data: { deletedAt: new Date() } });
    return tx.storedFile.findUnique({ where: { id: avatarFileId }, select: { storageKey: true } });
  });
  if (old) await removeBytes([old.storageKey]);
  return announce(committed, actor.workspaceId, actor.participantId);
}

function auditProfile(tx: Tx, actor: Actor, subjectId: string, action: string, data: Record<string, unknown>) {
  return recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.participantId, action, subjectType: "participant", subjectId, data });
}

async function participantView(id: string): Promise<ParticipantView> {
  return presentParticipant(await getDb().participant.findUniqueOrThrow({ where: { id }, select: participantSelect }));
}

/** Tells the workspace (everyone sees names and statuses, as the directory does) what the participant now looks like. */
async function announce(committed: Committed, workspaceId: string, participantId: string): Promise<ParticipantView> {
  const participant = await participantView(participantId);
  publish(committed, audience.workspace(workspaceId), "participant:updated", { participant });
  return participant;
}
