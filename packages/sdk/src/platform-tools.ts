// The platform tools, defined once: each tool's name, description, argument schema and whether it only
// reads. The MCP server lists exactly these (server/bridges/mcp/tools.ts joins each to the server code
// that runs it), and agent-framework adapters hand them to a model (`platformTools`), run over the
// socket's `tool:call`: one set of tools, whichever way a model reaches them. The argument schemas
// build on the socket contract's own fields, so a limit is written once for every transport.
import { z } from "zod";
import * as contract from "./contract.ts";
import { askQuestionInput, formField, questionOption } from "./questions.ts";
import * as profiles from "./profiles.ts";
import * as reactions from "./reactions.ts";
import * as files from "./files.ts";
import * as search from "./search.ts";
import * as turns from "./turns.ts";
import * as work from "./work.ts";
import type { PlatformTool } from "./runtime.ts";

export interface ToolSpec<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: S;
  /** Reads only (a read-only token may call it; hosts may call it without asking). */
  readOnly: boolean;
  /** It may wait up to MAX_WAIT_SECONDS before it answers: a caller's timeout must allow for that. */
  waits?: boolean;
}

/** At most this long in one call of a tool that waits: under the tool-call timeouts hosts use. */
export const MAX_WAIT_SECONDS = 50;

/**
 * What MCP hands a client besides tool results: a room's resource is its newest ROOM_RESOURCE_MESSAGES
 * messages; in channel mode, what is addressed to it is pushed at most CHANNEL_PUSH_MESSAGES per room
 * at a time. list_connection_requests pages by the contract's own page (`listConnectionsInput`).
 */
export const ROOM_RESOURCE_MESSAGES = 50;
export const CHANNEL_PUSH_MESSAGES = 50;

const room = contract.roomRef.describe('The room: "#name" for a channel, or a room id');
const participant = contract.participantRef.describe('Someone: "@handle" or a participant id');
const participants = z.array(participant).min(1).max(100);
const seq = contract.markReadInput.shape.seq;
const messageId = contract.receiptInput.shape.messageId.describe("The message's id");
const waitSeconds = z
  .number()
  .int()
  .min(0)
  .max(MAX_WAIT_SECONDS)
  .default(45)
  .describe("How long to wait for the answer in this call (call get_answer to wait more)");

const receipt = (state: "processing" | "processed" | "failed", description: string) => ({
  description,
  input: z.strictObject({
    message_id: messageId,
    reason: state === "failed" ? contract.receiptInput.shape.reason.unwrap().min(1) : contract.receiptInput.shape.reason,
  }),
  readOnly: false,
});

/** Each spec named by its key, so that a name is written once. */
function named<T extends Record<string, Omit<ToolSpec, "name">>>(specs: T): { [K in keyof T & string]: T[K] & { name: K } } {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, { name, ...spec }])) as { [K in keyof T & string]: T[K] & { name: K } };
}

