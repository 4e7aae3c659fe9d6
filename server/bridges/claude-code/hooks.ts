// Claude Code's hooks (`POST /api/hooks/claude-code`): the JSON a hook receives on stdin (or an `http`
// hook's body), as Claude Code documents it, turned into the work board's reports by the agent whose
// key sent it. Tied by `session_id`, Claude Code's session: a runtime binding of the agent that carries
// it as its externalId puts the work in that binding's room and thread (services/work/work.ts resolveScope).
//
//   PostToolUse Edit / MultiEdit / NotebookEdit / Write   files edited or created (lines when known)
//   PostToolUse Read / Bash                               a file read, a command run
//   PostToolUse TodoWrite                                 the session's whole task list
//   TaskCreated / TaskCompleted                           one task, the rest of the list left alone
//   PostToolUse TaskUpdate                                that task's status (in progress, deleted) or subject
//   SessionStart, UserPromptSubmit                        working
//   Notification                                          waiting, for the agent's owner (its message)
//   Stop                                                  working → idle;  SessionEnd → idle
//
// And the room watches the session's tool calls: each (PreToolUse, PostToolUse, PostToolUseFailure, any
// tool) is a step of the agent's running turn, one it opened on the message it works on with the MCP
// tool `report_activity`; Stop ends that turn done. A turn a person stopped stops the session: the answer
// carries Claude Code's `continue: false` (claudeCodeHookOutput).
//
// Other documented events and untracked tools are answered `ignored` and change nothing; a name Claude
// Code does not document, or fields of the wrong type, are INVALID_PAYLOAD and change nothing either.
//
// A payload carries whole files (a Write's content twice, an Edit's `originalFile`), so the body is read
// as it streams and strings past HOOK_KEPT_STRING characters arrive as ElidedText: their lines are all
// that is counted of them (http/lean-json.ts).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { clipped, oneLine, summarizeInput } from "@switchboard/sdk/turns";
import { MAX_TASKS_PER_REPORT, type TaskStatus } from "@switchboard/sdk/work";
import { AppError } from "../../errors";
import { ElidedText } from "../../http/lean-json";
import { authorize, type Actor } from "../../policies";
import { countRequest, HOOK_REQUESTS } from "../../services/governance/request-limits";
import * as turns from "../../services/work/turns";
import * as work from "../../services/work/work";
import * as workStatus from "../../services/work/status";

export const CLAUDE_CODE_HOOKS_PATH = "/api/hooks/claude-code";
/** A Write's payload carries the file twice: a Write of up to about 8 MiB fits; a larger one is refused. */
export const MAX_HOOK_BODY = 16 * 1024 * 1024;
/** Strings longer than this are counted, not kept. */
export const HOOK_KEPT_STRING = 64 * 1024;

/** Every hook event Claude Code documents (code.claude.com/docs/en/hooks). */
export const HOOK_EVENTS = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "PermissionDenied",
  "Notification",
  "Stop",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "TaskCreated",
  "TaskCompleted",
  "TeammateIdle",
  "InstructionsLoaded",
  "ConfigChange",
  "CwdChanged",
  "FileChanged",
  "WorktreeCreate",
  "WorktreeRemove",
  "PreCompact",
  "PostCompact",
  "Elicitation",
  "ElicitationResult",
] as const;

/** The fields every hook payload has; the event's own are read by its mapping below. */
export const claudeCodeHookInput = z.looseObject({
  session_id: z.string().trim().min(1).max(255),
  transcript_path: z.string().max(4096).optional(),
  cwd: z.string().max(4096).optional(),
  hook_event_name: z.enum(HOOK_EVENTS, { error: (issue) => `${JSON.stringify(issue.input)} is not a Claude Code hook event` }),
});
export type ClaudeCodeHook = z.output<typeof claudeCodeHookInput>;

export interface HookOutcome {
  event: string;
  /** The agent's running turn this hook fed (the room watches it), and who stopped it, if someone did. */
  turn?: { id: string; stoppedBy: string | null };
  /** Nothing the board tracks: nothing was stored. */
  ignored?: true;
  tasks?: number;
  dropped?: number;
  files?: number;
  status?: string;
}

