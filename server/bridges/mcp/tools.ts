// The MCP tools: each validates its arguments with a schema built from the socket contract's own
// fields (sdk/contract.ts), resolves `#room` and `@handle` names, calls one service (the same the socket
// and tRPC call, so the same policies decide) and presents the result compactly. No rule lives here.
import { z } from "zod";
import * as contract from "../../../sdk/contract";
import type { Actor } from "../../policies";
import * as connections from "../../services/connections";
import * as delivery from "../../services/delivery";
import * as directory from "../../services/directory";
import * as messages from "../../services/messages";
import { resolveParticipant, resolveParticipants, resolveRoom } from "../../services/references";
import { EVENT_LIMITS } from "../../services/request-limits";
import * as rooms from "../../services/rooms";
import { sendMessage } from "../../services/sending";
import { touchSession } from "../../services/sessions";
import { reportUsage } from "../../services/usage";
import type { Rule } from "../../services/limits";
import { untilWake } from "../../realtime/wakeups";
import { compactMembership, compactMessage, compactPeer, compactRoom, roomLabel } from "./results";

export interface ToolContext {
  signal: AbortSignal;
}

export interface Tool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: S;
  /** Reads only (a read-only token may call it; hosts may call it without asking). */
  readOnly: boolean;
  /** The socket event's own limit, for tools that do what a chatty event does. */
  limit?: Rule;
  run(actor: Actor, args: z.output<S>, ctx: ToolContext): Promise<Record<string, unknown>>;
}

const tool = <S extends z.ZodObject>(t: Tool<S>): Tool => t as unknown as Tool;

const room = contract.roomRef.describe('The room: "#name" for a channel, or a room id');
const participant = contract.participantRef.describe('Someone: "@handle" or a participant id');
const participants = z.array(participant).min(1).max(100);
const seq = contract.markReadInput.shape.seq;
const messageId = contract.receiptInput.shape.messageId.describe("The message's id");

/** At most this long in one wait_for_messages call: under the tool-call timeouts hosts use. */
export const MAX_WAIT_SECONDS = 50;

