// The A2A SDK's AgentExecutor for a served agent. It never runs the agent: it stores the caller's
// message in the room, where the agent (connected however it is) gets it like any other, and leaves
// the task to the follower, which reads its progress back from the room as it comes.
import { Role, TaskState, type Task } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { AppError } from "../../../errors";
import { answerOpenQuestion, callerActor, postCancel, postRequest, storedTask, type ServedAgent } from "../../../services/a2a/tasks";
import type { TaskFollower } from "./follower";
import { a2aMessage, partsData, partsText, textPart } from "./projection";
import { callerOf, DatabaseTaskStore } from "./task-store";

export class ServedAgentExecutor implements AgentExecutor {
  private readonly store = new DatabaseTaskStore();

  constructor(
    private readonly agent: ServedAgent,
    private readonly follower: TaskFollower,
  ) {}

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const caller = callerOf(ctx.context);
    const message = ctx.userMessage;
    const text = partsText(message.parts);
    const data = partsData(message.parts);
    if (!text.trim() && data === undefined) throw new AppError("MESSAGE_EMPTY", "The message has no text or data part");
    // Every task is opened before it runs (request-handler.ts): this message is its request, adds to
    // it, or answers the agent's question.
    const existing = ctx.task;
    const row = existing && (await storedTask(existing.id));
    if (!row) throw new AppError("NOT_FOUND", "No such task");
    const answered = existing.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED && (await answerOpenQuestion(caller, row, { text, data }));
    if (!answered) await postRequest(caller, this.agent, { taskId: existing.id, messageId: message.messageId, text });
    const task: Task = { ...existing, history: [...existing.history.filter((m) => m.messageId !== message.messageId), message] };
    // Stored before it is published, so that the follower (which may already see the agent's receipt) finds it.
    await this.store.save(task, ctx.context);
    bus.publish(AgentEvent.task(task));
    this.follower.follow(task.id, row.roomId);
    void this.follower.refresh(task.id);
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const row = await storedTask(taskId);
    const actor = row && (await callerActor(row.callerId));
    if (!row || !actor) throw new AppError("NOT_FOUND", "No such task");
    await postCancel(actor, row);
    const task = { id: taskId, contextId: row.contextId };
    const status = {
      state: TaskState.TASK_STATE_CANCELED,
      message: a2aMessage(Role.ROLE_AGENT, `canceled:${taskId}`, task, [textPart("Canceled by the caller.")]),
      timestamp: new Date().toISOString(),
    };
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId: row.contextId, status, metadata: {} }));
  };
}
