// The platform tools' server side: what each tool runs. Its name, description and argument schema are
// in sdk/platform-tools.ts (the MCP server lists them; adapters hand them to models); here each one
// resolves `#room` and `@handle` names, calls one service (the same the socket and tRPC call, so the
// same policies decide) and presents the result compactly. No rule lives here. MCP (session.ts) and
// the socket's `tool:call` (socket/tool-calls.ts) both run a tool with `runTool`.
import type { z } from "zod";
import { TOOL_NAMES, TOOL_SPECS, type ToolName, type ToolSpec } from "@switchboard/sdk/platform-tools";
import { askQuestionInput, describeAnswer, type QuestionForViewer } from "@switchboard/sdk/questions";
import { AppError } from "../../errors";
import { assertMayWrite, type Actor } from "../../policies";
import * as connections from "../../services/consent/connections";
import * as delivery from "../../services/messaging/delivery";
import * as directory from "../../services/consent/directory";
import * as messages from "../../services/messaging/messages";
import { resolveParticipant, resolveParticipants, resolveRoom } from "../../services/rooms/references";
import { countRequest, EVENT_LIMITS } from "../../services/governance/request-limits";
import * as questions from "../../services/questions/questions";
import { react } from "../../services/questions/reaction-answers";
import * as rooms from "../../services/rooms/rooms";
import * as search from "../../services/search/search";
import * as turns from "../../services/work/turns";
import * as work from "../../services/work/work";
import * as workStatus from "../../services/work/status";
import { linkWorkInput } from "@switchboard/sdk/work";
import { planStep, type TurnStepInput } from "@switchboard/sdk/turns";
import { listConnectionsInput } from "@switchboard/sdk/contract";
import { sendMessage } from "../../services/messaging/sending";
import { setProfileStatus } from "../../services/identity/profiles";
import { touchSession } from "../../services/identity/sessions";
import { reportUsage } from "../../services/usage/usage";
import type { Rule } from "../../services/governance/limits";
import { untilWake } from "../../realtime/wakeups";
import { compactChannel, compactFile, compactMembership, compactMessage, compactPeer, compactRoom, roomLabel } from "./results";
import { fileDisplay, TOOL_FILE_MAX_BYTES } from "@switchboard/sdk/files";
import * as files from "../../services/files/files";

export { MAX_WAIT_SECONDS } from "@switchboard/sdk/platform-tools";

export interface ToolContext {
  signal: AbortSignal;
}

/** A tool as the server runs it: its spec, joined to its run. */
export interface Tool extends ToolSpec {
  /** The socket event's own limit, for tools that do what a chatty event does. */
  limit?: Rule;
  run(actor: Actor, args: Record<string, unknown>, ctx: ToolContext): Promise<Record<string, unknown>>;
}

type Args<N extends ToolName> = z.output<(typeof TOOL_SPECS)[N]["input"]>;

/** What the server does for one tool: the type asks for exactly one per spec, no more. */
type Runs = { [N in ToolName]: { limit?: Rule; run(actor: Actor, args: Args<N>, ctx: ToolContext): Promise<Record<string, unknown>> } };

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

const receipt = (state: "processing" | "processed" | "failed") => ({
  run: async (actor: Actor, args: { message_id: string; reason?: string }) => ({
    receipt: await delivery.recordReceipt(actor, { messageId: args.message_id, state, reason: args.reason }),
  }),
});

