import { z } from 'zod';
import { taskStatusSchema } from './taskStore';
import type { Task, TaskStore } from './taskStore';
import { defineTool, toolError } from './tool';
import type { AgentTool, AnyAgentTool, ToolContext } from './tool';

/**
 * What a task hook said: TaskCreated/TaskCompleted exit 2 (or `decision: "block"`) gives the
 * reason, and the creation is undone / the task stays open. `blockedBy` names the hook that
 * blocked (a command hook's command line), when one did.
 */
export type TaskHook = (event: 'TaskCreated' | 'TaskCompleted', task: Task) => Promise<{ readonly blocked?: string; readonly blockedBy?: string }>;

const text = (max: number) => z.string().max(max);

export const taskCreateInputSchema = z.object({
  subject: text(500).trim().min(1, 'must not be empty').describe('A brief title in the imperative, e.g. "Run the tests".'),
  description: text(10_000).describe('What needs to be done, in detail.'),
  activeForm: text(500).optional().describe('Present-continuous form shown while it runs, e.g. "Running the tests".'),
});
export const taskUpdateInputSchema = z.object({
  taskId: z.string().describe('The id of the task to update.'),
  status: z
    .enum([...taskStatusSchema.options, 'deleted'])
    .optional()
    .describe('pending | in_progress | completed, or deleted to remove it.'),
  subject: text(500).trim().min(1).optional(),
  description: text(10_000).optional(),
  activeForm: text(500).optional(),
  owner: text(200).optional(),
  addBlocks: z.array(z.string()).max(100).optional().describe('Ids of tasks that cannot start until this one is done.'),
  addBlockedBy: z.array(z.string()).max(100).optional().describe('Ids of tasks that must be done before this one.'),
});
export const taskGetInputSchema = z.object({ taskId: z.string().describe('The id of the task.') });
export const taskListInputSchema = z.object({});

const CREATE_DESCRIPTION = `Creates a task in the session's task list, to plan and track work with several steps.
- subject: a brief imperative title; description: what needs doing; activeForm: the "doing" phrasing.
- New tasks start pending. Mark one in_progress with TaskUpdate before starting it, and completed as soon as it is done.`;
const UPDATE_DESCRIPTION = `Updates a task of the session's list: status (pending, in_progress, completed, or deleted to remove it), subject, description, activeForm, owner, and dependencies (addBlocks, addBlockedBy).
- Mark a task completed only when it is fully done; a hook may keep it open and say why.`;

function storeOf(ctx: ToolContext): TaskStore | undefined {
  return ctx.tasks;
}

function line(task: Task): string {
  const blocked = task.blockedBy.length > 0 ? ` (blocked by ${task.blockedBy.map((id) => `#${id}`).join(', ')})` : '';
  return `#${task.id} [${task.status}] ${task.subject}${task.owner ? ` (${task.owner})` : ''}${blocked}`;
}

/** `TaskCreate`: adds a pending task; TaskCreated hooks may undo it (exit 2: the reason goes back to the model). */
export function createTaskCreateTool(): AgentTool<z.infer<typeof taskCreateInputSchema>> {
  return defineTool({
    name: 'TaskCreate',
    description: CREATE_DESCRIPTION,
    inputSchema: taskCreateInputSchema,
    readOnly: true,
    needsApproval: false,
    summarize: (input) => input.subject,
    async execute(input, ctx) {
      const store = storeOf(ctx);
      if (!store) return toolError('TaskCreate is not available here: this agent has no task list.');
      const task = store.create({ subject: input.subject, description: input.description, ...(input.activeForm ? { activeForm: input.activeForm } : {}) });
      if (!task) return toolError('The task list is full; complete or delete tasks before creating more.');
      const hook = await ctx.taskHook?.('TaskCreated', task);
      if (hook?.blocked !== undefined) {
        store.delete(task.id);
        return toolError(`Task was not created: a TaskCreated hook blocked it: ${hook.blocked}`);
      }
      return { content: `Task #${task.id} created successfully: ${task.subject}`, isError: false, data: { task: { id: task.id, subject: task.subject } } };
    },
  });
}