/** Every tool, in the order the MCP server lists them. */
export const TOOL_SPECS = named({
  whoami: {
    description: "Who you are in this Switchboard workspace: your participant, handle and role.",
    input: z.strictObject({}),
    readOnly: true,
  },
  list_rooms: {
    description: "The rooms you are in, with each room's last seq and your delivered cursor (what you have acknowledged).",
    input: z.strictObject({}),
    readOnly: true,
  },
  read_messages: {
    description:
      'A room\'s messages in order. Without after_seq: the latest ones. To continue, pass the returned next_after_seq. Example: {"room": "#general", "limit": 20}',
    input: z.strictObject({
      room,
      after_seq: seq.optional().describe("Only messages after this seq"),
      limit: contract.syncInput.shape.limit.unwrap().max(200).default(50),
    }),
    readOnly: true,
  },
  search_messages: {
    description:
      'Searches the messages you may read: words (all of them; "deploy" finds "deploying"), "exact phrases", -words to leave out, and in:#room, in:@handle (your conversation), from:@handle, from:me, mentions:me, is:thread, has:link, has:file, before:YYYY-MM-DD, after:YYYY-MM-DD, on:YYYY-MM-DD. Best matches first, or sort "date" for the newest. Example: {"query": "flaky login in:#ops from:@dana"}',
    input: z.strictObject({
      query: search.searchMessagesInput.shape.query,
      sort: search.searchMessagesInput.shape.sort,
      limit: search.searchMessagesInput.shape.limit,
      cursor: search.searchMessagesInput.shape.cursor.describe("The previous answer's next_cursor, for the next page"),
    }),
    readOnly: true,
  },
  wait_for_messages: {
    description:
      'Waits until something addressed to you arrives in any of your rooms (by your delivery mode: mentions, DMs, your threads; or everything in rooms set to all), then returns it. You get the same messages again until you call acknowledge with each room\'s through_seq, so nothing is lost if you stop midway. Example: {"timeout_seconds": 30}',
    input: z.strictObject({
      timeout_seconds: z.number().int().min(0).max(MAX_WAIT_SECONDS).default(30).describe("How long to wait when nothing is waiting already"),
      limit: z.number().int().min(1).max(100).default(20),
    }),
    readOnly: true,
    waits: true,
  },
  acknowledge: {
    description:
      'Says you have handled a room\'s messages up to seq (use the through_seq wait_for_messages gave you); they will not be given to you again. Example: {"room": "#general", "seq": 42}',
    input: z.strictObject({ room, seq }),
    readOnly: true, // moves only your own cursor
  },
  send_message: {
    description:
      'Posts a message to a room (or a reply in a thread). Mention people or agents with @handle; attach files you uploaded with file_ids. Pass the same client_id when you retry, so a retry never posts twice. Example: {"room": "#general", "body": "Build is green @dana", "client_id": "build-42"}',
    input: z
      .strictObject({
        room,
        body: contract.sendMessageInput.shape.body.optional().describe("The message (Markdown; @handle mentions)"),
        text: contract.sendMessageInput.shape.body.optional().describe("The same as body, the name earlier versions used: pass one of them"),
        thread_id: contract.sendMessageInput.shape.threadRootId.describe("Reply in the thread of this message"),
        client_id: contract.sendMessageInput.shape.clientMsgId.optional().describe("Your id for this message: a retry with the same id posts nothing new"),
        in_reply_to: contract.sendMessageInput.shape.causeId.describe("The message_id you are answering: its asker is who this serves (cost attribution)"),
        file_ids: files.attachedFileIds.optional().describe("Files to attach: ids upload_file gave you for this room (the body may then be empty)"),
      })
      .refine((args) => (args.body === undefined) !== (args.text === undefined), { message: "Pass the message as body (or text), once", path: ["body"] }),
    readOnly: false,
  },
  react: {
    description:
      'Adds an emoji reaction to a message (or removes yours with "on": false): a light acknowledgement that posts no message. Example: {"message_id": "…", "emoji": "👀"}',
    input: z.strictObject({
      message_id: messageId,
      emoji: reactions.reactInput.shape.emoji.describe("One emoji, e.g. 👍 ✅ 👀 🎉"),
      on: reactions.reactInput.shape.on.describe("false removes your reaction"),
    }),
    readOnly: false,
  },
  upload_file: {
    description:
      'Uploads a file (a document, a report, code, an image) into a room, to attach to a message: pass the id it returns in send_message\'s file_ids. Text as it is, anything else as base64. At most 512 KB here. Example: {"room": "#reviews", "name": "srs.md", "content": "# SRS\\n..."}',
    input: z.strictObject({
      room,
      name: files.uploadFileInput.shape.name.describe("The file's name, e.g. prd.md (its type is read from the content)"),
      content: z
        .string()
        .max(Math.ceil(files.TOOL_FILE_MAX_BYTES / 3) * 4 + 4)
        .describe("The content: text, or base64 with encoding base64"),
      encoding: z.enum(["text", "base64"]).default("text").describe("How content is written"),
    }),
    readOnly: false,
  },
  read_file: {
    description:
      'Reads a file attached to a message you may read (its id is in the message\'s files): text and code as text, an image as an image, anything else as base64, up to 512 KB. Example: {"file_id": "…"}',
    input: z.strictObject({ file_id: files.fileIdInput.shape.fileId.describe("The file's id") }),
    readOnly: true,
  },
  open_dm: {
    description: 'Opens (or finds) a direct conversation with one person or agent, or a group with several. Example: {"participants": ["@dana"]}',
    input: z.strictObject({ participants: participants.max(8) }),
    readOnly: false,
  },
  create_room: {
    description: 'Creates a channel, optionally with members. Example: {"name": "release-42", "topic": "Shipping 4.2", "members": ["@dana", "@scout"]}',
    input: z.strictObject({
      name: contract.createChannelInput.shape.name,
      visibility: contract.createChannelInput.shape.visibility,
      topic: contract.createChannelInput.shape.topic,
      members: z.array(participant).max(100).default([]),
    }),
    readOnly: false,
  },
  invite: {
    description: 'Adds people or agents to a room you are in. Example: {"room": "#release-42", "participants": ["@scout"]}',
    input: z.strictObject({ room, participants }),
    readOnly: false,
  },
  list_channels: {
    description: "The workspace's public channels, with their topics, how many are in each, and whether you are: join one with join_room.",
    input: z.strictObject({}),
    readOnly: true,
  },
  join_room: {
    description: 'Joins a public channel (list_channels lists them). Example: {"room": "#general"}',
    input: z.strictObject({ room }),
    readOnly: false,
  },
  leave_room: {
    description: 'Leaves a room. Example: {"room": "#release-42"}',
    input: z.strictObject({ room }),
    readOnly: false,
  },
  lookup_peers: {
    description:
      'Finds people and agents in the workspace by name or handle text, by capability, or by kind, with whether you are connected to each. Example: {"capability": "code-review", "kind": "agent"}',
    input: z.strictObject({
      text: contract.findParticipantsInput.shape.text,
      capability: contract.findParticipantsInput.shape.capability,
      kind: contract.findParticipantsInput.shape.kind,
      limit: contract.findParticipantsInput.shape.limit.unwrap().max(100).default(20),
    }),
    readOnly: true,
  },
  request_connection: {
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
  },
  list_connection_requests: {
    description: 'Your connection requests and connections (and your agents\'), newest change first. Example: {"status": "pending"}',
    input: z.strictObject({
      status: contract.listConnectionsInput.shape.status.unwrap().default("pending"),
      cursor: contract.listConnectionsInput.shape.cursor,
    }),
    readOnly: true,
  },
  respond_connection: {
    description:
      'Accepts or declines a connection request addressed to you or to an agent you own (people decide; agents cannot). Example: {"connection_id": "…", "decision": "accept"}',
    input: z.strictObject({ connection_id: contract.respondToConnectionInput.shape.connectionId, decision: contract.respondToConnectionInput.shape.decision }),
    readOnly: false,
  },
  ask_human: {
    description:
      'Asks a person a question in a room and waits for the answer: a yes/no approval, a choice, several choices, free text, or a small form. It is a message in the room that people answer with a click; you get the answer back here (or its expiry decision: an approval declines when it expires). Ask your owner ("owner"), someone by "@handle", anyone in the room ("room"), or "admins". Pass the same client_id when you retry. Example: {"room": "#deploys", "question": "Deploy v2 to production?", "kind": "approval", "ask": "owner", "expires_in_seconds": 900}',
    input: z.strictObject({
      room,
      question: askQuestionInput.shape.prompt,
      kind: askQuestionInput.shape.kind.default("text"),
      options: z
        .array(z.union([questionOption, z.string().trim().min(1).max(100)]))
        .min(2)
        .max(20)
        .optional()
        .describe("For single and multiple: the choices, as labels or {value, label, description}"),
      fields: z
        .array(formField)
        .min(1)
        .max(20)
        .optional()
        .describe("For form: the fields, each {name, label, type: string|number|integer|boolean|enum, required?, options?, min?, max?}"),
      ask: z.string().trim().min(1).max(64).default("owner").describe('Who answers: "owner", "@handle", "room" (anyone in it) or "admins"'),
      thread_id: askQuestionInput.shape.threadRootId.describe("Ask in the thread of this message"),
      expires_in_seconds: askQuestionInput.shape.expiresInSeconds,
      on_expiry: z.unknown().optional().describe('The answer to take if nobody answers in time, e.g. {"choice": "eu"}; approvals decline by default'),
      allow_reactions: askQuestionInput.shape.allowReactions.describe("An approval only: a ✅ or 👍 reaction approves it, ❌ or 👎 denies it"),
      client_id: askQuestionInput.shape.clientMsgId.optional().describe("Your id for this question: a retry with the same id asks nothing new"),
      wait_seconds: waitSeconds,
    }),
    readOnly: false,
    waits: true,
  },
  get_answer: {
    description:
      'The state of a question you asked with ask_human, waiting up to wait_seconds for it to be answered. Example: {"question_id": "…", "wait_seconds": 45}',
    input: z.strictObject({ question_id: contract.receiptInput.shape.messageId.describe("The question_id ask_human returned"), wait_seconds: waitSeconds }),
    readOnly: true,
    waits: true,
  },
  set_status: {
    description: `Says what you are doing, shown next to your name and on the Work page. With a state (working, waiting, blocked, idle) it holds for ttl_seconds (default ${work.MODEL_STATUS_TTL_SEC}): call it again to keep it. Example: {"status": "Need the staging password", "state": "waiting", "waiting_for": "@dana"}`,
    input: z.strictObject({
      status: contract.workStatusInput.shape.workStatus,
      state: z.enum(work.WORK_STATES).optional().describe("What you are doing: working, waiting (for someone), blocked, or idle"),
      waiting_for: participant.optional().describe("Whom you wait for (with state waiting)"),
      ttl_seconds: work.setWorkStatusInput.shape.ttlSec
        .unwrap()
        .default(work.MODEL_STATUS_TTL_SEC)
        .describe(`How long the state holds unless you set it again (default ${work.MODEL_STATUS_TTL_SEC})`),
    }),
    readOnly: false,
  },
  set_profile_status: {
    description:
      'Sets the status beside your name, as people set theirs: an emoji and a few words, cleared after clear_after_minutes (else kept until changed); empty emoji and text clear it. Not your work status (set_status). Example: {"emoji": "🛠️", "text": "Migrating the database", "clear_after_minutes": 120}',
    input: z.strictObject({
      emoji: profiles.setProfileStatusInput.shape.statusEmoji.describe("One emoji, or empty to clear it"),
      text: profiles.setProfileStatusInput.shape.statusText.describe(`A few words (up to ${profiles.STATUS_TEXT_MAX} characters), or empty to clear them`),
      clear_after_minutes: z
        .number()
        .int()
        .min(1)
        .max(10_080)
        .optional()
        .describe("Cleared after this many minutes (a week at most); without it, kept until changed"),
    }),
    readOnly: false,
  },
  report_tasks: {
    description:
      'Reports your task list for the current session, in order (the whole list: tasks you leave out are dropped, unless complete is false). Each task has a title, a status (pending, in_progress, completed, dropped) and optionally your own id for it and its parent\'s. Example: {"session_id": "…", "tasks": [{"title": "Add the endpoint", "status": "in_progress"}, {"title": "Write tests"}]}',
    input: z.strictObject({
      session_id: work.reportTasksInput.shape.sessionId.describe(
        "Your runtime's session id (ties the tasks to its room and thread, if one of your runtime bindings has it)",
      ),
      room: room.optional().describe("The room the work is for"),
      tasks: z
        .array(
          z.strictObject({
            id: work.taskInput.shape.key,
            title: work.taskInput.shape.title,
            status: work.taskInput.shape.status,
            parent_id: work.taskInput.shape.parentKey,
          }),
        )
        .max(work.MAX_TASKS_PER_REPORT),
      complete: work.reportTasksInput.shape.complete,
    }),
    readOnly: false,
  },
  report_files: {
    description:
      'Reports files you read, edited, created or deleted (or commands you ran: operation "run", the command as path), for the Work page\'s view of which components agents touch. Example: {"files": [{"path": "server/api.ts", "operation": "edit", "lines_added": 12, "lines_removed": 3}], "branch": "feat/export"}',
    input: z.strictObject({
      session_id: work.reportFilesInput.shape.sessionId,
      room: room.optional(),
      task_id: work.reportFilesInput.shape.taskKey.describe("The task (your id for it, or its title) the files were for"),
      commit: work.reportFilesInput.shape.commit,
      branch: work.reportFilesInput.shape.branch,
      files: z
        .array(
          z.strictObject({
            path: work.fileInput.shape.path,
            operation: work.fileInput.shape.operation,
            lines_added: work.fileInput.shape.linesAdded,
            lines_removed: work.fileInput.shape.linesRemoved,
          }),
        )
        .min(1)
        .max(work.MAX_FILES_PER_REPORT),
    }),
    readOnly: false,
  },
  link_work: {
    description:
      'Ties what your work shipped to it: a branch, a commit, or a pull request (its URL). Example: {"kind": "pull_request", "value": "https://github.com/acme/app/pull/42", "title": "Export usage as CSV"}',
    input: z.strictObject({
      session_id: work.reportFilesInput.shape.sessionId,
      room: room.optional(),
      task_id: work.reportFilesInput.shape.taskKey,
      kind: z.enum(work.LINK_KINDS),
      value: z.string().trim().min(1).max(1000).describe("The branch's name, the commit's hash, or the pull request's URL"),
      title: z.string().trim().min(1).max(300).optional(),
    }),
    readOnly: false,
  },
  report_usage: {
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
  },
  report_activity: {
    description:
      'Shows the people in the room what you are doing on a message, live, under it: call it when you start on a message (its id), as you go (your plan, each step), and with done when you are finished. If a person pressed Stop, the answer says stopped_by: stop working on that message then. Example: {"message_id": "…", "plan": [{"title": "Read the failing test", "status": "completed"}, {"title": "Fix the race", "status": "in_progress"}], "steps": [{"id": "t1", "kind": "tool", "title": "npm test -- auth", "status": "done", "detail": "3 passed"}]}',
    input: z.strictObject({
      message_id: messageId.describe("The message you are working on"),
      plan: turns.turnStepInput.shape.items.describe("Your plan or todo list as it stands now (the whole list)"),
      steps: z
        .array(
          z.strictObject({
            id: turns.turnStepInput.shape.key.describe("Your id for the step: a step with an id it already has is updated"),
            kind: z.enum(["tool", "file", "note"]).default("note"),
            title: turns.turnStepInput.shape.title.describe("One line: a tool call's name and input, a file's path, a note"),
            status: turns.turnStepInput.shape.status,
            detail: turns.turnStepInput.shape.detail.describe("A tool call's result, a note's text: a few lines"),
          }),
        )
        .max(40)
        .default([]),
      input_tokens: z.number().int().min(0).optional().describe("Your tokens so far on this message (the whole amount)"),
      output_tokens: z.number().int().min(0).optional(),
      done: z.boolean().default(false).describe("You are finished with the message"),
      error: turns.endTurnInput.shape.error.describe("With done: what went wrong, if you could not finish"),
    }),
    readOnly: false,
  },
  mark_processing: receipt("processing", 'Tells the room you started working on a message (people see it). Example: {"message_id": "…"}'),
  mark_processed: receipt("processed", 'Tells the room you finished a message. Example: {"message_id": "…"}'),
  mark_failed: receipt("failed", 'Tells the room you could not handle a message, and why. Example: {"message_id": "…", "reason": "The build server is down"}'),
});

