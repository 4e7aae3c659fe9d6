// Follows open A2A tasks in their rooms. The SDK keeps one event bus per running task; here a task's
// bus lives until the room says the task ended, however long the agent takes (it may be offline for a
// day): on every change in a room with open tasks (a new message, a receipt, an edit; from any
// process), each open task there is read back (services/a2a/tasks.ts), saved when it changed, and the
// change published on its bus for whoever streams it. The store, not the bus, is the truth: a restart
// loses only the buses, and the next change (or a caller's GetTask / SubscribeToTask) finds the task.
import { AgentEvent, DefaultExecutionEventBus, ServerCallContext, type ExecutionEventBus, type ExecutionEventBusManager } from "@a2a-js/sdk/server";
import { Task, type TaskState } from "@a2a-js/sdk";
import { onRoomActivity } from "../../../realtime/wakeups";
import { callerActor, openTasks, storedTask, taskProgress } from "../../../services/a2a/tasks";
import { isTerminal, projectTask, TERMINAL_NAMES } from "./projection";
import { Caller, DatabaseTaskStore } from "./task-store";

export class TaskFollower implements ExecutionEventBusManager {
  private readonly buses = new Map<string, ExecutionEventBus>();
  /** Rooms watched, with the open tasks followed in each. */
  private readonly rooms = new Map<string, { stop: () => void; tasks: Set<string> }>();
  /** One read-back per task at a time; a change during one runs it once more. */
  private readonly running = new Map<string, { again: boolean; done: Promise<void> }>();
  private readonly store = new DatabaseTaskStore();

  createOrGetByTaskId(taskId: string): ExecutionEventBus {
    let bus = this.buses.get(taskId);
    if (!bus) this.buses.set(taskId, (bus = new DefaultExecutionEventBus()));
    return bus;
  }

  getByTaskId(taskId: string): ExecutionEventBus | undefined {
    return this.buses.get(taskId);
  }

  cleanupByTaskId(taskId: string): void {
    this.buses.get(taskId)?.removeAllListeners();
    this.buses.delete(taskId);
  }

  /** The executor returns at once; the bus ends when the room says the task did (see `refresh`). */
  settleByTaskId(_taskId: string, _bus: ExecutionEventBus, lastState: TaskState | undefined): boolean {
    return !isTerminal(lastState);
  }

  /** Follows a task in its room (idempotent); its bus exists from now on, for subscribers. */
  follow(taskId: string, roomId: string): void {
    this.createOrGetByTaskId(taskId);
    let room = this.rooms.get(roomId);
    if (!room) {
      const tasks = new Set<string>();
      room = { tasks, stop: onRoomActivity(roomId, () => tasks.forEach((id) => void this.refresh(id))) };
      this.rooms.set(roomId, room);
    }
    room.tasks.add(taskId);
  }

  /** At boot: every open task is followed again, and read back (it may have moved while no process followed it). */
  async resume(): Promise<void> {
    const open = await openTasks(TERMINAL_NAMES);
    for (const task of open) this.follow(task.id, task.roomId);
    for (const task of open) await this.refresh(task.id);
  }

  /** Reads the task back from its room; saves and publishes what changed. */
  refresh(taskId: string): Promise<void> {
    const current = this.running.get(taskId);
    if (current) {
      current.again = true;
      return current.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          await this.readBack(taskId);
        } while (entry.again);
      } catch (error) {
        console.error(`a2a: reading task ${taskId} back failed`, error);
      } finally {
        this.running.delete(taskId);
      }
    })();
    this.running.set(taskId, entry);
    return entry.done;
  }

  private async readBack(taskId: string): Promise<void> {
    const row = await storedTask(taskId);
    if (!row?.task) return;
    const actor = await callerActor(row.callerId);
    const context = actor ? new ServerCallContext({ user: new Caller(actor) }) : null;
    const previous = Task.fromJSON(JSON.parse(row.task));
    if (!context || isTerminal(previous.status?.state)) return void this.unfollow(taskId, row.roomId);
    const next = projectTask(previous, await taskProgress(row, actor!));
    const bus = this.buses.get(taskId);
    const changedArtifacts = next.artifacts.filter((a) => {
      const before = previous.artifacts.find((p) => p.artifactId === a.artifactId);
      return !before || JSON.stringify(before.parts) !== JSON.stringify(a.parts);
    });
    const changedStatus = next.status?.state !== previous.status?.state || next.status?.message?.messageId !== previous.status?.message?.messageId;
    if (changedArtifacts.length === 0 && !changedStatus && next.history.length === previous.history.length) return;
    await this.store.save(next, context);
    for (const artifact of changedArtifacts) {
      bus?.publish(AgentEvent.artifactUpdate({ taskId, contextId: next.contextId, artifact, append: false, lastChunk: true, metadata: {} }));
    }
    if (changedStatus && next.status) bus?.publish(AgentEvent.statusUpdate({ taskId, contextId: next.contextId, status: next.status, metadata: {} }));
    if (isTerminal(next.status?.state)) {
      bus?.finished();
      this.unfollow(taskId, row.roomId);
    }
  }

  private unfollow(taskId: string, roomId: string): void {
    this.cleanupByTaskId(taskId);
    const room = this.rooms.get(roomId);
    if (!room) return;
    room.tasks.delete(taskId);
    if (room.tasks.size === 0) {
      room.stop();
      this.rooms.delete(roomId);
    }
  }

  close(): void {
    for (const room of this.rooms.values()) room.stop();
    this.rooms.clear();
    for (const id of [...this.buses.keys()]) this.cleanupByTaskId(id);
  }
}
