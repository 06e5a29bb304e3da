import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBuiltinTools } from '../../../../src/agent/tools/builtinTools';
import { defineTool } from '../../../../src/agent/tools/tool';
import type { AnyAgentTool } from '../../../../src/agent/tools/tool';
import { ToolSetError, createToolSet } from '../../../../src/agent/tools/toolSet';
import { createTodoStore } from '../../../../src/agent/tools/todoStore';

describe('createToolSet', () => {
  it('holds the built-in tools under their Claude Code names, with permission defaults', () => {
    const set = createToolSet(createBuiltinTools());
    expect(set.names()).toEqual(['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'TaskCreate', 'TaskGet', 'TaskUpdate', 'TaskList']);
    expect(set.tools.filter((t) => t.readOnly).map((t) => t.name)).toEqual(['Read', 'Glob', 'Grep', 'TaskCreate', 'TaskGet', 'TaskUpdate', 'TaskList']);
    expect(set.tools.filter((t) => t.needsApproval).map((t) => t.name)).toEqual(['Write', 'Edit', 'Bash']);
    expect(set.get('Edit')?.name).toBe('Edit');
    expect(set.has('edit')).toBe(false);
    expect(set.get('Task')).toBeUndefined();
  });

  it('declares each tool to the model with a JSON Schema generated once, without $schema', () => {
    const set = createToolSet(createBuiltinTools());
    const decls = set.declarations();
    const edit = decls.find((d) => d.name === 'Edit');
    expect(edit?.parameters).toMatchObject({ type: 'object', required: ['file_path', 'old_string', 'new_string'] });
    expect(edit?.parameters).not.toHaveProperty('$schema');
    expect(set.get('Edit')?.jsonSchema).toBe(set.get('Edit')?.jsonSchema);
    for (const d of decls) expect(d.description.length).toBeGreaterThan(40);
  });

  it('throws a typed error for duplicate names', () => {
    const [read] = createBuiltinTools();
    let caught: unknown;
    try {
      createToolSet([read as AnyAgentTool, read as AnyAgentTool]);
    } catch (err) {
      caught = err;
    }
    expect(ToolSetError.is(caught, 'duplicateName')).toBe(true);
  });
});

describe('defineTool', () => {
  it('turns an unexpected throw into an error result and keeps summaries to one line', async () => {
    const tool = defineTool({
      name: 'Boom',
      description: 'd',
      inputSchema: z.object({ a: z.string() }),
      readOnly: true,
      needsApproval: false,
      summarize: (i) => `line1\n  ${i.a}`,
      execute: async () => {
        throw new Error('kaput');
      },
    });
    const ctx = { cwd: '/', workspaceRoot: '/', signal: new AbortController().signal, sessionId: 's', agentId: 'a', todos: createTodoStore() };
    expect(await tool.execute({ a: 'x' }, ctx)).toEqual({ isError: true, content: 'Boom failed unexpectedly: kaput' });
    expect(tool.summarize({ a: 'x' })).toBe('line1 x');
  });
});