export type ToolName = keyof typeof TOOL_SPECS;
export const TOOL_NAMES = Object.keys(TOOL_SPECS) as ToolName[];

/**
 * The delivery loop's own tools: the Agent (sdk/agent.ts) receives, acknowledges, reports receipts,
 * usage and its turns' activity itself, so a model handed the tools by an adapter does not get these.
 */
const LOOP_TOOLS: ReadonlySet<ToolName> = new Set([
  "wait_for_messages",
  "acknowledge",
  "mark_processing",
  "mark_processed",
  "mark_failed",
  "report_usage",
  "report_activity",
]);

/** The tools an agent framework's model gets: every one but the delivery loop's. */
export const ADAPTER_TOOLS: readonly ToolName[] = TOOL_NAMES.filter((name) => !LOOP_TOOLS.has(name));

/** `tool:call`: one tool by name, and its arguments (checked against the tool's own schema by the server). */
export const toolCallInput = z.strictObject({
  name: z.enum(TOOL_NAMES, { error: (issue) => (typeof issue.input === "string" ? `no tool "${issue.input.slice(0, 64)}"` : undefined) }),
  args: z.record(z.string(), z.unknown()).default({}),
});

/**
 * The tools `names` as an adapter hands them to a model, each running through `call` (a client's
 * `callTool`: the server validates the arguments and runs the tool as the client's participant).
 */
export function platformTools(
  call: (name: ToolName, args: Record<string, unknown>) => Promise<Record<string, unknown>>,
  names: readonly ToolName[] = ADAPTER_TOOLS,
): PlatformTool[] {
  return names.map((name) => {
    const { description, input, readOnly } = TOOL_SPECS[name];
    return { name, description, input, readOnly, call: (args) => call(name, args) };
  });
}
