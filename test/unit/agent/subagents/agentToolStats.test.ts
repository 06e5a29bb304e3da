import { describe, expect, it } from 'vitest';
import { AgentToolTally } from '../../../../src/agent/subagents/agentToolStats';

const call = (name: string, args: Record<string, unknown> = {}) => ({ id: `c-${name}`, name, argumentsText: JSON.stringify(args) });

describe("Agent tool_response counts (Claude Code's toolStats)", () => {
  it('counts the subagent’s calls by tool, edited lines as Claude Code counts them, nested agents by their own counts', () => {
    const tally = new AgentToolTally();
    tally.note({ role: 'user', content: 'go' });
    tally.note({
      role: 'assistant',
      content: '',
      toolCalls: [call('Read', { file_path: 'a' }), call('Grep', { pattern: 'x' }), call('Glob', { pattern: '*' }), call('Bash', { command: 'ls' })],
    });
    tally.note({
      role: 'assistant',
      content: '',
      toolCalls: [
        call('Edit', { file_path: 'a', old_string: 'one\ntwo', new_string: 'uno' }),
        call('Write', { file_path: 'b', content: 'x\ny\n' }),
        call('WebFetch', { url: 'u' }),
        call('Agent', { description: 'd', prompt: 'p' }),
        call('Bash', { command: 'pwd' }),
      ],
    });
    tally.addNested({ readCount: 2, searchCount: 0, bashCount: 1, editFileCount: 0, linesAdded: 0, linesRemoved: 0, otherToolCount: 0 });

    expect(tally.toolStats).toEqual({ readCount: 3, searchCount: 2, bashCount: 3, editFileCount: 2, linesAdded: 4, linesRemoved: 2, otherToolCount: 1 });
    expect(tally.totalToolUseCount).toBe(9);
    expect(tally.toolsUsed).toEqual(['Read', 'Grep', 'Glob', 'Bash', 'Edit', 'Write', 'WebFetch', 'Agent']);
  });

  it('counts an Edit whose arguments are not JSON as an edited file with no lines', () => {
    const tally = new AgentToolTally();
    tally.note({ role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'Edit', argumentsText: '{broken' }] });
    expect(tally.toolStats).toMatchObject({ editFileCount: 1, linesAdded: 0, linesRemoved: 0 });
  });
});
