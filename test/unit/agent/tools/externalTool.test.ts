import { describe, expect, it } from 'vitest';
import { createExternalTool } from '../../../../src/agent/tools/externalTool';
import type { ToolContext } from '../../../../src/agent/tools/tool';
import { createTodoStore } from '../../../../src/agent/tools/todoStore';
import { evaluatePolicy } from '../../../../src/permissions/permissionMode';

const ctx = (signal = new AbortController().signal): ToolContext => ({
  cwd: '/w',
  workspaceRoot: '/w',
  signal,
  sessionId: 's',
  agentId: 'main',
  todos: createTodoStore(),
});
const schema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

describe('external tools (the port VS Code tools come through)', () => {
  it('gives the model the host schema and asks before running by default', () => {
    const tool = createExternalTool({ name: 'vscode__echo', description: 'Echo', inputSchema: schema }, async () => ({ content: 'x', isError: false }));
    expect(tool.jsonSchema).toEqual(schema);
    expect(tool.readOnly).toBe(false);
    expect(tool.needsApproval).toBe(true);
    expect(evaluatePolicy({ toolName: tool.name, input: { text: 'a' }, readOnly: tool.readOnly, mode: 'default', cwd: '/w' }).behavior).toBe('ask');
    expect(evaluatePolicy({ toolName: tool.name, input: { text: 'a' }, readOnly: tool.readOnly, mode: 'plan', cwd: '/w' }).behavior).toBe('deny');
    expect(evaluatePolicy({ toolName: tool.name, input: { text: 'a' }, readOnly: tool.readOnly, mode: 'acceptEdits', cwd: '/w' }).behavior).toBe('ask');
  });

  it('a missing, non-object or oversized schema becomes "any object"; a long description is cut', () => {
    let deep: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 100; i++) deep = { type: 'object', properties: { a: deep } };
    for (const inputSchema of [undefined, { type: 'string' }, deep]) {
      const tool = createExternalTool({ name: 't', description: 'd'.repeat(10_000), inputSchema }, async () => ({ content: '', isError: false }));
      expect(tool.jsonSchema).toEqual({ type: 'object', properties: {} });
      expect(tool.description.length).toBeLessThanOrEqual(4_000);
    }
  });

  it('passes object input to the host; rejects non-objects; a throwing host is an error result', async () => {
    const seen: unknown[] = [];
    const tool = createExternalTool({ name: 'vscode__echo', description: 'Echo', inputSchema: schema }, async (input) => {
      seen.push(input);
      if (input.text === 'boom') throw new Error('host fell over');
      return { content: `echo: ${String(input.text)}`, isError: false };
    });
    expect(tool.inputSchema.safeParse([1]).success).toBe(false);
    expect(tool.inputSchema.safeParse('x').success).toBe(false);
    expect(await tool.execute({ text: 'hi' }, ctx())).toEqual({ content: 'echo: hi', isError: false });
    const failed = await tool.execute({ text: 'boom' }, ctx());
    expect(failed.isError).toBe(true);
    expect(failed.content).toMatch(/host fell over/);
    const aborted = new AbortController();
    aborted.abort();
    expect((await tool.execute({ text: 'late' }, ctx(aborted.signal))).isError).toBe(true);
    expect(seen).toEqual([{ text: 'hi' }, { text: 'boom' }]);
  });
});
