// The A2A SDK's TaskStore on the workspace's own database (services/a2a/tasks.ts): a task survives a
// restart, and each caller sees only its own tasks.
import { Task, TaskState, type ListTasksRequest, type ListTasksResponse } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore, User } from "@a2a-js/sdk/server";
import type { Actor } from "../../../policies";
import { listTasks, loadTask, saveTask } from "../../../services/a2a/tasks";
import { stateName } from "./projection";

/** The authenticated caller, as the SDK hands it to the store and the executor. */
export class Caller implements User {
  constructor(readonly actor: Actor) {}
  get isAuthenticated() {
    return true;
  }
  get userName() {
    return this.actor.participantId;
  }
}

export function callerOf(context: ServerCallContext): Actor {
  const user = context.user;
  if (!(user instanceof Caller)) throw new Error("A2A call without a Switchboard caller");
  return user.actor;
}

const PAGE = 50;

export class DatabaseTaskStore implements TaskStore {
  async save(task: Task, context: ServerCallContext): Promise<void> {
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    await saveTask(task.id, callerOf(context), stateName(state), JSON.stringify(Task.toJSON(task)));
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const row = await loadTask(taskId, callerOf(context));
    return row?.task ? Task.fromJSON(JSON.parse(row.task)) : undefined;
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const limit = Math.min(Math.max(params.pageSize ?? PAGE, 1), 100);
    const before = params.pageToken ? decodeToken(params.pageToken) : undefined;
    const states = params.status ? [stateName(params.status)] : undefined;
    const { rows, total } = await listTasks(callerOf(context), { contextId: params.contextId || undefined, states, limit, before });
    const tasks = rows.filter((r) => r.task).map((r) => Task.fromJSON(JSON.parse(r.task)));
    const last = rows.length === limit ? rows[rows.length - 1] : undefined;
    return {
      tasks,
      nextPageToken: last ? Buffer.from(`${last.updatedAt.toISOString()}|${last.id}`).toString("base64url") : "",
      pageSize: limit,
      totalSize: total,
    };
  }
}

function decodeToken(token: string): { updatedAt: Date; id: string } | undefined {
  const [at, id] = Buffer.from(token, "base64url").toString().split("|");
  const updatedAt = new Date(at ?? "");
  return id && !Number.isNaN(updatedAt.getTime()) ? { updatedAt, id } : undefined;
}
