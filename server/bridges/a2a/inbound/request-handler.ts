// The SDK's request handler for a served agent, with what Switchboard does before it: a new request (a
// message without a taskId) has its task opened by the service first, once per messageId of the
// caller's (services/a2a/tasks.ts `openTask`), and a task named by its id is followed in its room
// before the SDK reads it. The first send of a message then runs as a send into that task; a retry
// (after a timeout, or racing the first) gets the task as it is now, and a retried stream follows it
// as SubscribeToTask does. Everything else is the SDK's own.
import {
  Task,
  TaskState,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetExtendedAgentCardRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTasksRequest,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import { A2AError, RequestMalformedError } from "@a2a-js/sdk/errors";
import type { A2ARequestHandler, DefaultRequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import { toErrorShape } from "../../../errors";
import { loadTask, openTask, type ServedAgent, type StoredTask } from "../../../services/a2a/tasks";
import type { TaskFollower } from "./follower";
import { isTerminal, partsText, stateName } from "./projection";
import { callerOf } from "./task-store";

export class ServedRequestHandler implements A2ARequestHandler {
  constructor(
    private readonly agent: ServedAgent,
    private readonly sdk: DefaultRequestHandler,
    private readonly follower: TaskFollower,
  ) {}

  async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    const opened = await this.open(params, context);
    if (!opened?.created) return opened ? this.current(opened.task, params, context) : this.sdk.sendMessage(params, context);
    return this.sdk.sendMessage(opened.params, context);
  }

  async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    const opened = await this.open(params, context);
    if (!opened) return yield* this.sdk.sendMessageStream(params, context);
    if (opened.created) return yield* this.sdk.sendMessageStream(opened.params, context);
    const task = await this.current(opened.task, params, context);
    if (isTerminal(task.status?.state)) return void (yield { payload: { $case: "task", value: task } });
    yield* this.sdk.resubscribe({ tenant: params.tenant, id: task.id }, context);
  }

  async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    await this.followNamed(params.id, context);
    return this.sdk.getTask(params, context);
  }

  async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    await this.followNamed(params.id, context);
    return this.sdk.cancelTask(params, context);
  }

  async *resubscribe(params: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    await this.followNamed(params.id, context);
    yield* this.sdk.resubscribe(params, context);
  }

  listTasks = (params: ListTasksRequest, context: ServerCallContext) => this.sdk.listTasks(params, context);
  getAgentCard = () => this.sdk.getAgentCard();
  getAuthenticatedExtendedAgentCard = (params: GetExtendedAgentCardRequest, context: ServerCallContext) =>
    this.sdk.getAuthenticatedExtendedAgentCard(params, context);
  createTaskPushNotificationConfig = (params: TaskPushNotificationConfig, context: ServerCallContext) =>
    this.sdk.createTaskPushNotificationConfig(params, context);
  getTaskPushNotificationConfig = (params: GetTaskPushNotificationConfigRequest, context: ServerCallContext) =>
    this.sdk.getTaskPushNotificationConfig(params, context);
  listTaskPushNotificationConfigs = (params: ListTaskPushNotificationConfigsRequest, context: ServerCallContext) =>
    this.sdk.listTaskPushNotificationConfigs(params, context);
  deleteTaskPushNotificationConfig = (params: DeleteTaskPushNotificationConfigRequest, context: ServerCallContext) =>
    this.sdk.deleteTaskPushNotificationConfig(params, context);

  /**
   * A new request's task, opened (or found, for a retry) before the SDK runs it; `params` then send
   * the message into it. Null for a message to a task already known, or one the SDK refuses itself.
   */
  private async open(params: SendMessageRequest, context: ServerCallContext) {
    const message = params.message;
    if (!message?.messageId || message.taskId) return null;
    const request = { messageId: message.messageId, contextId: message.contextId || undefined, text: partsText(message.parts), roomId: roomNamed(params) };
    const opened = await openTask(callerOf(context), this.agent, request, {
      state: stateName(TaskState.TASK_STATE_SUBMITTED),
      task: (ids) => JSON.stringify(Task.toJSON(this.openedTask(ids))),
    }).catch((error: unknown) => Promise.reject(a2aError(error)));
    return { ...opened, params: { ...params, message: { ...message, taskId: opened.task.id, contextId: opened.task.contextId } } };
  }

  /** A task as just opened: submitted, with no history yet (the SDK adds the message when it sends it). */
  private openedTask(ids: { taskId: string; contextId: string }): Task {
    return {
      id: ids.taskId,
      contextId: ids.contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [],
      history: [],
      metadata: { agent: `@${this.agent.handle}` },
    };
  }

  /** A task as its room has it now, as GetTask answers (with the history length the send asked for). */
  private async current(row: StoredTask, params: SendMessageRequest, context: ServerCallContext): Promise<Task> {
    await this.follow(row);
    return this.sdk.getTask({ tenant: params.tenant, id: row.id, historyLength: params.configuration?.historyLength }, context);
  }

  /** A task already open (after a restart, or in another process) is followed here before the SDK looks for its bus: a subscriber then hears it, and a cancel reaches the room. */
  private async followNamed(taskId: string, context: ServerCallContext): Promise<void> {
    const row = taskId ? await loadTask(taskId, callerOf(context)) : null;
    if (row) await this.follow(row);
  }

  private async follow(row: StoredTask): Promise<void> {
    this.follower.follow(row.id, row.roomId);
    await this.follower.refresh(row.id);
  }
}

/** Where a caller names the room to hold a new conversation: `metadata.roomId` on the message or the request. */
function roomNamed(params: SendMessageRequest): string | undefined {
  const value = params.message?.metadata?.roomId ?? params.metadata?.roomId;
  return typeof value === "string" && value ? value : undefined;
}

/**
 * Switchboard's refusal of a new request as an A2A error, its stable code in the ErrorInfo's metadata:
 * one it will not take (a reused messageId, a room the caller may not use) is invalid params (-32602);
 * one to retry later is an internal error (-32603).
 */
function a2aError(error: unknown): A2AError {
  const shape = toErrorShape(error);
  const options = { message: shape.message, metadata: { code: shape.code, retryable: String(shape.retryable) } };
  return shape.retryable ? new A2AError(options) : new RequestMalformedError(options);
}
