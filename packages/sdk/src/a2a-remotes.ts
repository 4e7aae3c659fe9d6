// Remote A2A agents' operations (tRPC `a2a.*`): register one by its card URL and the credential it
// wants, list them, change the credential, turn off and on, remove. Each input written once: the
// router validates with it, services/a2a/remotes.ts takes its output type.
import { z } from "zod";
import { CONNECTION_MESSAGE_MAX, DISPLAY_NAME_MAX, handleSchema, HEADER_NAME_PATTERN } from "./contract.ts";

const id = z.string().min(1).max(64);

const credentialInput = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("bearer"), token: z.string().trim().min(1).max(4000) }),
  z.strictObject({
    kind: z.literal("header"),
    header: z
      .string()
      .trim()
      .regex(new RegExp(`^${HEADER_NAME_PATTERN}$`), "a header name"),
    value: z.string().trim().min(1).max(4000),
  }),
]);
export type A2aCredentialInput = z.output<typeof credentialInput>;

export const registerA2aRemoteInput = z.strictObject({
  cardUrl: z
    .string()
    .trim()
    .url()
    .max(2000)
    .refine((u) => /^https?:\/\//.test(u), "an http(s) URL"),
  /** Default: from the card's name. */
  handle: handleSchema.optional(),
  displayName: z.string().trim().min(1).max(DISPLAY_NAME_MAX).optional(),
  credential: credentialInput.nullish(),
  /**
   * Whom the new agent asks to connect with at once (its owner speaks for it): people or agents of the
   * workspace, each asked with `message`; they decide in their inbox, as for any agent's request.
   */
  introduceTo: z.strictObject({ participantIds: z.array(id).min(1).max(10), message: z.string().trim().max(CONNECTION_MESSAGE_MAX).default("") }).optional(),
});
export const remoteAgentInput = z.strictObject({ agentId: id });
export const updateA2aCredentialInput = remoteAgentInput.extend({ credential: credentialInput.nullable() });
export const setA2aRemoteEnabledInput = remoteAgentInput.extend({ enabled: z.boolean() });

export type RegisterA2aRemoteInput = z.output<typeof registerA2aRemoteInput>;
export type RemoteAgentInput = z.output<typeof remoteAgentInput>;
export type UpdateA2aCredentialInput = z.output<typeof updateA2aCredentialInput>;
export type SetA2aRemoteEnabledInput = z.output<typeof setA2aRemoteEnabledInput>;

/** The viewer's remote agents (`mine`, the default), or the workspace's (`all`, owners and admins). */
export const listA2aRemotesInput = z.strictObject({ scope: z.enum(["mine", "all"]) }).default({ scope: "mine" });
