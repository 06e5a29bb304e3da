import { describe, expect, it } from 'vitest';
import { geminiFormat } from '../../../../src/hooks/formats/gemini/geminiFormat';
import { geminiVerdict } from '../../../../src/hooks/formats/gemini/geminiRuntime';
import type { FormatBinding, FormatRun } from '../../../../src/hooks/formats/hookFormat';
import type { HookMatcher } from '../../../../src/hooks/matchers/hookMatcher';

const where = { file: '/ws/.gemini/settings.json', displayFile: '.gemini/settings.json', scope: 'project' as const };
const parse = (value: unknown) => geminiFormat.parse(typeof value === 'string' ? value : JSON.stringify(value, null, 2), where);
const binding: FormatBinding = { format: 'gemini', nativeEvent: 'BeforeTool', options: { on: 'tool' } };
const run = (over: Partial<FormatRun>): FormatRun => ({
  event: 'PreToolUse',
  binding,
  exitCode: 0,
  stdout: '',
  stderr: '',
  input: { tool_name: 'Bash' },
  ...over,
});

describe('Gemini settings file', () => {
  it('maps events (BeforeModel onto BeforeInference), keeps ms timeouts, reads AfterTool for failures too, and warns (file, line, path) for unknown events', () => {
    const content = parse({
      hooks: {
        BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: './guard.sh', timeout: 5000 }] }],
        AfterTool: [{ hooks: [{ type: 'command', command: './log.sh' }] }],
        BeforeModel: [{ hooks: [{ type: 'command', command: './cost.sh' }] }],
        Sometime: [{ hooks: [{ type: 'command', command: './x.sh' }] }],
        Nope: [],
      },
    });
    expect(content.hooks.map((h) => [h.event, h.binding.nativeEvent, h.binding.timeoutMs])).toEqual([
      ['PreToolUse', 'BeforeTool', 5000],
      ['PostToolUse', 'AfterTool', undefined],
      ['PostToolUseFailure', 'AfterTool', undefined],
      ['BeforeInference', 'BeforeModel', undefined],
    ]);
    expect(content.diagnostics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          severity: 'warning',
          jsonPath: 'hooks.Sometime',
          line: expect.any(Number),
          message: expect.stringContaining('not a Gemini hook event'),
        }),
        expect.objectContaining({ severity: 'warning', code: 'unknownEvent', jsonPath: 'hooks.Nope' }),
      ]),
    );
  });

  it('a malformed file is one error naming it; a wrong-shaped group is skipped with its path and the rest loads', () => {
    const broken = parse('{"hooks": ');
    expect(broken.hooks).toEqual([]);
    expect(broken.diagnostics.length).toBeGreaterThan(0);
    expect(broken.diagnostics).toEqual(
      broken.diagnostics.map(() => expect.objectContaining({ severity: 'error', displayFile: '.gemini/settings.json', line: 1 })),
    );
    const content = parse({ hooks: { BeforeTool: ['nope', { hooks: [{ type: 'command', command: 'x' }] }] } });
    expect(content.hooks).toHaveLength(1);
    expect(content.diagnostics).toEqual([expect.objectContaining({ severity: 'error', jsonPath: 'hooks.BeforeTool[0]' })]);
  });

  it('hooksConfig.enabled false turns the file off, as in Gemini', () => {
    expect(parse({ hooksConfig: { enabled: false }, hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'x' }] }] } }).hooks).toEqual([]);
  });

  it('matchers: regex on Gemini tool names for tools (an invalid regex matches exactly), exact strings on lifecycle events', () => {
    const m = (b: FormatBinding, event: 'PreToolUse' | 'SessionStart') => geminiFormat.compileMatcher(b, event) as HookMatcher;
    const tool = m({ ...binding, matcher: 'shell' }, 'PreToolUse');
    expect(tool.matches({ event: 'PreToolUse', input: { tool_name: 'Bash' } })).toBe(true);
    expect(tool.matches({ event: 'PreToolUse', input: { tool_name: 'Read' } })).toBe(false);
    const literal = m({ ...binding, matcher: 'mcp_(x' }, 'PreToolUse');
    expect(literal.matches({ event: 'PreToolUse', input: { tool_name: 'mcp__(x' } })).toBe(false);
    const start = m({ format: 'gemini', nativeEvent: 'SessionStart', matcher: 'resume', options: { on: 'source' } }, 'SessionStart');
    expect(start.matches({ event: 'SessionStart', input: { source: 'resume' } })).toBe(true);
    expect(start.matches({ event: 'SessionStart', input: { source: 'resumed' } })).toBe(false);
    const any = m({ format: 'gemini', nativeEvent: 'SessionStart' }, 'SessionStart');
    expect(any.matches({ event: 'SessionStart', input: { source: 'compact' } })).toBe(false);
  });

  it('output: JSON is honoured whatever the exit code; plain text is a message on 0, a warning on 1, a deny on 2; no output with a failure fails open', () => {
    expect(geminiVerdict(run({ exitCode: 1, stdout: '{"decision":"deny","reason":"no"}' }))).toMatchObject({
      status: 'ok',
      outcome: { decision: 'deny', reason: 'no' },
    });
    expect(geminiVerdict(run({ stdout: 'fine' }))).toMatchObject({ status: 'ok', outcome: { systemMessage: 'fine' } });
    expect(geminiVerdict(run({ exitCode: 1, stdout: 'meh' }))).toMatchObject({ status: 'ok', outcome: { systemMessage: 'Warning: meh' } });
    expect(geminiVerdict(run({ exitCode: 2, stderr: 'blocked' }))).toMatchObject({ status: 'ok', outcome: { decision: 'deny', reason: 'blocked' } });
    expect(geminiVerdict(run({ exitCode: 2 }))).toMatchObject({ status: 'failed' });
    expect(geminiVerdict(run({ event: 'Stop', stdout: '{"decision":"deny","reason":"run the tests"}' }))).toMatchObject({
      outcome: { decision: 'continue', reason: 'run the tests' },
    });
    expect(geminiVerdict(run({ stdout: '{"continue":false,"stopReason":"budget"}' }))).toMatchObject({ outcome: { decision: 'stop', reason: 'budget' } });
    expect(geminiFormat.failClosed(binding)).toBe(false);
  });
});
