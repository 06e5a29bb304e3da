import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTodoStore } from '../../../../src/agent/tools/todoStore';
import { createTodoWriteTool } from '../../../../src/agent/tools/todoWriteTool';
import { validateToolInput } from '../../../../src/agent/tools/validateToolInput';
import { makeContext, makeWorkspace } from './toolTestContext';
import type { TempWorkspace } from './toolTestContext';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});
const todoWrite = createTodoWriteTool();

describe('TodoWrite', () => {
  it('is read-only and needs no approval', () => {
    expect(todoWrite).toMatchObject({ name: 'TodoWrite', readOnly: true, needsApproval: false });
  });

  it('stores the list per agent and returns a summary plus old/new todos', async () => {
    const onChange = vi.fn();
    const todos = createTodoStore(onChange);
    const main = makeContext(ws, { todos, agentId: 'main' });
    const sub = makeContext(ws, { todos, agentId: 'sub-1' });
    const first = [
      { content: 'Write tests', status: 'completed' as const, activeForm: 'Writing tests' },
      { content: 'Run tests', status: 'in_progress' as const, activeForm: 'Running tests' },
      { content: 'Commit', status: 'pending' as const },
    ];
    const r = await todoWrite.execute({ todos: first }, main);
    expect(r).toMatchObject({ isError: false, content: 'Todos updated: 3 total — 1 completed, 1 in progress, 1 pending. Current: Running tests.' });
    expect(r.data).toEqual({ oldTodos: [], newTodos: first });
    expect(todos.get('main')).toEqual(first);
    expect(todos.get('sub-1')).toEqual([]);
    expect(onChange).toHaveBeenCalledWith('main', first);

    await todoWrite.execute({ todos: [{ content: 'Other', status: 'pending' }] }, sub);
    expect(todos.get('main')).toHaveLength(3);
    const second = await todoWrite.execute({ todos: first.map((t) => ({ ...t, status: 'completed' as const })) }, main);
    expect(second.content).toContain('All items are completed.');
    expect((second.data as { oldTodos: unknown }).oldTodos).toEqual(first);
  });

  it('nudges when several items are in progress, and clears with an empty list', async () => {
    const ctx = makeContext(ws);
    const r = await todoWrite.execute(
      {
        todos: [
          { content: 'a', status: 'in_progress' },
          { content: 'b', status: 'in_progress' },
        ],
      },
      ctx,
    );
    expect(r.content).toContain('more than one item is in_progress');
    expect((await todoWrite.execute({ todos: [] }, ctx)).content).toBe('Todo list cleared.');
  });

  it('validates items: status enum, non-empty content; strips unknown keys like id/priority', () => {
    expect(validateToolInput(todoWrite, { todos: [{ content: 'x', status: 'done' }] })).toEqual({
      ok: false,
      error: 'TodoWrite: "todos[0].status" must be one of "pending", "in_progress", "completed", got the string "done"',
    });
    expect(validateToolInput(todoWrite, { todos: [{ content: ' ', status: 'pending' }] })).toEqual({
      ok: false,
      error: 'TodoWrite: "todos[0].content" must not be empty',
    });
    expect(validateToolInput(todoWrite, { todos: [{ id: '1', priority: 'high', content: 'x', status: 'pending' }] })).toEqual({
      ok: true,
      input: { todos: [{ content: 'x', status: 'pending' }] },
    });
  });

  it('the store keeps a copy: later mutation by the caller does not leak in', () => {
    const store = createTodoStore(() => {
      throw new Error('listener bug');
    });
    const list = [{ content: 'a', status: 'pending' as const }];
    store.set('x', list);
    list.push({ content: 'b', status: 'pending' });
    expect(store.get('x')).toHaveLength(1);
  });
});
