import { describe, expect, it } from 'vitest';
import { HookMatcherError } from '../../../../src/hooks/hookErrors';
import { forEvent } from '../../../../src/hooks/hookContext';
import { compileClaudeMatcher, LEGACY_TOOL_NAME_ALIASES, testClaudeMatcher, tryCompileClaudeMatcher } from '../../../../src/hooks/matchers/claudeMatcher';
import { ToolNameMatcher } from '../../../../src/hooks/matchers/toolNameMatcher';
import { EventTypeMatcher } from '../../../../src/hooks/matchers/eventTypeMatcher';
import { StepTypeMatcher } from '../../../../src/hooks/matchers/stepTypeMatcher';
import { MetadataMatcher } from '../../../../src/hooks/matchers/metadataMatcher';
import { CallableMatcher } from '../../../../src/hooks/matchers/callableMatcher';
import { CompositeMatcher } from '../../../../src/hooks/matchers/compositeMatcher';
import type { MatchTarget } from '../../../../src/hooks/matchers/hookMatcher';
import { env, preToolUse } from '../helpers';

const tool = (name: string): MatchTarget => ({ event: 'PreToolUse', input: preToolUse(name) });

describe('Claude matcher string algorithm (docs/hooks.md §5)', () => {
  it.each([
    // [pattern, value, expected]
    ['Edit.*', 'NotebookEdit', true], // regex path is unanchored
    ['Edit.*', 'Edit', true],
    ['mcp__memory', 'mcp__memory__create_entities', false], // letters/_ only = exact name
    ['mcp__memory', 'mcp__memory', true],
    ['mcp__memory__.*', 'mcp__memory__create_entities', true],
    ['Write|Edit', 'Write', true],
    ['Write|Edit', 'Edit', true],
    ['Write|Edit', 'NotebookEdit', false], // `|` list is exact, not a regex
    ['Write|Edit', 'MultiEdit', false],
    ['*', 'Anything', true],
    ['', 'Anything', true],
    [undefined, 'Anything', true],
    ['bash', 'Bash', false], // case-sensitive (exact)
    ['Bash', 'bash', false],
    ['B.sh', 'Bash', true],
    ['b.sh', 'Bash', false], // case-sensitive (regex)
    ['^Read$', 'Read', true],
    ['^Read$', 'ReadFile', false],
    ['Bash', 'BashOutput', false], // exact name is not a prefix
  ] as const)('%j on %j → %j', (pattern, value, expected) => {
    expect(testClaudeMatcher(pattern, value)).toBe(expected);
    expect(compileClaudeMatcher(pattern).matches(tool(value))).toBe(expected);
  });

  it('reports an invalid regex at load as a typed error, not a silent no-match', () => {
    expect(() => compileClaudeMatcher('Edit(')).toThrow(HookMatcherError);
    try {
      compileClaudeMatcher('[unclosed');
      expect.unreachable();
    } catch (error) {
      expect(HookMatcherError.is(error, 'invalidRegex')).toBe(true);
      expect((error as HookMatcherError).pattern).toBe('[unclosed');
    }
    const result = tryCompileClaudeMatcher('(');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe('invalidRegex');
  });

  it('tests the event’s matcher field, and events without one ignore the matcher', () => {
    const startup = forEvent('SessionStart', env, { source: 'startup' });
    expect(compileClaudeMatcher('startup').matches({ event: 'SessionStart', input: startup })).toBe(true);
    expect(compileClaudeMatcher('resume|clear').matches({ event: 'SessionStart', input: startup })).toBe(false);
    const note = forEvent('Notification', env, { message: 'hi', notification_type: 'idle_prompt' });
    expect(compileClaudeMatcher('idle_.*').matches({ event: 'Notification', input: note })).toBe(true);
    // Stop has no matcher field: every matcher matches
    expect(
      compileClaudeMatcher('Bash').matches({
        event: 'Stop',
        input: forEvent('Stop', env, { stop_hook_active: false, last_assistant_message: '', background_tasks: [], session_crons: [] }),
      }),
    ).toBe(true);
  });

  it('optionally matches legacy aliases (Task selects the Agent tool)', () => {
    expect(compileClaudeMatcher('Task').matches(tool('Agent'))).toBe(false);
    expect(compileClaudeMatcher('Task', { aliases: LEGACY_TOOL_NAME_ALIASES }).matches(tool('Agent'))).toBe(true);
    expect(compileClaudeMatcher('Agent', { aliases: LEGACY_TOOL_NAME_ALIASES }).matches(tool('Agent'))).toBe(true);
    expect(compileClaudeMatcher('Task', { aliases: LEGACY_TOOL_NAME_ALIASES }).matches(tool('Bash'))).toBe(false);
  });
});

