// The MCP tools: each validates its arguments with a schema built from the socket contract's own
// fields (sdk/contract.ts), resolves `#room` and `@handle` names, calls one service (the same the socket
// and tRPC call, so the same policies decide) and presents the result compactly. No rule lives here.
import { z } from "zod";
import * as contract from "../../../sdk/contract";
import { askQuestionInput, describeAnswer, formField, questionOption, type QuestionForViewer } from "../../../sdk/questions";
import { AppError } from "../../errors";
import type { Actor } from "../../policies";
import * as connections from "../../services/connections";
import * as delivery from "../../services/delivery";
import * as directory from "../../services/directory";
import * as messages from "../../services/messages";
import { resolveParticipant, resolveParticipants, resolveRoom } from "../../services/references";
import { EVENT_LIMITS } from "../../services/request-limits";
import * as questions from "../../services/questions";
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

const waitSeconds = z.number().int().min(0).max(MAX_WAIT_SECONDS).default(45).describe("How long to wait for the answer in this call (call get_answer to wait more)");

/** Waits (up to `seconds`) until the question is decided: its outcome is appended to its room, which wakes the wait. */
async function decided(actor: Actor, questionId: string, seconds: number, signal: AbortSignal): Promise<QuestionForViewer> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const first = await questions.getQuestion(actor, { questionId });
    const wake = untilWake([first.roomId], Math.min(5_000, Math.max(0, deadline - Date.now())), signal);
    // Looked again after listening: an answer committed in between is not missed.
    const q = await questions.getQuestion(actor, { questionId });
    if (q.status !== "open" || Date.now() >= deadline || signal.aborted) {
      wake.cancel();
      return q;
    }
    await wake.done;
  }
}

/** A question's state for the model: the outcome in words, and what to do while it is open. */
function compactQuestion(q: QuestionForViewer) {
  return {
    question_id: q.id,
    status: q.status,
    answer: q.answer,
    answer_text: q.status === "open" ? null : q.status === "cancelled" ? "cancelled" : describeAnswer(q, q.answer),
    answered_by: q.answeredBy ? `@${q.answeredBy.handle}` : null,
    expires_at: q.expiresAt,
    ...(q.status === "open" ? { next: "Nobody has answered yet: call get_answer with this question_id to wait more, or carry on and check later." } : {}),
  };
}

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
    name: "ask_human",
    description:
      'Asks a person a question in a room and waits for the answer: a yes/no approval, a choice, several choices, free text, or a small form. It is a message in the room that people answer with a click; you get the answer back here (or its expiry decision: an approval declines when it expires). Ask your owner ("owner"), someone by "@handle", anyone in the room ("room"), or "admins". Pass the same client_id when you retry. Example: {"room": "#deploys", "question": "Deploy v2 to production?", "kind": "approval", "ask": "owner", "expires_in_seconds": 900}',
    input: z.strictObject({
      room,
      question: askQuestionInput.shape.prompt,
      kind: askQuestionInput.shape.kind.default("text"),
      options: z.array(z.union([questionOption, z.string().trim().min(1).max(100)])).min(2).max(20).optional().describe('For single and multiple: the choices, as labels or {value, label, description}'),
      fields: z.array(formField).min(1).max(20).optional().describe("For form: the fields, each {name, label, type: string|number|integer|boolean|enum, required?, options?, min?, max?}"),
      ask: z.string().trim().min(1).max(64).default("owner").describe('Who answers: "owner", "@handle", "room" (anyone in it) or "admins"'),
      thread_id: askQuestionInput.shape.threadRootId.describe("Ask in the thread of this message"),
      expires_in_seconds: askQuestionInput.shape.expiresInSeconds,
      on_expiry: z.unknown().optional().describe('The answer to take if nobody answers in time, e.g. {"choice": "eu"}; approvals decline by default'),
      client_id: askQuestionInput.shape.clientMsgId.optional().describe("Your id for this question: a retry with the same id asks nothing new"),
      wait_seconds: waitSeconds,
    }),
    readOnly: false,
    limit: EVENT_LIMITS["question:ask"],
    run: async (actor, args, ctx) => {
      const roomId = await resolveRoom(actor, args.room);
      const audience =
        args.ask === "owner" ? { type: "owner" as const } : args.ask === "room" ? { type: "room" as const } : args.ask === "admins" ? { type: "role" as const, role: "admin" as const } : { type: "person" as const, participant: args.ask };
      const options = args.options?.map((o) => (typeof o === "string" ? { value: o, label: o } : o));
      const parsed = askQuestionInput.safeParse({
        roomId,
        threadRootId: args.thread_id,
        clientMsgId: args.client_id ?? crypto.randomUUID(),
        prompt: args.question,
        kind: args.kind,
        options,
        fields: args.fields,
        audience,
        expiresInSeconds: args.expires_in_seconds,
        onExpiry: args.on_expiry,
      });
      if (!parsed.success) throw new AppError("INVALID_PAYLOAD", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
      const asked = await questions.askQuestion(actor, parsed.data);
      return compactQuestion(await decided(actor, asked.id, args.wait_seconds, ctx.signal));
    },
  }),
  tool({
    name: "get_answer",
    description: 'The state of a question you asked with ask_human, waiting up to wait_seconds for it to be answered. Example: {"question_id": "…", "wait_seconds": 45}',
    input: z.strictObject({ question_id: contract.receiptInput.shape.messageId.describe("The question_id ask_human returned"), wait_seconds: waitSeconds }),
    readOnly: true,
    run: async (actor, args, ctx) => compactQuestion(await decided(actor, args.question_id, args.wait_seconds, ctx.signal)),
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
