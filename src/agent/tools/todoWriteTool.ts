import { z } from 'zod';
import { todoItemSchema } from './todoStore';
import type { TodoItem } from './todoStore';
import { defineTool } from './tool';
import type { AgentTool } from './tool';

export const todoWriteInputSchema = z.object({
  todos: z.array(todoItemSchema).describe('The complete, updated todo list; it replaces the previous one.'),
});
export type TodoWriteInput = z.infer<typeof todoWriteInputSchema>;

/** Claude Code's TodoWrite `tool_response` shape. */
export interface TodoWriteResponse {
  readonly oldTodos: readonly TodoItem[];
  readonly newTodos: readonly TodoItem[];
}

const DESCRIPTION = `Keeps your task list for this request: send the complete updated list each time (it replaces the previous one).
- Each item: content (imperative, e.g. "Run the tests"), status ("pending" | "in_progress" | "completed"), activeForm (e.g. "Running the tests").
- Use it for work with several steps; keep exactly one item in_progress while working, and mark items completed as soon as they are done.`;

/** The `TodoWrite` tool: replaces the calling agent's list in `ctx.todos`. Changes no files; never asks. */
export function createTodoWriteTool(): AgentTool<TodoWriteInput> {
  return defineTool({
    name: 'TodoWrite',
    description: DESCRIPTION,
    inputSchema: todoWriteInputSchema,
    readOnly: true,
    needsApproval: false,
    summarize: (input) => {
      const active = input.todos.find((t) => t.status === 'in_progress');
      return active ? `${input.todos.length} todo(s); now: ${active.activeForm ?? active.content}` : `${input.todos.length} todo(s)`;
    },
    async execute(input, ctx) {
      const oldTodos = ctx.todos.get(ctx.agentId);
      ctx.todos.set(ctx.agentId, input.todos);
      const data: TodoWriteResponse = { oldTodos, newTodos: ctx.todos.get(ctx.agentId) };
      return { content: summarizeTodos(input.todos), isError: false, data };
    },
  });
}

/** The model-facing confirmation: counts per status, the current item, and a nudge when the list is inconsistent. */
function summarizeTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'Todo list cleared.';
  const count = (s: TodoItem['status']): number => todos.filter((t) => t.status === s).length;
  const inProgress = todos.filter((t) => t.status === 'in_progress');
  let text = `Todos updated: ${todos.length} total — ${count('completed')} completed, ${inProgress.length} in progress, ${count('pending')} pending.`;
  if (inProgress[0]) text += ` Current: ${inProgress[0].activeForm ?? inProgress[0].content}.`;
  if (inProgress.length > 1) text += ' Note: more than one item is in_progress; keep exactly one in progress at a time.';
  if (count('completed') === todos.length) text += ' All items are completed.';
  return text;
}