describe('matchers of the TypeScript API', () => {
  it('ToolName: exact, *, wildcards, /regex/', () => {
    expect(new ToolNameMatcher('bash').matches(tool('bash'))).toBe(true);
    expect(new ToolNameMatcher('bash').matches(tool('Bash'))).toBe(false);
    expect(new ToolNameMatcher('*').matches(tool('x'))).toBe(true);
    expect(new ToolNameMatcher('read_*').matches(tool('read_file'))).toBe(true);
    expect(new ToolNameMatcher('read_*').matches(tool('xread_file'))).toBe(false); // wildcard is anchored
    expect(new ToolNameMatcher('*_file').matches(tool('write_file'))).toBe(true);
    expect(new ToolNameMatcher('*_file').matches(tool('write_files'))).toBe(false);
    expect(new ToolNameMatcher('read.*').matches(tool('readXfile'))).toBe(false); // `.` is literal in wildcards
    expect(new ToolNameMatcher('/^(read|write)_.+$/').matches(tool('write_x'))).toBe(true);
    expect(new ToolNameMatcher('/^bash$/i').matches(tool('BASH'))).toBe(true);
    const global = new ToolNameMatcher('/a/g'); // stateful flags are dropped: same answer twice
    expect([global.matches(tool('a')), global.matches(tool('a'))]).toEqual([true, true]);
    expect(() => new ToolNameMatcher('/(/')).toThrow(HookMatcherError);
    expect(
      new ToolNameMatcher('Bash').matches({
        event: 'Stop',
        input: forEvent('Stop', env, { stop_hook_active: false, last_assistant_message: '', background_tasks: [], session_crons: [] }),
      }),
    ).toBe(false);
  });

  it('EventType, StepType, Metadata, Callable', () => {
    expect(new EventTypeMatcher('BeforeStep', 'AfterStep').matches({ event: 'AfterStep', input: {} })).toBe(true);
    expect(new EventTypeMatcher('BeforeStep').matches({ event: 'AfterStep', input: {} })).toBe(false);
    expect(new StepTypeMatcher('final_response').matches({ event: 'AfterStep', input: { step_type: 'final_response' } })).toBe(true);
    expect(new StepTypeMatcher('final_response').matches({ event: 'AfterStep', input: { step_type: 'tool_execution' } })).toBe(false);
    expect(new StepTypeMatcher('final_response').matches({ event: 'AfterStep', input: {} })).toBe(false);
    const meta = { safe_mode: true, budget: { tier: 'low' } };
    expect(new MetadataMatcher('safe_mode').matches({ event: 'BeforeStep', input: {}, metadata: meta })).toBe(true);
    expect(new MetadataMatcher('missing').matches({ event: 'BeforeStep', input: {}, metadata: meta })).toBe(false);
    expect(new MetadataMatcher('budget.tier', 'low').matches({ event: 'BeforeStep', input: {}, metadata: meta })).toBe(true);
    expect(new MetadataMatcher('budget', { tier: 'low' }).matches({ event: 'BeforeStep', input: {}, metadata: meta })).toBe(true);
    expect(new MetadataMatcher('budget.tier', 'high').matches({ event: 'BeforeStep', input: {}, metadata: meta })).toBe(false);
    expect(new MetadataMatcher('safe_mode').matches({ event: 'BeforeStep', input: {} })).toBe(false);
    expect(new CallableMatcher((t) => t.input['tool_name'] === 'Bash').matches(tool('Bash'))).toBe(true);
    expect(new CallableMatcher((t) => t.input['tool_name'] === 'Bash').matches(tool('Read'))).toBe(false);
  });

  it('Composite and/or/not, nested', () => {
    const bashOrShell = CompositeMatcher.or(new ToolNameMatcher('Bash'), new ToolNameMatcher('shell'));
    const early = new CallableMatcher((t) => t.metadata?.['step'] === 1);
    const m = CompositeMatcher.and(bashOrShell, early);
    expect(m.matches({ ...tool('Bash'), metadata: { step: 1 } })).toBe(true);
    expect(m.matches({ ...tool('shell'), metadata: { step: 1 } })).toBe(true);
    expect(m.matches({ ...tool('Bash'), metadata: { step: 2 } })).toBe(false);
    expect(m.matches({ ...tool('Read'), metadata: { step: 1 } })).toBe(false);
    expect(CompositeMatcher.not(bashOrShell).matches(tool('Read'))).toBe(true);
    expect(CompositeMatcher.and().matches(tool('x'))).toBe(true);
    expect(CompositeMatcher.or().matches(tool('x'))).toBe(false);
    expect(m.description).toContain('tool Bash');
  });
});
