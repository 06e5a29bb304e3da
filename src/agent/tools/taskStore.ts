import { z } from 'zod';

/** Status of one task, Claude Code's TaskUpdate vocabulary (`deleted` removes it). */
export const taskStatusSchema = z.enum(['pending', 'in_progress', 'completed']);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

/** One task of the session's list (Claude Code's Task tools' fields). */
export interface Task {
  readonly id: string;
  readonly subject: string;
  readonly description: string;
  readonly activeForm?: string;
  readonly status: TaskStatus;
  readonly owner?: string;
  readonly blocks: readonly string[];
  readonly blockedBy: readonly string[];
}

/** Most tasks one session keeps: the model writes them, so the list is bounded. */
export const MAX_TASKS = 500;

/**
 * The session's task list, shared by its agents (as Claude Code's TaskCreate/TaskUpdate
 * list). Ids are "1", "2", … and never reused after a deletion.
 */
export interface TaskStore {
  list(): readonly Task[];
  get(id: string): Task | undefined;
  /** Adds a task; undefined when the list is full. */
  create(fields: Pick<Task, 'subject' | 'description'> & Partial<Pick<Task, 'activeForm'>>): Task | undefined;
  /** Replaces a task by id (no-op when it is gone). */
  put(task: Task): void;
  delete(id: string): void;
}

/** An in-memory {@link TaskStore}. */
export function createTaskStore(): TaskStore {
  const tasks = new Map<string, Task>();
  let next = 1;
  return {
    list: () => [...tasks.values()],
    get: (id) => tasks.get(id),
    create(fields) {
      if (tasks.size >= MAX_TASKS) return undefined;
      const task: Task = Object.freeze({ ...fields, id: String(next++), status: 'pending' as const, blocks: [], blockedBy: [] });
      tasks.set(task.id, task);
      return task;
    },
    put(task) {
      if (tasks.has(task.id)) tasks.set(task.id, Object.freeze({ ...task }));
    },
    delete(id) {
      tasks.delete(id);
    },
  };
}
