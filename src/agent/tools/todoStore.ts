import { z } from 'zod';

/** Status of one todo, Claude Code's vocabulary. */
export const todoStatusSchema = z.enum(['pending', 'in_progress', 'completed']);

/** One todo item as TodoWrite takes it (Claude Code's keys; `activeForm` is the "doing" phrasing). */
export const todoItemSchema = z.object({
  content: z.string().trim().min(1, 'must not be empty'),
  status: todoStatusSchema,
  activeForm: z.string().optional(),
});

export type TodoStatus = z.infer<typeof todoStatusSchema>;
export type TodoItem = z.infer<typeof todoItemSchema>;

/**
 * Per-agent todo lists. Each agent (main or subagent) has its own list, keyed by agent id;
 * TodoWrite replaces the whole list, as in Claude Code.
 */
export interface TodoStore {
  get(agentId: string): readonly TodoItem[];
  set(agentId: string, todos: readonly TodoItem[]): void;
}

/**
 * An in-memory `TodoStore`. `onChange` fires after every `set` (the UI's hook to redraw
 * the list); a throwing listener is the listener's bug and is not allowed to fail the tool.
 */
export function createTodoStore(onChange?: (agentId: string, todos: readonly TodoItem[]) => void): TodoStore {
  const lists = new Map<string, readonly TodoItem[]>();
  return {
    get: (agentId) => lists.get(agentId) ?? [],
    set: (agentId, todos) => {
      // Copy so a caller mutating its array later cannot change what was stored.
      const copy = Object.freeze(todos.map((t) => Object.freeze({ ...t })));
      lists.set(agentId, copy);
      try {
        onChange?.(agentId, copy);
      } catch {
        // Listener failures are not the tool's failure.
      }
    },
  };
}