export const RUNS: Runs = {
  whoami: {
    run: async (actor) => {
      const me = await touchSession(actor);
      return { id: me.id, handle: `@${me.handle}`, name: me.displayName, kind: me.kind, role: actor.role, workspace_id: actor.workspaceId };
    },
  },
  list_rooms: {
    run: async (actor) => ({ rooms: (await delivery.memberships(actor)).map(compactMembership) }),
  },
  read_messages: {
    limit: EVENT_LIMITS["room:sync"],
    run: async (actor, args) => {
      const roomId = await resolveRoom(actor, args.room);
      const page = await messages.sync(actor, { roomId, afterSeq: args.after_seq, limit: args.limit });
      return { room_id: roomId, messages: page.messages.map((m) => compactMessage(m)), next_after_seq: page.lastSeq, has_more: page.hasMore };
    },
  },
  search_messages: {
    limit: EVENT_LIMITS["search:messages"],
    run: async (actor, args) => {
      const found = await search.searchMessages(actor, args);
      return { messages: found.hits.map((h) => compactMessage(h.message, roomLabel(h.room))), next_cursor: found.nextCursor };
    },
  },
  wait_for_messages: {
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
  },
  acknowledge: {
    run: async (actor, args) => {
      const roomId = await resolveRoom(actor, args.room);
      const { deliveredSeq } = await delivery.ackDelivery(actor, { roomId, seq: args.seq });
      return { room_id: roomId, delivered_seq: deliveredSeq };
    },
  },
  send_message: {
    run: async (actor, args) => {
      const roomId = await resolveRoom(actor, args.room);
      const message = await sendMessage(actor, {
        roomId,
        body: (args.body ?? args.text)!, // the input's refinement: exactly one of them
        clientMsgId: args.client_id ?? crypto.randomUUID(),
        threadRootId: args.thread_id,
        causeId: args.in_reply_to,
        fileIds: args.file_ids,
      });
      const unreached = message.unreached?.map((u) => ({ participant: `@${u.handle}`, reason: u.reason }));
      return { message: compactMessage(message), ...(unreached ? { unreached } : {}) };
    },
  },
  react: {
    limit: EVENT_LIMITS["message:react"],
    run: async (actor, args) => {
      const change = await react(actor, { messageId: args.message_id, emoji: args.emoji, on: args.on });
      return { message_id: change.messageId, reactions: change.reactions.map((r) => ({ emoji: r.emoji, count: r.count })) };
    },
  },
  upload_file: {
    limit: EVENT_LIMITS["file:upload"],
    run: async (actor, args) => {
      const roomId = await resolveRoom(actor, args.room);
      const bytes = Buffer.from(args.content, args.encoding === "base64" ? "base64" : "utf8");
      const file = await files.uploadBytes(actor, { roomId, name: args.name }, bytes, TOOL_FILE_MAX_BYTES);
      return { file: compactFile(file), next: "Attach it: send_message with file_ids: [this id]" };
    },
  },
  read_file: {
    limit: EVENT_LIMITS["file:get"],
    run: async (actor, args) => {
      const { file, content } = await files.readSmallFile(actor, args.file_id, TOOL_FILE_MAX_BYTES);
      if (!content) return { file: compactFile(file), note: `Larger than ${TOOL_FILE_MAX_BYTES} bytes: GET its url with your key` };
      const display = fileDisplay(file);
      if (display === "image") return { file: compactFile(file), image: { data: content.toString("base64"), mimeType: file.contentType } };
      if (display === "download") return { file: compactFile(file), content_base64: content.toString("base64") };
      return { file: compactFile(file), text: content.toString("utf8") };
    },
  },
  open_dm: {
    run: async (actor, args) => ({ room: compactRoom(await rooms.openDirect(actor, await resolveParticipants(actor, args.participants))) }),
  },
  create_room: {
    run: async (actor, args) => {
      const memberIds = await resolveParticipants(actor, args.members);
      return { room: compactRoom(await rooms.createChannel(actor, { name: args.name, visibility: args.visibility, topic: args.topic, memberIds })) };
    },
  },
  invite: {
    run: async (actor, args) => {
      const roomId = await resolveRoom(actor, args.room);
      return { room: compactRoom(await rooms.inviteToRoom(actor, roomId, await resolveParticipants(actor, args.participants))) };
    },
  },
  list_channels: {
    run: async (actor) => ({ channels: (await rooms.browseChannels(actor)).map(compactChannel) }),
  },
  join_room: {
    run: async (actor, args) => ({ room: compactRoom(await rooms.joinRoom(actor, args.room)) }),
  },
  leave_room: {
    run: async (actor, args) => {
      const roomId = await resolveRoom(actor, args.room);
      await rooms.leaveRoom(actor, roomId);
      return { left: roomId };
    },
  },
  lookup_peers: {
    limit: EVENT_LIMITS["directory:search"],
    run: async (actor, args) => ({ peers: (await directory.findParticipants(actor, args)).map(compactPeer) }),
  },
  request_connection: {
    limit: EVENT_LIMITS["connection:request"],
    run: async (actor, args) => {
      const participantId = await resolveParticipant(actor, args.participant);
      const roomIds = args.rooms ? await Promise.all(args.rooms.map((r) => resolveRoom(actor, r))) : undefined;
      const scope = roomIds || args.purposes ? { roomIds, purposes: args.purposes } : undefined;
      return { connection: await connections.requestConnection(actor, { participantId, message: args.message, scope, expiresInDays: args.expires_in_days }) };
    },
  },
  list_connection_requests: {
    run: async (actor, args) => {
      const page = await connections.listConnections(actor, listConnectionsInput.parse({ status: args.status, cursor: args.cursor })); // the contract's page size
      return { connections: page.connections, next_cursor: page.nextCursor };
    },
  },
  respond_connection: {
    run: async (actor, args) => ({ connection: await connections.respondToConnection(actor, { connectionId: args.connection_id, decision: args.decision }) }),
  },
  ask_human: {
    limit: EVENT_LIMITS["question:ask"],
    run: async (actor, args, ctx) => {
      const roomId = await resolveRoom(actor, args.room);
      const audience =
        args.ask === "owner"
          ? { type: "owner" as const }
          : args.ask === "room"
            ? { type: "room" as const }
            : args.ask === "admins"
              ? { type: "role" as const, role: "admin" as const }
              : { type: "person" as const, participant: args.ask };
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
        allowReactions: args.allow_reactions,
      });
      if (!parsed.success) throw new AppError("INVALID_PAYLOAD", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
      const asked = await questions.askQuestion(actor, parsed.data);
      return compactQuestion(await decided(actor, asked.id, args.wait_seconds, ctx.signal));
    },
  },
  get_answer: {
    run: async (actor, args, ctx) => compactQuestion(await decided(actor, args.question_id, args.wait_seconds, ctx.signal)),
  },
  set_status: {
    limit: EVENT_LIMITS["work:status"],
    run: async (actor, args) => {
      if (!args.state) return { status: (await directory.setWorkStatus(actor, { workStatus: args.status })).workStatus };
      const waitingFor = args.waiting_for ? await resolveParticipant(actor, args.waiting_for) : undefined;
      const set = await workStatus.setStatus(actor, { state: args.state, text: args.status, waitingFor, ttlSec: args.ttl_seconds });
      return { status: set.text, state: set.state, waiting_for: set.waitingFor ? `@${set.waitingFor.handle}` : null, until: set.until };
    },
  },
  set_profile_status: {
    limit: EVENT_LIMITS["me:profile"],
    run: async (actor, args) => {
      const until = args.clear_after_minutes ? new Date(Date.now() + args.clear_after_minutes * 60_000).toISOString() : null;
      const me = await setProfileStatus(actor, { statusEmoji: args.emoji, statusText: args.text, statusUntil: until });
      return { emoji: me.statusEmoji, text: me.statusText, until: me.statusUntil };
    },
  },
  report_tasks: {
    limit: EVENT_LIMITS["work:tasks"],
    run: async (actor, args) => {
      const roomId = args.room ? await resolveRoom(actor, args.room) : undefined;
      const tasks = args.tasks.map((t) => ({ key: t.id, title: t.title, status: t.status, parentKey: t.parent_id }));
      const reported = await work.reportTasks(actor, { sessionId: args.session_id, roomId, tasks, complete: args.complete });
      return { tasks: reported.tasks.map((t) => ({ id: t.key, title: t.title, status: t.status })), dropped: reported.dropped };
    },
  },
  report_files: {
    limit: EVENT_LIMITS["work:files"],
    run: async (actor, args) => {
      const roomId = args.room ? await resolveRoom(actor, args.room) : undefined;
      const files = args.files.map((f) => ({ path: f.path, operation: f.operation, linesAdded: f.lines_added, linesRemoved: f.lines_removed }));
      const reported = await work.reportFiles(actor, {
        sessionId: args.session_id,
        roomId,
        taskKey: args.task_id,
        commit: args.commit,
        branch: args.branch,
        files,
      });
      return { recorded: reported.files.length, components: [...new Set(reported.files.flatMap((f) => (f.component ? [f.component] : [])))] };
    },
  },
  link_work: {
    limit: EVENT_LIMITS["work:link"],
    run: async (actor, args) => {
      const roomId = args.room ? await resolveRoom(actor, args.room) : undefined;
      const parsed = linkWorkInput.safeParse({
        sessionId: args.session_id,
        roomId,
        taskKey: args.task_id,
        kind: args.kind,
        value: args.value,
        title: args.title,
      });
      if (!parsed.success) throw new AppError("INVALID_PAYLOAD", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
      const link = await work.linkWork(actor, parsed.data);
      return { kind: link.kind, value: link.value, title: link.title };
    },
  },
  report_usage: {
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
  },
  report_activity: {
    limit: EVENT_LIMITS["turn:steps"],
    run: async (actor, args) => {
      const steps: TurnStepInput[] = [
        ...(args.plan ? [planStep(args.plan)] : []),
        ...args.steps.map((step) => ({ key: `${step.kind}:${step.id}`, kind: step.kind, title: step.title, status: step.status, detail: step.detail })),
      ];
      const tokens = args.input_tokens !== undefined || args.output_tokens !== undefined;
      const { turn, stoppedBy } = await turns.reportTurn(actor, {
        messageId: args.message_id,
        runtime: "mcp",
        steps,
        usage: tokens ? { inputTokens: args.input_tokens ?? 0, outputTokens: args.output_tokens ?? 0 } : undefined,
        end: args.done ? { state: args.error ? "failed" : "done", error: args.error } : undefined,
      });
      if (stoppedBy)
        return {
          turn_id: turn.id,
          state: turn.state,
          stopped_by: `@${stoppedBy.handle}`,
          instruction: `@${stoppedBy.handle} stopped your work on this message: stop it now, and do not reply to it`,
        };
      return { turn_id: turn.id, state: turn.state, steps: turn.stepCount };
    },
  },
  mark_processing: receipt("processing"),
  mark_processed: receipt("processed"),
  mark_failed: receipt("failed"),
};

/** Every tool, in the specs' order: each spec with its run (`Runs` makes it one each). */
export const TOOLS: Tool[] = TOOL_NAMES.map((name) => ({ ...TOOL_SPECS[name], ...(RUNS[name] as Pick<Tool, "limit" | "run">) }));

/**
 * Runs a tool as the actor, as every way of calling it does: a write tool needs a write credential;
 * then the caller's own count (`count`: MCP counts every tool call), the tool's limit, and its
 * arguments (INVALID_PAYLOAD naming the first bad one), all before anything runs.
 */
export async function runTool(t: Tool, actor: Actor, args: unknown, ctx: ToolContext & { count?: () => Promise<void> }): Promise<Record<string, unknown>> {
  if (!t.readOnly) assertMayWrite(actor);
  await ctx.count?.();
  if (t.limit) await countRequest(t.limit, actor, t.name);
  const parsed = t.input.safeParse(args);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new AppError("INVALID_PAYLOAD", first ? `${first.path.join(".") || "arguments"}: ${first.message}` : "Invalid arguments");
  }
  return t.run(actor, parsed.data, { signal: ctx.signal });
}
