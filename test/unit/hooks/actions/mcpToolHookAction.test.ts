import { describe, expect, it } from 'vitest';
import { McpToolHookAction, substitute } from '../../../../src/hooks/actions/mcpToolHookAction';

// An mcp_tool hook's arguments are filled from the hook input; a tool error or a thrown call is a
// hook failure (non-blocking unless continueOnFailure: false), never a decision.

describe('substitute', () => {
  const input = { session_id: 's1', tool_input: { file_path: '/w/a.ts', n: 3 }, cwd: '/w' };
  it('fills ${path} in strings, keeps the type of a whole-value placeholder, leaves missing paths empty', () => {
    expect(
      substitute({ path: '${tool_input.file_path}', n: '${tool_input.n}', note: 'in ${cwd} for ${session_id}', gone: '${nope.x}', deep: ['${cwd}'] }, input),
    ).toEqual({
      path: '/w/a.ts',
      n: 3,
      note: 'in /w for s1',
      gone: '',
      deep: ['/w'],
    });
  });
  it('does not walk the prototype', () => {
    expect(substitute('${constructor.name}', input)).toBe('');
  });
});

describe('McpToolHookAction', () => {
  const ctx = (signal = new AbortController().signal) => ({ event: 'PreToolUse', signal }) as never;
  it('a tool error is a failure with its text; a thrown call names the tool', async () => {
    const failing = new McpToolHookAction('s', 't', {}, async () => ({ text: 'boom', isError: true }));
    expect(await failing.run({}, ctx())).toMatchObject({ status: 'failed', error: 'mcp__s__t failed: boom' });
    const throwing = new McpToolHookAction('s', 't', {}, async () => Promise.reject(new Error('not connected')));
    expect(await throwing.run({}, ctx())).toMatchObject({ status: 'failed', error: 'mcp__s__t: not connected' });
  });
});
