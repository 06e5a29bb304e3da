import { describe, expect, it } from 'vitest';
import { decisionText, formatDuration, inputSummary, occurrenceLabel, runDescription, runLabel } from '../../../../src/vscode/tree/hookRunLabels';
import { renderHookRun } from '../../../../src/vscode/tree/hookRunText';
import { parseJsonPath } from '../../../../src/configFiles/jsonPath';
import { candidatePaths, locateHookDefinition } from '../../../../src/vscode/tree/hookDefinitionLocation';
import { record } from '../../../support/hookRunFixtures';

describe('Hook Runs labels', () => {
  it('labels occurrences "PreToolUse · Bash · npm test"', () => {
    expect(occurrenceLabel(record())).toBe('PreToolUse · Bash · npm test');
    expect(occurrenceLabel(record({ matchValue: 'Write', input: { tool_input: { file_path: '/ws/a.ts', content: 'x' } } }))).toBe(
      'PreToolUse · Write · /ws/a.ts',
    );
    expect(occurrenceLabel(record({ event: 'UserPromptSubmit', matchValue: undefined, input: { prompt: 'fix\nthe   tests' } }))).toBe(
      'UserPromptSubmit · fix the tests',
    );
    expect(occurrenceLabel(record({ event: 'BeforeStep', matchValue: undefined, input: {} }))).toBe('BeforeStep');
    expect(inputSummary({ tool_input: { command: 'x'.repeat(200) } })?.length).toBe(60);
  });

  it('labels runs with the command or the code label', () => {
    expect(runLabel(record())).toBe('./check.sh');
    expect(runLabel(record({ hookLabel: 'built-in: max steps', source: { kind: 'code', label: 'built-in limits' } }))).toBe('built-in: max steps');
  });

  it('describes decisions and durations', () => {
    expect(formatDuration(12.4)).toBe('12 ms');
    expect(formatDuration(3200)).toBe('3.2 s');
    expect(formatDuration(65_000)).toBe('1 m 5 s');
    expect(runDescription(record())).toBe('running…');
    expect(runDescription(record({ status: 'blocked', durationMs: 12, outcome: { decision: 'deny' } }))).toBe('deny · 12 ms');
    expect(runDescription(record({ status: 'asked', durationMs: 3200, permission: { decision: 'allow', decidedBy: 'user' } }))).toBe('asked → allow · 3.2 s');
    expect(runDescription(record({ status: 'ok', durationMs: 5 }))).toBe('no decision · 5 ms');
    expect(decisionText(record({ status: 'timed-out' }))).toBe('timed out');
    expect(decisionText(record({ status: 'failed' }))).toBe('failed');
  });
});

describe('renderHookRun', () => {
  it('shows source, outcome, timing, input, stdout, stderr and exit code', () => {
    const text = renderHookRun(
      record({
        status: 'blocked',
        durationMs: 12,
        outcome: { decision: 'deny', reason: 'tests must pass first' },
        raw: { stdout: '{"decision":"block"}', stderr: 'nope', exitCode: 2 },
      }),
    );
    expect(text).toContain('# PreToolUse · Bash — ./check.sh');
    expect(text).toMatch(/Source: +\.claude\/settings\.json › hooks\.PreToolUse\[0\]\.hooks\[0\]/);
    expect(text).toMatch(/Decision: +deny/);
    expect(text).toMatch(/Reason: +tests must pass first/);
    expect(text).toMatch(/Duration: +12 ms/);
    expect(text).toMatch(/Exit code: +2/);
    expect(text).toContain('"command": "npm test"');
    expect(text).toContain('## stdout\n\n{"decision":"block"}');
    expect(text).toContain('## stderr\n\nnope');
    expect(text).toMatch(/Started: +2023-11-14T/);
  });
  it('names the config generation a config-sourced run used (code hooks have none)', () => {
    expect(renderHookRun(record({ status: 'ok', configGeneration: 7 }))).toMatch(/Config: +generation 7/);
    expect(renderHookRun(record({ status: 'ok' }))).not.toContain('Config:');
  });
});

describe('hook definition location', () => {
  it('parses display JSON paths', () => {
    expect(parseJsonPath('hooks.PreToolUse[0].hooks[1]')).toEqual(['hooks', 'PreToolUse', 0, 'hooks', 1]);
    expect(parseJsonPath('hooks["Pre Tool"][2]')).toEqual(['hooks', 'Pre Tool', 2]);
    expect(candidatePaths({ kind: 'settings', scope: 'workspace', jsonPath: 'hookwise.hooks.Stop[0].hooks[0]' })).toEqual([
      ['hookwise.hooks', 'Stop', 0, 'hooks', 0],
      ['settings', 'hookwise.hooks', 'Stop', 0, 'hooks', 0],
    ]);
    expect(candidatePaths({ kind: 'code', label: 'x' })).toEqual([]);
  });

  it('finds the handler in a commented settings file, or its nearest ancestor', () => {
    const text = `{
  // our hooks
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./a.sh" }, { "type": "command", "command": "./b.sh" } ] },
    ]
  }
}`;
    const source = { kind: 'file', scope: 'project', file: '/x', displayFile: '.claude/settings.json', jsonPath: 'hooks.PreToolUse[0].hooks[1]' } as const;
    const span = locateHookDefinition(text, source)!;
    expect(text.slice(span.offset, span.offset + span.length)).toBe('{ "type": "command", "command": "./b.sh" }');
    const gone = locateHookDefinition(text, { ...source, jsonPath: 'hooks.PreToolUse[0].hooks[7]' })!;
    expect(text.slice(gone.offset, gone.offset + 1)).toBe('[');
    const flat = `{ "hookwise.hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "x" } ] } ] } }`;
    const s = locateHookDefinition(flat, { kind: 'settings', scope: 'user', jsonPath: 'hookwise.hooks.Stop[0].hooks[0]' })!;
    expect(flat.slice(s.offset, s.offset + s.length)).toBe('{ "type": "command", "command": "x" }');
  });
});