/** `TaskUpdate`: changes one task; marking it completed runs TaskCompleted hooks, which may keep it open. */
export function createTaskUpdateTool(): AgentTool<z.infer<typeof taskUpdateInputSchema>> {
  return defineTool({
    name: 'TaskUpdate',
    description: UPDATE_DESCRIPTION,
    inputSchema: taskUpdateInputSchema,
    readOnly: true,
    needsApproval: false,
    summarize: (input) => `#${input.taskId}${input.status ? ` → ${input.status}` : ''}`,
    async execute(input, ctx) {
      const store = storeOf(ctx);
      if (!store) return toolError('TaskUpdate is not available here: this agent has no task list.');
      const task = store.get(input.taskId);
      if (!task) return toolError(`Task #${input.taskId} not found. TaskList shows the current tasks.`);
      if (input.status === 'deleted') {
        store.delete(task.id);
        return { content: `Updated task #${task.id} deleted`, isError: false, data: { success: true, taskId: task.id, updatedFields: ['deleted'] } };
      }
      const updated: Task = {
        ...task,
        ...(input.subject !== undefined ? { subject: input.subject } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.activeForm !== undefined ? { activeForm: input.activeForm } : {}),
        ...(input.owner !== undefined ? { owner: input.owner } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        blocks: unique([...task.blocks, ...(input.addBlocks ?? [])]),
        blockedBy: unique([...task.blockedBy, ...(input.addBlockedBy ?? [])]),
      };
      const fields = Object.keys(input).filter((k) => k !== 'taskId');
      if (updated.status === 'completed' && task.status !== 'completed') {
        const hook = await ctx.taskHook?.('TaskCompleted', updated);
        if (hook?.blocked !== undefined) {
          // The task stays as it was; the other changes of this call are not applied either. As in
          // Claude Code this is a result, not a failure: PostToolUse fires with `success: false`.
          const error = `TaskCompleted hook feedback:\n${hook.blockedBy !== undefined ? `[${hook.blockedBy}]: ` : ''}${hook.blocked}`;
          return { content: error, isError: false, data: { success: false, taskId: task.id, updatedFields: [], error } };
        }
      }
      store.put(updated);
      for (const id of input.addBlocks ?? []) addEdge(store, id, 'blockedBy', task.id);
      for (const id of input.addBlockedBy ?? []) addEdge(store, id, 'blocks', task.id);
      const statusChange = input.status !== undefined && input.status !== task.status ? { from: task.status, to: input.status } : undefined;
      return {
        content: `Updated task #${task.id} ${fields.join(', ') || 'nothing'}`,
        isError: false,
        data: { success: true, taskId: task.id, updatedFields: fields, ...(statusChange ? { statusChange } : {}) },
      };
    },
  });
}

/** `TaskGet`: one task in full. */
export function createTaskGetTool(): AgentTool<z.infer<typeof taskGetInputSchema>> {
  return defineTool({
    name: 'TaskGet',
    description: 'Shows one task of the session list in full: subject, description, status, owner and dependencies.',
    inputSchema: taskGetInputSchema,
    readOnly: true,
    needsApproval: false,
    summarize: (input) => `#${input.taskId}`,
    async execute(input, ctx) {
      const task = storeOf(ctx)?.get(input.taskId);
      if (!task) return toolError(`Task #${input.taskId} not found.`);
      return { content: `${line(task)}\n${task.description}`, isError: false, data: { task } };
    },
  });
}

/** `TaskList`: every task, one line each. */
export function createTaskListTool(): AgentTool<z.infer<typeof taskListInputSchema>> {
  return defineTool({
    name: 'TaskList',
    description: "Lists the session's tasks: id, status, subject, owner and what blocks each.",
    inputSchema: taskListInputSchema,
    readOnly: true,
    needsApproval: false,
    summarize: () => 'tasks',
    async execute(_input, ctx) {
      const tasks = storeOf(ctx)?.list() ?? [];
      return { content: tasks.length === 0 ? 'No tasks found' : tasks.map(line).join('\n'), isError: false, data: { tasks } };
    },
  });
}

/** Claude Code's task tools, in its order. */
export function createTaskTools(): AnyAgentTool[] {
  return [createTaskCreateTool(), createTaskGetTool(), createTaskUpdateTool(), createTaskListTool()];
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

function addEdge(store: TaskStore, id: string, key: 'blocks' | 'blockedBy', other: string): void {
  const task = store.get(id);
  if (task && !task[key].includes(other)) store.put({ ...task, [key]: [...task[key], other] });
}