/** A file's text, or what is known of a long one. */
const text = z.union([z.string(), z.instanceof(ElidedText)]);
type Text = z.output<typeof text>;
/** A tool call, before or after it ran (PreToolUse, PostToolUse, PostToolUseFailure). */
const toolCall = z.looseObject({
  tool_name: z.string().min(1).max(200),
  tool_input: z.unknown().optional(),
  tool_use_id: z.string().trim().min(1).max(200).optional(),
  tool_response: z.unknown().optional(),
  error: z.string().optional(),
});
const postToolUse = z.looseObject({ tool_name: z.string().min(1).max(200), tool_input: z.looseObject({}), tool_response: z.unknown().optional() });
const editInput = z.looseObject({ file_path: z.string().min(1), old_string: text, new_string: text });
const multiEditInput = z.looseObject({ file_path: z.string().min(1), edits: z.array(z.looseObject({ old_string: text, new_string: text })).max(1000) });
const writeInput = z.looseObject({ file_path: z.string().min(1), content: text });
const notebookInput = z.looseObject({ notebook_path: z.string().min(1), edit_mode: z.enum(["replace", "insert", "delete"]).optional() });
const readInput = z.looseObject({ file_path: z.string().min(1) });
const bashInput = z.looseObject({ command: z.union([z.string().min(1), z.instanceof(ElidedText)]) });
const todoWriteInput = z.looseObject({
  todos: z.array(z.looseObject({ content: text, status: z.enum(["pending", "in_progress", "completed"]), activeForm: text.optional() })).max(1000),
});
/** The Task tools' update (TaskCreate itself is reported by TaskCreated). */
const taskUpdateInput = z.looseObject({
  taskId: z.string().trim().min(1).max(200),
  status: z.enum(["pending", "in_progress", "completed", "deleted"]).optional(),
  subject: z.string().trim().min(1).optional(),
});
const notification = z.looseObject({ message: text.default(""), notification_type: z.string().optional() });
const taskEvent = z.looseObject({
  task_id: z.string().trim().min(1).max(200).optional(),
  task_subject: z.string().trim().min(1),
  task_description: z.string().optional(),
});
/** Edit's and Write's `tool_response`: the change as hunks of "+", "-" and " " lines, when it says. */
const patchResponse = z.looseObject({ type: z.string().optional(), structuredPatch: z.array(z.looseObject({ lines: z.array(text) })).optional() });

/** Maps one hook payload onto the work board, as the agent `actor`. */
export async function handleClaudeCodeHook(actor: Actor, hook: ClaudeCodeHook): Promise<HookOutcome> {
  authorize(actor, "work.report", undefined); // a person's token: FORBIDDEN, whatever the event
  await countRequest(HOOK_REQUESTS, actor, "Claude Code hooks");
  const event = hook.hook_event_name;
  const sessionId = hook.session_id;
  switch (event) {
    case "PreToolUse":
      return { event, ...(await toolActivity(actor, hook, "running")), ignored: true };
    case "PostToolUse": {
      const activity = await toolActivity(actor, hook, "done");
      return { event, ...(await toolUsed(actor, hook)), ...activity };
    }
    case "PostToolUseFailure":
      return { event, ...(await toolActivity(actor, hook, "failed")), ignored: true };
    case "TaskCreated":
    case "TaskCompleted": {
      const task = fields(taskEvent, hook);
      const status: TaskStatus = event === "TaskCompleted" ? "completed" : "pending";
      const reported = await work.reportTasks(actor, {
        sessionId,
        tasks: [{ key: task.task_id, title: clip(task.task_subject, 500), status }],
        complete: false,
      });
      return { event, tasks: reported.tasks.length, dropped: 0 };
    }
    case "SessionStart":
    case "UserPromptSubmit": {
      const set = await workStatus.turnStarted(actor, event === "SessionStart" ? "Session started" : "Working");
      return { event, status: set.state };
    }
    case "Notification": {
      const note = fields(notification, hook);
      if (note.notification_type === "auth_success") return { event, ignored: true };
      const set = await workStatus.waitingForOwner(actor, clip(textOf(note.message).trim(), 200));
      return { event, status: set.state };
    }
    case "Stop": {
      // Claude has answered: the turn it reported on is done (if it did not say so itself).
      const reported = await turns.reportRunningTurn(actor, { steps: [], end: { state: "done" } });
      const set = await workStatus.turnEnded(actor);
      return { event, ...(set ? { status: set.state } : { ignored: true as const }), ...turnOf(reported) };
    }
    case "SessionEnd": {
      const set = await workStatus.sessionEnded(actor);
      return { event, status: set.state };
    }
    default:
      return { event, ignored: true };
  }
}