export const TOOLS: Tool[] = [
  tool({
    name: "whoami",
    description: "Who you are in this Switchboard workspace: your participant, handle and role.",
    input: z.strictObject({}),
    readOnly: true,
    run: async (actor) => {
      const me = await touchSession(actor);
      return { id: me.id, handle: `@${me.handle}`, name: me.displayName, kind: me.kind, role: actor.role, workspace_id: actor.workspaceId };
    },
  }),
  tool({
    name: "list_rooms",
    description: "The rooms you are in, with each room's last seq and your delivered cursor (what you have acknowledged).",
    input: z.strictObject({}),
    readOnly: true,
    run: async (actor) => ({ rooms: (await delivery.memberships(actor)).map(compactMembership) }),
  }),
  tool({
    name: "read_messages",
    description:
      'A room\'s messages in order. Without after_seq: the latest ones. To continue, pass the returned next_after_seq. Example: {"room": "#general", "limit": 20}',
    input: z.strictObject({
      room,
      after_seq: seq.optional().describe("Only messages after this seq"),
      limit: contract.syncInput.shape.limit.unwrap().max(200).default(50),
    }),
    readOnly: true,
    limit: EVENT_LIMITS["room:sync"],
    run: async (actor, args) => {
      const roomId = await resolveRoom(actor, args.room);
      const afterSeq = args.after_seq ?? Math.max(0, (await rooms.getRoom(actor, roomId)).lastSeq - args.limit);
      const page = await messages.sync(actor, { roomId, afterSeq, limit: args.limit });
      return { room_id: roomId, messages: page.messages.map((m) => compactMessage(m)), next_after_seq: page.lastSeq, has_more: page.hasMore };
    },
  }),
  tool({
    name: "wait_for_messages",
    description:
      "Waits until something addressed to you arrives in any of your rooms (by your delivery mode: mentions, DMs, your threads; or everything in rooms set to all), then returns it. You get the same messages again until you call acknowledge with each room's through_seq, so nothing is lost if you stop midway. Example: {\"timeout_seconds\": 30}",
    input: z.strictObject({
      timeout_seconds: z.number().int().min(0).max(MAX_WAIT_SECONDS).default(30).describe("How long to wait when nothing is waiting already"),
      limit: z.number().int().min(1).max(100).default(20),
    }),
    readOnly: true,
    run: async (actor, args, ctx) => {
      const deadline = Date.now() + args.timeout_seconds * 1000;
      const names = new Map((await delivery.memberships(actor)).map((m) => [m.room.id, roomLabel(m.room)]));
      for (;;) {
        // Listen before looking, so that nothing committed between the look and the wait is missed.
        const wake = untilWake(names.keys(), Math.min(5_000, Math.max(0, deadline - Date.now())), ctx.signal);
        const full = await delivery.pendingFor(actor, args.limit);
        if (full.length > 0 || Date.now() >= deadline || ctx.signal.aborted) {
          wake.cancel();
          return {
            messages: full.flatMap((p) => p.messages.map((m) => compactMessage(m, names.get(p.roomId)))),
            acknowledge: full.map((p) => ({ room_id: p.roomId, room: names.get(p.roomId), through_seq: p.throughSeq, more_waiting: p.hasMore })),
            timed_out: full.length === 0,
          };
        }
        await wake.done;
        // A room joined meanwhile: look at it too from now on.
        for (const m of await delivery.memberships(actor)) names.set(m.room.id, m.room.title);
      }
    },
  }),
  tool({
    name: "acknowledge",
    description:
      'Says you have handled a room\'s messages up to seq (use the through_seq wait_for_messages gave you); they will not be given to you again. Example: {"room": "#general", "seq": 42}',
    input: z.strictObject({ room, seq }),
    readOnly: true, // moves only your own cursor
    run: async (actor, args) => {
      const roomId = await resolveRoom(actor, args.room);
      const { deliveredSeq } = await delivery.ackDelivery(actor, { roomId, seq: args.seq });
      return { room_id: roomId, delivered_seq: deliveredSeq };
    },
  }),
  tool({
    name: "send_message",
    description:
      'Posts a message to a room (or a reply in a thread). Mention people or agents with @handle. Pass the same client_id when you retry, so a retry never posts twice. Example: {"room": "#general", "text": "Build is green @dana", "client_id": "build-42"}',
    input: z.strictObject({
      room,
      text: contract.sendMessageInput.shape.body,
      thread_id: contract.sendMessageInput.shape.threadRootId.describe("Reply in the thread of this message"),
      client_id: contract.sendMessageInput.shape.clientMsgId.optional().describe("Your id for this message: a retry with the same id posts nothing new"),
    }),
    readOnly: false,
    run: async (actor, args) => {
      const roomId = await resolveRoom(actor, args.room);
      const message = await sendMessage(actor, { roomId, body: args.text, clientMsgId: args.client_id ?? crypto.randomUUID(), threadRootId: args.thread_id });
      return { message: compactMessage(message) };
    },
  }),
  tool({
    name: "open_dm",
    description: 'Opens (or finds) a direct conversation with one person or agent, or a group with several. Example: {"participants": ["@dana"]}',
    input: z.strictObject({ participants: participants.max(8) }),
    readOnly: false,
    run: async (actor, args) => ({ room: compactRoom(await rooms.openDirect(actor, await resolveParticipants(actor, args.participants))) }),
  }),
  tool({
    name: "create_room",
    description: 'Creates a channel, optionally with members. Example: {"name": "release-42", "topic": "Shipping 4.2", "members": ["@dana", "@scout"]}',
    input: z.strictObject({
      name: contract.createChannelInput.shape.name,
      visibility: contract.createChannelInput.shape.visibility,
      topic: contract.createChannelInput.shape.topic,
      members: z.array(participant).max(100).default([]),
    }),
    readOnly: false,
    run: async (actor, args) => {
      const memberIds = await resolveParticipants(actor, args.members);
      return { room: compactRoom(await rooms.createChannel(actor, { name: args.name, visibility: args.visibility, topic: args.topic, memberIds })) };
    },
  }),
  tool({
    name: "invite",
    description: 'Adds people or agents to a room you are in. Example: {"room": "#release-42", "participants": ["@scout"]}',
    input: z.strictObject({ room, participants }),
    readOnly: false,
    run: async (actor, args) => {
      const roomId = await resolveRoom(actor, args.room);
      return { room: compactRoom(await rooms.inviteToRoom(actor, roomId, await resolveParticipants(actor, args.participants))) };
    },
  }),
  tool({
    name: "join_room",
    description: 'Joins a public channel. Example: {"room": "#general"}',
    input: z.strictObject({ room }),
    readOnly: false,
    run: async (actor, args) => ({ room: compactRoom(await rooms.joinRoom(actor, await resolveRoom(actor, args.room))) }),
  }),
  tool({
    name: "leave_room",
    description: 'Leaves a room. Example: {"room": "#release-42"}',
    input: z.strictObject({ room }),
    readOnly: false,
    run: async (actor, args) => {
      const roomId = await resolveRoom(actor, args.room);
      await rooms.leaveRoom(actor, roomId);
      return { left: roomId };
    },
  }),
  tool({
    name: "lookup_peers",
    description:
      'Finds people and agents in the workspace by name or handle text, by capability, or by kind, with whether you are connected to each. Example: {"capability": "code-review", "kind": "agent"}',
    input: z.strictObject({
      text: contract.findParticipantsInput.shape.text,
      capability: contract.findParticipantsInput.shape.capability,
      kind: contract.findParticipantsInput.shape.kind,
      limit: contract.findParticipantsInput.shape.limit.unwrap().max(100).default(20),
    }),
    readOnly: true,
    limit: EVENT_LIMITS["directory:search"],
    run: async (actor, args) => ({ peers: (await directory.findParticipants(actor, args)).map(compactPeer) }),
  }),
  tool({
    name: "request_connection",
    description:
      'Asks someone for consent to talk (needed before you can DM or invite someone who asks for consent). Their owner or they decide. Example: {"participant": "@scout", "message": "Can you review my PRs?", "purposes": ["code review"]}',
    input: z.strictObject({
      participant,
      message: contract.requestConnectionInput.shape.message,
      purposes: z.array(z.string().trim().min(1).max(80)).max(10).optional(),
      rooms: z.array(room).max(50).optional().describe("Limit the connection to these rooms"),
      expires_in_days: contract.requestConnectionInput.shape.expiresInDays,
    }),
    readOnly: false,
    limit: EVENT_LIMITS["connection:request"],
    run: async (actor, args) => {
      const participantId = await resolveParticipant(actor, args.participant);
      const roomIds = args.rooms ? await Promise.all(args.rooms.map((r) => resolveRoom(actor, r))) : undefined;
      const scope = roomIds || args.purposes ? { roomIds, purposes: args.purposes } : undefined;
      return { connection: await connections.requestConnection(actor, { participantId, message: args.message, scope, expiresInDays: args.expires_in_days }) };
    },
  }),
  tool({
    name: "list_connection_requests",
    description: 'Your connection requests and connections (and your agents\'), newest change first. Example: {"status": "pending"}',
    input: z.strictObject({ status: contract.listConnectionsInput.shape.status.unwrap().default("pending"), cursor: contract.listConnectionsInput.shape.cursor }),
    readOnly: true,
    run: async (actor, args) => {
      const page = await connections.listConnections(actor, { status: args.status, cursor: args.cursor, limit: 50 });
      return { connections: page.connections, next_cursor: page.nextCursor };
    },
  }),
  tool({
    name: "respond_connection",
    description: 'Accepts or declines a connection request addressed to you or to an agent you own (people decide; agents cannot). Example: {"connection_id": "…", "decision": "accept"}',
    input: z.strictObject({ connection_id: contract.respondToConnectionInput.shape.connectionId, decision: contract.respondToConnectionInput.shape.decision }),
    readOnly: false,
    run: async (actor, args) => ({ connection: await connections.respondToConnection(actor, { connectionId: args.connection_id, decision: args.decision }) }),
  }),
  tool({
    name: "set_status",
    description: 'Sets your status line, shown next to your name (what you are working on). Example: {"status": "Reviewing PR #42"}',
    input: z.strictObject({ status: contract.workStatusInput.shape.workStatus }),
    readOnly: false,
    run: async (actor, args) => ({ status: (await directory.setWorkStatus(actor, { workStatus: args.status })).workStatus }),
  }),
  tool({
    name: "report_usage",
    description:
      'Reports one model call\'s tokens (and cost, if you know it) for the workspace\'s usage dashboards. report_id makes a retry count once. Example: {"report_id": "call-17", "model": "claude-sonnet-4-5", "input_tokens": 1200, "output_tokens": 300}',
    input: z.strictObject({
      report_id: contract.usageReportInput.shape.reportId,
      model: contract.usageReportInput.shape.model,
      input_tokens: contract.usageReportInput.shape.inputTokens,
      output_tokens: contract.usageReportInput.shape.outputTokens,
      cached_tokens: contract.usageReportInput.shape.cachedTokens,
      cost_usd: contract.usageReportInput.shape.costUsd,
      room: room.optional(),
      message_id: contract.usageReportInput.shape.messageId,
      task_id: contract.usageReportInput.shape.taskId,
    }),
    readOnly: false,
    limit: EVENT_LIMITS["usage:report"],
    run: async (actor, args) => {
      const roomId = args.room ? await resolveRoom(actor, args.room) : undefined;
      const usage = await reportUsage(actor, {
        reportId: args.report_id,
        model: args.model,
        inputTokens: args.input_tokens,
        outputTokens: args.output_tokens,
        cachedTokens: args.cached_tokens,
        costUsd: args.cost_usd,
        roomId,
        messageId: args.message_id,
        taskId: args.task_id,
      });
      return { usage };
    },
  }),
  ...(["processing", "processed", "failed"] as const).map((state) =>
    tool({
      name: `mark_${state}`,
      description: {
        processing: 'Tells the room you started working on a message (people see it). Example: {"message_id": "…"}',
        processed: 'Tells the room you finished a message. Example: {"message_id": "…"}',
        failed: 'Tells the room you could not handle a message, and why. Example: {"message_id": "…", "reason": "The build server is down"}',
      }[state],
      input: z.strictObject({
        message_id: messageId,
        reason: state === "failed" ? contract.receiptInput.shape.reason.unwrap().min(1) : contract.receiptInput.shape.reason,
      }),
      readOnly: false,
      run: async (actor, args) => ({ receipt: await delivery.recordReceipt(actor, { messageId: args.message_id, state, reason: args.reason }) }),
    }),
  ),
];
