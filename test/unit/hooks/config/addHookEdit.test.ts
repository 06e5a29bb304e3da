import { handlerBody } from '../../../../src/hooks/config/hookConfigSchema';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AddHookError, computeAddHookEdit } from '../../../../src/hooks/config/addHookEdit';
import { readClaudeSettingsText } from '../../../../src/hooks/config/claudeSettingsReader';
import { buildHookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import { FIXTURES } from './configTestKit';

const original = readFileSync(path.join(FIXTURES, 'addHook', 'settings.json'), 'utf8');
const where = { displayFile: '.claude/settings.json' };
const commands = (text: string) => readClaudeSettingsText(text, where).hooks.map((h) => `${h.event} ${h.matcher ?? '*'} ${handlerBody(h.handler)}`);

describe('computeAddHookEdit', () => {
  it('appends to the group with the same matcher, keeping comments and formatting', () => {
    const result = computeAddHookEdit(original, 'PreToolUse', 'Bash', { type: 'command', command: './lint.sh', timeout: 30 });
    expect(result.text).toContain('// Formatting and comments must survive "Add Hook…".');
    expect(result.text).toContain('"model": "sonnet", // trailing comment');
    // Not one existing character changes: the new entry matches its one-line neighbour, the comment stays put.
    expect(result.text).toBe(
      original.replace('"./check.sh" } // keep me', '"./check.sh" }, // keep me\n          { "type": "command", "command": "./lint.sh", "timeout": 30 }'),
    );
    expect(result.jsonPath).toBe('hooks.PreToolUse[0].hooks[1]');
    expect(JSON.parse(result.text.slice(result.offset, result.offset + result.length))).toEqual({ type: 'command', command: './lint.sh', timeout: 30 });
    expect(readClaudeSettingsText(result.text, where).diagnostics).toEqual([]);
    expect(commands(result.text)).toEqual(['PreToolUse Bash ./check.sh', 'PreToolUse Bash ./lint.sh']);
  });

  it('adds a new group for a new matcher and a new event array when missing', () => {
    const withEdit = computeAddHookEdit(original, 'PreToolUse', 'Write|Edit', { type: 'command', command: './fmt.sh' });
    expect(withEdit.jsonPath).toBe('hooks.PreToolUse[1].hooks[0]');
    const withStop = computeAddHookEdit(withEdit.text, 'Stop', undefined, { type: 'prompt', prompt: 'Are all tasks done? $ARGUMENTS' });
    expect(withStop.jsonPath).toBe('hooks.Stop[0].hooks[0]');
    expect(commands(withStop.text)).toEqual(['PreToolUse Bash ./check.sh', 'PreToolUse Write|Edit ./fmt.sh', 'Stop * Are all tasks done? $ARGUMENTS']);
    expect(withStop.text).toContain('// keep me');
    // Two-space indentation is kept for inserted entries.
    expect(withStop.text).toMatch(/\n {4}"Stop": \[\n {6}\{/);
  });

  it('appends inline inside a one-line array, and after a trailing comma', () => {
    const inline = '{ "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "a" }] }] } }';
    expect(computeAddHookEdit(inline, 'Stop', undefined, { type: 'command', command: 'b' }).text).toBe(
      '{ "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "a" }, { "type": "command", "command": "b" }] }] } }',
    );
    const trailing = '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [] },\n    ],\n  },\n}\n';
    const result = computeAddHookEdit(trailing, 'Stop', 'x', { type: 'command', command: 'b' });
    expect(result.text).toBe(
      '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [] },\n      { "matcher": "x", "hooks": [{ "type": "command", "command": "b" }] },\n    ],\n  },\n}\n',
    );
    expect(commands(result.text)).toEqual(['Stop x b']);
  });

  it('creates the file content from nothing', () => {
    const result = computeAddHookEdit('', 'SessionStart', 'startup', { type: 'command', command: 'echo hi' });
    expect(JSON.parse(result.text)).toEqual({ hooks: { SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo hi' }] }] } });
    expect(result.text.endsWith('\n')).toBe(true);
    expect(result.edits).toEqual([{ offset: 0, length: 0, content: result.text }]);
  });

  it('writes VS Code settings.json under the flat "hookwise.hooks" key, which the loader reads back', () => {
    const settings = '{\n\t// mine\n\t"editor.tabSize": 4\n}\n';
    const result = computeAddHookEdit(settings, 'PostToolUse', 'Edit', { type: 'command', command: 'npm run lint' }, { hooksPath: ['hookwise.hooks'] });
    expect(result.jsonPath).toBe('hookwise.hooks.PostToolUse[0].hooks[0]');
    expect(result.text).toContain('\t// mine');
    expect(result.text).toMatch(/\n\t"hookwise.hooks": \{/);
    const value = (JSON.parse(result.text.replace('// mine', '')) as Record<string, unknown>)['hookwise.hooks'];
    const config = buildHookConfig([{ input: { kind: 'settingsValue', scope: 'workspace', value, text: result.text } }]);
    expect(config.diagnostics).toEqual([]);
    expect(config.hooks[0]?.source).toMatchObject({ kind: 'settings', jsonPath: 'hookwise.hooks.PostToolUse[0].hooks[0]' });
  });

  it('refuses invalid input with typed errors', () => {
    expect(() => computeAddHookEdit(original, 'PreToolUse', '[bad', { type: 'command', command: 'x' })).toThrow(AddHookError);
    try {
      computeAddHookEdit('[1, 2]', 'Stop', undefined, { type: 'command', command: 'x' });
    } catch (error) {
      expect(AddHookError.is(error, 'notJsonObject')).toBe(true);
    }
    expect(() => computeAddHookEdit('{}', 'Stop', undefined, { type: 'command', command: '' })).toThrow(/invalid hook/);
    expect(() => computeAddHookEdit('{"hooks": {"Stop": {}}}', 'Stop', undefined, { type: 'command', command: 'x' })).toThrow(AddHookError);
  });
});