/**
 * A tool call as a step of the agent's running turn (one it opened with `report_activity`), by Claude
 * Code's id for the call: running before it, done or failed after. No turn running: nothing.
 */
async function toolActivity(actor: Actor, hook: ClaudeCodeHook, status: "running" | "done" | "failed"): Promise<Pick<HookOutcome, "turn">> {
  const call = fields(toolCall, hook);
  const title = oneLine(`${call.tool_name} ${summarizeInput(call.tool_input)}`.trim());
  const result = status === "running" ? undefined : status === "failed" ? call.error : call.tool_response;
  const detail = result === undefined ? undefined : clipped(typeof result === "string" ? result : (JSON.stringify(result) ?? ""));
  const step = { key: `tool:${call.tool_use_id ?? `${call.tool_name}:${randomUUID()}`}`, kind: "tool" as const, title, status, ...(detail ? { detail } : {}) };
  // Before the call (which has no id to find it by afterwards): only a step that can be finished.
  if (status === "running" && !call.tool_use_id) return {};
  return turnOf(await turns.reportRunningTurn(actor, { steps: [step] }));
}

const turnOf = (reported: turns.ReportedTurn | null): Pick<HookOutcome, "turn"> =>
  reported ? { turn: { id: reported.turn.id, stoppedBy: reported.stoppedBy ? `@${reported.stoppedBy.handle}` : null } } : {};

/**
 * What Claude Code reads of the answer (its hook output): a turn someone stopped stops the session
 * (`continue: false`, saying who) and, before a tool call, denies the call (Claude Code runs the call
 * it was about to make otherwise, then stops); anything else lets it go on.
 */
export function claudeCodeHookOutput(outcome: HookOutcome): Record<string, unknown> {
  const by = outcome.turn?.stoppedBy;
  if (!by) return {};
  const reason = `Stopped by ${by} from Switchboard`;
  const deny = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } };
  return { continue: false, stopReason: reason, ...(outcome.event === "PreToolUse" ? deny : {}) };
}

async function toolUsed(actor: Actor, hook: ClaudeCodeHook): Promise<Omit<HookOutcome, "event">> {
  const { tool_name: tool, tool_input: input, tool_response: response } = fields(postToolUse, hook);
  const sessionId = hook.session_id;
  const at = (file: string) => relativeTo(file, hook.cwd);
  let files: { path: string; operation: "read" | "edit" | "create" | "run"; linesAdded?: number; linesRemoved?: number }[];
  switch (tool) {
    case "Edit": {
      const edit = fields(editInput, input, "tool_input");
      files = [{ path: at(edit.file_path), operation: "edit", ...(patchLines(response) ?? changedLines([edit])) }];
      break;
    }
    case "MultiEdit": {
      const edit = fields(multiEditInput, input, "tool_input");
      files = [{ path: at(edit.file_path), operation: "edit", ...(patchLines(response) ?? changedLines(edit.edits)) }];
      break;
    }
    case "Write": {
      const write = fields(writeInput, input, "tool_input");
      const updated = patchResponse.safeParse(response).data?.type === "update";
      const lines = updated ? patchLines(response) : { linesAdded: lineCount(write.content), linesRemoved: 0 };
      files = [{ path: at(write.file_path), operation: updated ? "edit" : "create", ...lines }];
      break;
    }
    case "NotebookEdit": {
      files = [{ path: at(fields(notebookInput, input, "tool_input").notebook_path), operation: "edit" }];
      break;
    }
    case "Read":
      files = [{ path: at(fields(readInput, input, "tool_input").file_path), operation: "read" }];
      break;
    case "Bash":
      files = [{ path: clip(textOf(fields(bashInput, input, "tool_input").command).trim(), 1000), operation: "run" }];
      break;
    case "TodoWrite": {
      const tasks = todoList(fields(todoWriteInput, input, "tool_input").todos);
      const reported = await work.reportTasks(actor, { sessionId, tasks, complete: true });
      await workStatus.stillWorking(actor);
      return { tasks: reported.tasks.length, dropped: reported.dropped };
    }
    case "TaskUpdate": {
      const update = fields(taskUpdateInput, input, "tool_input");
      if (!update.status && !update.subject) return { ignored: true }; // owner, dependencies…
      const status: TaskStatus | undefined = update.status === "deleted" ? "dropped" : update.status;
      const task = await work.updateTask(actor, { sessionId, key: update.taskId, status, title: update.subject && clip(update.subject, 500) });
      await workStatus.stillWorking(actor);
      return task ? { tasks: 1 } : { ignored: true }; // a task its TaskCreated never told us of
    }
    default:
      return { ignored: true }; // Glob, Grep, WebFetch, Task, MCP tools…: nothing the board tracks
  }
  const reported = await work.reportFiles(actor, { sessionId, files });
  await workStatus.stillWorking(actor);
  return { files: reported.files.length };
}

