// A task's progress in the room (services/a2a/tasks.ts), as the A2A Task the caller reads: its state,
// the agent's replies as artifacts (one per reply, its id the message's, so an edit replaces it), the
// exchange as history, and the status message (the question, the failure, the last reply).
import { Role, TaskState, type Artifact, type Message, type Part, type Task } from "@a2a-js/sdk";
import type { TaskProgress } from "../../../services/a2a/tasks";

export const TERMINAL: TaskState[] = [
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
];
export const isTerminal = (state: TaskState | undefined) => state !== undefined && TERMINAL.includes(state);
/** States as stored (`A2aTask.state`): the enum's names. */
export const stateName = (state: TaskState) => TaskState[state] ?? "TASK_STATE_UNSPECIFIED";
export const TERMINAL_NAMES = TERMINAL.map(stateName);

export const textPart = (text: string): Part => ({ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" });

export function a2aMessage(role: Role, messageId: string, task: { id: string; contextId: string }, parts: Part[], metadata?: Record<string, unknown>): Message {
  return { messageId, contextId: task.contextId, taskId: task.id, role, parts, metadata: metadata ?? {}, extensions: [], referenceTaskIds: [] };
}

/** The text of a message's parts: text as it is, data as JSON, files by name and link. */
export function partsText(parts: Part[]): string {
  return parts
    .map((part) => {
      const content = part.content;
      if (!content) return "";
      if (content.$case === "text") return content.value;
      if (content.$case === "data") return "```json\n" + JSON.stringify(content.value, null, 2) + "\n```";
      if (content.$case === "url") return `[${part.filename || content.value}](${content.value})`;
      return `(${part.filename || "a file"}, ${part.mediaType || "binary"}: not shown)`;
    })
    .filter(Boolean)
    .join("\n\n");
}

/** The first data part's value, if any (an answer to a form, say). */
export function partsData(parts: Part[]): unknown {
  for (const part of parts) if (part.content?.$case === "data") return part.content.value;
  return undefined;
}

/**
 * The task as the room has it now. `previous`: the stored task (its history keeps the caller's A2A
 * messages as they were sent; a canceled task stays canceled).
 */
export function projectTask(previous: Task, progress: TaskProgress): Task {
  const task = { id: previous.id, contextId: previous.contextId };
  const artifacts: Artifact[] = progress.replies
    .filter((r) => !r.deleted)
    .map((r) => ({
      artifactId: r.id,
      name: "reply",
      description: "",
      parts: [textPart(r.body)],
      metadata: { seq: r.seq, createdAt: r.createdAt.toISOString() },
      extensions: [],
    }));
  const replies = progress.replies.filter((r) => !r.deleted).map((r) => a2aMessage(Role.ROLE_AGENT, r.id, task, [textPart(r.body)]));
  // The caller's messages as the caller sent them, then the agent's replies, each once.
  const history = [...previous.history.filter((m) => m.role === Role.ROLE_USER)];
  const seen = new Set(history.map((m) => m.messageId));
  for (const reply of replies) if (!seen.has(reply.messageId)) history.push(reply);

  const now = new Date().toISOString();
  let state: TaskState;
  let message: Message | undefined;
  if (previous.status?.state === TaskState.TASK_STATE_CANCELED) {
    return { ...previous, artifacts, history, status: previous.status };
  } else if (progress.receipt?.state === "failed") {
    state = TaskState.TASK_STATE_FAILED;
    message = a2aMessage(Role.ROLE_AGENT, `failed:${progress.requests.at(-1)?.id ?? task.id}`, task, [
      textPart(progress.receipt.reason || "The agent could not handle this request."),
    ]);
  } else if (progress.receipt?.state === "processed") {
    state = TaskState.TASK_STATE_COMPLETED;
    message = replies.at(-1);
  } else if (progress.question) {
    state = TaskState.TASK_STATE_INPUT_REQUIRED;
    const q = progress.question;
    const choices = q.options?.length ? `\n\n${q.options.map((o) => `- ${o.label} (${o.value})`).join("\n")}` : "";
    const hint = q.kind === "approval" ? "\n\nAnswer yes or no." : "";
    message = a2aMessage(Role.ROLE_AGENT, q.messageId, task, [textPart(`${q.prompt}${choices}${hint}`)], {
      questionId: q.id,
      kind: q.kind,
      options: q.options ?? [],
    });
  } else {
    state = progress.receipt?.state === "processing" ? TaskState.TASK_STATE_WORKING : TaskState.TASK_STATE_SUBMITTED;
    message = undefined;
  }
  const unchanged = previous.status?.state === state && previous.status?.message?.messageId === message?.messageId;
  return { ...previous, artifacts, history, status: unchanged && previous.status ? previous.status : { state, message, timestamp: now } };
}
