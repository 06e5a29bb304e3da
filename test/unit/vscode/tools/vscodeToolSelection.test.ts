import { describe, expect, it } from 'vitest';
import type { LmToolEntry } from '../../../../src/vscode/tools/vscodeToolSelection';
import { agentToolName, enabledPatternsSchema, patternEnables, selectLmTools } from '../../../../src/vscode/tools/vscodeToolSelection';

const entry = (name: string, extensionId?: string): LmToolEntry => ({ name, description: name, inputSchema: undefined, tags: [], extensionId });

const tools = [
  entry('hookwise_test_echo', 'hookwise-test.lm-provider'),
  entry('other_tool', 'hookwise-test.lm-provider'),
  entry('vscode_listCodeUsages'),
  entry('mcp_github_get_issue'),
  entry('weird.name/with spaces', 'acme.tools'),
];

describe('VS Code tool names', () => {
  it('prefixes vscode__ and keeps only characters model endpoints accept, within 64', () => {
    expect(agentToolName('runTests')).toBe('vscode__runTests');
    expect(agentToolName('weird.name/with spaces')).toBe('vscode__weird_name_with_spaces');
    expect(agentToolName('x'.repeat(100))).toHaveLength(64);
  });
});

describe('hookwise.vscodeTools.enabled patterns', () => {
  it('enables nothing by default', () => {
    expect(selectLmTools(tools, [])).toEqual([]);
  });

  it('ext/* takes every tool its extension declares, and nothing of VS Code or MCP', () => {
    expect(selectLmTools(tools, ['hookwise-test.lm-provider/*']).map((t) => t.name)).toEqual(['hookwise_test_echo', 'other_tool']);
  });

  it('ext/tool and a bare tool name (case-insensitive, or its vscode__ name) take one tool', () => {
    expect(selectLmTools(tools, ['Hookwise-Test.LM-Provider/other_tool']).map((t) => t.name)).toEqual(['other_tool']);
    expect(selectLmTools(tools, ['vscode_listCodeUsages']).map((t) => t.name)).toEqual(['vscode_listCodeUsages']);
    expect(selectLmTools(tools, ['vscode__mcp_github_get_issue']).map((t) => t.name)).toEqual(['mcp_github_get_issue']);
  });

  it('an extension pattern never matches a tool whose extension is unknown', () => {
    expect(patternEnables('vscode/*', entry('vscode_listCodeUsages'))).toBe(false);
    expect(patternEnables('*', entry('vscode_listCodeUsages'))).toBe(true);
  });

  it('exclude wins, and two tools with the same agent-side name are offered once', () => {
    const clash = [...tools, entry('weird_name_with_spaces', 'acme.tools')];
    const names = selectLmTools(clash, ['*'], (t) => t.name === 'other_tool').map((t) => agentToolName(t.name));
    expect(names).toEqual(['vscode__hookwise_test_echo', 'vscode__vscode_listCodeUsages', 'vscode__mcp_github_get_issue', 'vscode__weird_name_with_spaces']);
  });

  it('the setting is bounded', () => {
    expect(enabledPatternsSchema.safeParse(['a/*', 'b']).success).toBe(true);
    expect(enabledPatternsSchema.safeParse('a/*').success).toBe(false);
    expect(enabledPatternsSchema.safeParse(Array.from({ length: 201 }, () => 'x')).success).toBe(false);
    expect(enabledPatternsSchema.safeParse(['']).success).toBe(false);
  });
});