/** A todo list as tasks: one per distinct item (the item's text is its key), at most a report's worth. */
function todoList(todos: z.output<typeof todoWriteInput>["todos"]) {
  const byKey = new Map<string, { title: string; status: TaskStatus }>();
  for (const todo of todos) {
    const title = clip(textOf(todo.content).trim(), 500);
    if (title) byKey.set(work.taskKey({ title }), { title, status: todo.status });
  }
  return [...byKey.values()].slice(0, MAX_TASKS_PER_REPORT);
}

/** A payload's part as `schema` reads it, or INVALID_PAYLOAD naming the field. */
function fields<S extends z.ZodType>(schema: S, value: unknown, at?: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = [...(at ? [at] : []), ...(issue?.path ?? []).map(String)].join(".");
  throw new AppError("INVALID_PAYLOAD", `${where || "body"}: ${issue?.message ?? "invalid"}`);
}

/** A path under the session's directory, relative to it; any other as it came. */
function relativeTo(file: string, cwd: string | undefined): string {
  const path = file.replaceAll("\\", "/");
  const root = cwd?.replaceAll("\\", "/").replace(/\/+$/, "");
  return root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** Lines added and removed by the hunks Claude Code returns for an edit; null when it returned none. */
function patchLines(response: unknown): { linesAdded: number; linesRemoved: number } | null {
  const hunks = patchResponse.safeParse(response).data?.structuredPatch;
  if (!hunks) return null;
  const marks = hunks.flatMap((h) => h.lines.map((l) => textOf(l)[0]));
  return { linesAdded: marks.filter((m) => m === "+").length, linesRemoved: marks.filter((m) => m === "-").length };
}

/** Lines an edit replaced, without the lines its old and new text share at either end (when both were kept). */
function changedLines(edits: { old_string: Text; new_string: Text }[]): { linesAdded: number; linesRemoved: number } {
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const edit of edits) {
    if (typeof edit.old_string !== "string" || typeof edit.new_string !== "string") {
      linesRemoved += lineCount(edit.old_string);
      linesAdded += lineCount(edit.new_string);
      continue;
    }
    const before = splitLines(edit.old_string);
    const after = splitLines(edit.new_string);
    let head = 0;
    while (head < before.length && head < after.length && before[head] === after[head]) head++;
    let tail = 0;
    while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
    linesRemoved += before.length - head - tail;
    linesAdded += after.length - head - tail;
  }
  return { linesAdded, linesRemoved };
}

const splitLines = (s: string): string[] => (s === "" ? [] : s.replace(/\n$/, "").split("\n"));
const lineCount = (t: Text): number => (typeof t === "string" ? splitLines(t).length : t.lines);
/** A text as far as it is known: a long one's first characters. */
const textOf = (t: Text): string => (typeof t === "string" ? t : `${t.head}…`);
const clip = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
